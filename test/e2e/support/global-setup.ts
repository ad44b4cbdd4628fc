import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { chromiumExecutablePath, CHROMIUM_ARGS } from './chromium.ts';
import { buildUiIfStale } from '../../../core/bootstrap/runtime.mjs';
import { startSecretScan } from '../../support/secret-scan.ts';
import { startSharedPostgres } from '../../support/shared-postgres.ts';
import '../../integration/support/provided-context.ts';
import { startEngine } from './engine.ts';

/**
 * One engine (a real `opl start` child process with its own data dir and embedded PostgreSQL) and
 * one headless Debian Chromium for the whole e2e run. Tests receive the engine's base URL and the
 * browser's WebSocket endpoint through `inject`. Tests that need an engine of their own (another
 * mode, their own fakes) give it a database on one more shared server (`oplTestAdminUrl`) instead
 * of initialising a PostgreSQL server each.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    oplBaseUrl: string;
    chromiumWsEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) throw new Error(`e2e: needs Node 24 or newer to run the engine; this is Node ${process.versions.node}.`);

  const executablePath = chromiumExecutablePath();
  if (!existsSync(executablePath)) {
    throw new Error(`e2e: no Chromium at ${executablePath}. Install Debian chromium: apt-get install chromium (or set OPL_CHROMIUM_PATH).`);
  }

  try {
    buildUiIfStale(process.execPath);
  } catch (error) {
    throw new Error(`e2e: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }

  const cleanups: (() => Promise<void>)[] = [];
  const teardown = async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        process.stderr.write(`e2e teardown: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
  };

  try {
    // Playwright gives the browser a fresh temporary profile (user-data-dir) and removes it on close.
    const browserServer = await chromium.launchServer({ executablePath, headless: true, args: [...CHROMIUM_ARGS] });
    cleanups.push(() => browserServer.close());
    // The engine inherits the ledger: its demo fakes record the tokens they issue, and its whole
    // output is scanned for them when it stops.
    const scan = startSecretScan();
    cleanups.push(async () => {
      const result = scan.finish();
      scan.dispose();
      if (result.leaks.length > 0) throw new Error(`secret scan: issued token(s) appeared in the engine's output: ${result.leaks.map((leak) => leak.secretPrefix).join(', ')}`);
    });
    const postgresRoot = await mkdtemp(join(tmpdir(), 'opl-e2e-postgres-'));
    cleanups.push(() => rm(postgresRoot, { recursive: true, force: true }));
    const postgres = await startSharedPostgres({ rootDir: postgresRoot, ownedRoot: postgresRoot, name: 'opl_e2e' });
    cleanups.push(() => postgres.stop());
    project.provide('oplTestAdminUrl', postgres.adminUrl);
    // Demo mode: simulated Spotify and TIDAL in the engine, so browser tests can connect accounts.
    const engine = await startEngine(() => ({ OPL_DEMO: '1' }));
    cleanups.push(() => engine.stop());

    project.provide('oplBaseUrl', engine.baseUrl);
    project.provide('chromiumWsEndpoint', browserServer.wsEndpoint());
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
