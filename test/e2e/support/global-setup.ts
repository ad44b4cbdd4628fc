import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { chromiumExecutablePath, CHROMIUM_ARGS } from './chromium.ts';
import { projectRoot, startEngine } from './engine.ts';

/**
 * One engine (a real `opl start` child process with its own data dir and embedded PostgreSQL) and
 * one headless Debian Chromium for the whole e2e run. Tests receive the engine's base URL and the
 * browser's WebSocket endpoint through `inject`.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    oplBaseUrl: string;
    chromiumWsEndpoint: string;
  }
}

const uiDir = join(projectRoot, 'ui');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Same rule as the `opl` bootstrap: build when ui/dist is missing or older than any UI source. */
function buildUiIfStale(): void {
  const builtIndex = join(uiDir, 'dist', 'index.html');
  if (existsSync(builtIndex) && statSync(builtIndex).mtimeMs >= newestMtime(uiDir)) return;
  const vite = join(projectRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--config', join(uiDir, 'vite.config.ts'), '--logLevel', 'warn'], {
    cwd: projectRoot,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`e2e: the UI build (vite build) failed:\n${result.stdout}\n${result.stderr}`);
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) throw new Error(`e2e: needs Node 24 or newer to run the engine; this is Node ${process.versions.node}.`);

  const executablePath = chromiumExecutablePath();
  if (!existsSync(executablePath)) {
    throw new Error(`e2e: no Chromium at ${executablePath}. Install Debian chromium: apt-get install chromium (or set OPL_CHROMIUM_PATH).`);
  }

  buildUiIfStale();

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
    const engine = await startEngine();
    cleanups.push(() => engine.stop());

    project.provide('oplBaseUrl', engine.baseUrl);
    project.provide('chromiumWsEndpoint', browserServer.wsEndpoint());
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
