import { createApp } from '../../../../core/app/index.ts';
import { loadConfig } from '../../../../core/config/index.ts';
import { createLogger } from '../../../../core/logging/logger.ts';

/**
 * A worker-only engine process for the crash and concurrency tests: the real `createApp` with the
 * worker role on the test's database, pointed at the test's fake providers. The parent passes its
 * OPL_* variables in the environment (same database, plugin registry and vault key, so this process
 * can decrypt the accounts the test connected) and the fakes' origins as JSON in
 * TEST_MIGRATION_WORKER_OPTIONS. It prints a ready line once it polls the queue, and the parent may kill
 * it with SIGKILL at any moment — that is the point.
 */

interface WorkerOptions {
  originOverrides: Record<string, string>;
  clients: Record<string, { client_id: string }>;
  leaseSeconds: number;
  sliceSeconds: number;
}

export const WORKER_READY = 'opl-test-worker-ready';

const options = JSON.parse(process.env['TEST_MIGRATION_WORKER_OPTIONS'] ?? '{}') as WorkerOptions;
const env = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[0].startsWith('OPL_') && entry[1] !== undefined));
const config = loadConfig(env);
const app = await createApp(config, { http: false, worker: true }, {
  logger: createLogger({ level: config.logLevel }),
  skipMigrations: true,
  workerPollingIntervalSeconds: 0.5,
  providerOriginOverrides: options.originOverrides,
  providerClients: options.clients,
  migrationLeaseSeconds: options.leaseSeconds,
  migrationSliceSeconds: options.sliceSeconds,
  // The organizer's job lease too: a killed worker's organizer job is recovered as quickly.
  organizerLeaseSeconds: options.leaseSeconds,
  // And a sync run's lease: a killed worker's run is taken over by the next evaluation as quickly.
  syncLeaseSeconds: options.leaseSeconds,
});
// A standby worker (TEST_WORKER_STANDBY=1) is built but starts polling only when its parent
// writes a line: the crash tests warm the next worker while the current one works.
if (process.env['TEST_WORKER_STANDBY'] === '1') {
  process.stdout.write('opl-test-worker-standby\n');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
}
await app.start();
process.stdout.write(`${WORKER_READY}\n`);

let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  void app.stop().finally(() => process.exit(0));
});
