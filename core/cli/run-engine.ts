import { createApp, type App, type AppRoles } from '../app/index.ts';
import { ENGINE_VERSION } from '../app/version.ts';
import { createLogger } from '../logging/logger.ts';
import { readableDestination, readableLogs } from '../logging/readable-log.ts';
import { startBanner } from './start-banner.ts';
import type { Config } from '../config/index.ts';
import { heapProfileFlags } from '../bootstrap/heap-profile.mjs';

/** How long a repeat of the first stop signal counts as a copy of it rather than a second request. */
const SAME_SIGNAL_WINDOW_MS = 2_000;

/**
 * Runs an engine process until SIGINT/SIGTERM, then stops it gracefully (HTTP, jobs, plugin host,
 * database, embedded server). The handlers are installed before anything starts: a signal that
 * arrives while the engine is still starting (a supervisor restarting it, Ctrl-C during a slow
 * start) lets the start finish and then stops cleanly, instead of killing the process half-built.
 * A second signal exits at once. Copies of the first that arrive within two seconds are the same
 * request, not a second one: Ctrl-C in a terminal signals the whole process group, so the engine
 * hears it once from the terminal and once more from each launcher that forwards it (`npm start`
 * runs the engine under two), and counting those as a second signal skipped the graceful stop.
 */
export async function runEngine(config: Config, roles: AppRoles): Promise<number> {
  // A person at a terminal gets readable lines and a banner; services and pipes keep JSON lines.
  const readable = readableLogs(config.logFormat, process.stdout.isTTY === true);
  const logger = createLogger({ level: config.logLevel, ...(readable ? { destination: readableDestination(process.stdout) } : {}) });
  let stopRequested = false;
  let firstSignal: { signal: NodeJS.Signals; at: number } | null = null;
  let requestStop: (() => void) | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (firstSignal !== null) {
      if (signal === firstSignal.signal && performance.now() - firstSignal.at < SAME_SIGNAL_WINDOW_MS) {
        logger.debug({ signal }, 'the same signal again (forwarded by a launcher): still stopping');
        return;
      }
      logger.warn({ signal }, 'second signal: exiting without a graceful stop');
      process.exit(130);
    }
    firstSignal = { signal, at: performance.now() };
    stopRequested = true;
    logger.info({ signal }, 'stopping');
    requestStop?.();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // The heap profile is a set of node flags the `opl` launcher adds; an engine started by hand
  // (`node core/cli/main.ts start`) runs without them unless they are given.
  const missingFlags = heapProfileFlags(config.heapProfile).filter((flag) => !process.execArgv.includes(flag));
  if (missingFlags.length > 0) {
    logger.warn(
      { heap_profile: config.heapProfile, missing_node_flags: missingFlags },
      `OPL_HEAP_PROFILE is ${config.heapProfile} but node was started without ${missingFlags.join(' ')}: start the engine with \`opl\` or \`npm start\`, or add the flag yourself`,
    );
  }

  let app: App | undefined;
  try {
    app = await createApp(config, roles, { logger });
    if (!stopRequested) {
      const url = await app.start();
      if (readable) {
        process.stdout.write(
          startBanner({ url, version: ENGINE_VERSION, roles, mode: config.deploymentMode, dataDir: config.dataDir, embeddedDatabase: !config.databaseUrl, demo: config.demo }),
        );
      }
    }
  } catch (error) {
    logger.fatal({ err: error }, 'the engine could not start');
    await app?.stop();
    return 1;
  }
  const running = app;
  const stopped = new Promise<number>((resolve) => {
    requestStop = () => {
      running
        .stop()
        .then(() => {
          logger.info('stopped');
          resolve(0);
        })
        .catch((error: unknown) => {
          logger.error({ err: error }, 'stop failed');
          resolve(1);
        });
    };
  });
  if (stopRequested) requestStop?.();
  return stopped;
}
