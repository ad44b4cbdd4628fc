import { defineConfig } from 'vitest/config';
import { compileCacheDir } from './core/bootstrap/runtime.mjs';

// Child processes of the tests (CLI runs, worker processes, the plugin host) start from Node's
// compile cache; `npm test` sets it already, this covers `npx vitest` run directly.
process.env['NODE_COMPILE_CACHE'] ??= compileCacheDir;

// Three projects: `unit` (pure logic, no I/O), `integration` (one embedded PostgreSQL for the run,
// each test file its own database, HTTP through the real app) and `e2e` (the engine + Debian
// Chromium driven by playwright-core, one browser shared). isolated-vm needs --no-node-snapshot.
const execArgv = ['--no-node-snapshot'];

export default defineConfig({
  test: {
    pool: 'forks',
    execArgv,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['core/**/*.test.ts', 'plugin-sdk/**/*.test.ts', 'plugins/**/*.test.ts', 'test/unit/**/*.test.ts'],
          environment: 'node',
          // Pure logic without global state: the files of one worker share their module cache
          // instead of importing the same parsers and schemas again for each of 190 files.
          isolate: false,
          // Stated, not inherited: a project that does not isolate would otherwise get another
          // worker count than `integration`, and vitest refuses to run the two in one group.
          maxWorkers: 2,
          // Hostile-file tests read 50 MB inputs: about a second alone, several when the integration
          // and e2e projects share the two cores; the default 5 s turned that load into failures.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/integration/support/global-setup.ts'],
          setupFiles: ['test/integration/support/secret-scan.setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
