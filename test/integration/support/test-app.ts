import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createApp, type App, type AppOverrides, type AppRoles } from '../../../core/app/index.ts';
import { loadConfig } from '../../../core/config/index.ts';
import { createLogger } from '../../../core/logging/logger.ts';
import { writeTranscript } from '../../support/secret-scan.ts';
import { snapshotArchiveText } from './snapshot-archive-text.ts';
import { createTestDatabase } from './test-database.ts';

/** The owner secret and public base URL that turn the owner-session gate on, for tests that need it. */
export const GATE_OWNER_SECRET = 'correct horse battery staple';
export const SESSION_GATE_ENV = { OPL_PUBLIC_BASE_URL: 'https://music.example.test', OPL_OWNER_SECRET: GATE_OWNER_SECRET };

export interface TestApp {
  app: App;
  /** Every log line the app wrote, for asserting that secrets never reach the logs. */
  logs: string[];
  databaseUrl: string;
  close(): Promise<void>;
}

/**
 * A real engine (HTTP and, if asked, worker) on this test file's own fresh database. `env` takes
 * OPL_* variables exactly as a user would set them, so configuration goes through the real schema.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  roles: AppRoles = { http: true, worker: false },
  overrides: Omit<AppOverrides, 'logger'> = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'opl-test-data-'));
  // Unless a test brings its own, an empty registry: tests never see the checkout's local plugins.
  const pluginDefaults = { OPL_REGISTRY_DIR: join(dataDir, 'empty-registry'), OPL_PLUGIN_TRUST_FILE: join(dataDir, 'trusted-keys.json') };
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString('utf8'));
      callback();
    },
  });
  const config = loadConfig({ OPL_DATABASE_URL: database.url, OPL_DATA_DIR: dataDir, OPL_PORT: '0', ...pluginDefaults, ...env });
  const answers: string[] = [];
  const app = await createApp(config, roles, {
    responseTap: (body) => answers.push(body.slice(0, 1_000_000)),
    ...overrides,
    logger: createLogger({ level: 'debug', destination }),
    workerPollingIntervalSeconds: 0.5,
  });
  await app.start();
  return {
    app,
    logs,
    databaseUrl: database.url,
    async close() {
      await app.stop();
      writeTranscript('integration-app', [...logs, ...answers]);
      // Snapshot archives are scanned too: every record and manifest of every archive left behind.
      writeTranscript('snapshot-archives', await snapshotArchiveText(config.snapshotDir));
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
