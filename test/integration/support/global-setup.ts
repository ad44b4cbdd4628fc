import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { LEDGER_ENV, startSecretScan, TRANSCRIPT_ENV } from '../../support/secret-scan.ts';
import { startSharedPostgres } from '../../support/shared-postgres.ts';
import './provided-context.ts';

/**
 * One embedded PostgreSQL server for the whole integration run, in a temporary directory on a
 * free port. Test files create their own databases on it (see test-database.ts). Vitest runs the
 * returned teardown also when tests fail; should the run itself die, the server's exit hook asks
 * it to shut down.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = await mkdtemp(join(tmpdir(), 'opl-integration-'));
  const scan = startSecretScan();
  project.provide('oplSecretLedger', process.env[LEDGER_ENV]!);
  project.provide('oplTranscriptDir', process.env[TRANSCRIPT_ENV]!);
  try {
    const server = await startSharedPostgres({ rootDir: root, ownedRoot: root, name: 'opl_integration' });
    project.provide('oplTestAdminUrl', server.adminUrl);
    project.provide('oplTestRoot', root);
    return async () => {
      try {
        await server.stop();
      } finally {
        await rm(root, { recursive: true, force: true });
      }
      // No token the fakes issued may appear in any log line or API answer of the run.
      const result = scan.finish();
      scan.dispose();
      if (result.leaks.length > 0) {
        throw new Error(`secret scan: ${result.leaks.length} issued token(s) appeared in logs or API answers: ${result.leaks.slice(0, 10).map((leak) => `${leak.secretPrefix} in ${leak.file}`).join('; ')}`);
      }
      process.stdout.write(`secret scan: ${result.secrets} issued tokens, ${result.transcripts} transcripts, no leak\n`);
    };
  } catch (error) {
    scan.dispose();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}
