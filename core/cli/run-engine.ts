import { createApp, type AppRoles } from '../app/index.ts';
import { createLogger } from '../logging/logger.ts';
import type { Config } from '../config/index.ts';

/**
 * Runs an engine process until SIGINT/SIGTERM, then stops it gracefully (HTTP, jobs, database,
 * embedded server). A second signal while stopping exits at once.
 */
export async function runEngine(config: Config, roles: AppRoles): Promise<number> {
  const logger = createLogger({ level: config.logLevel });
  let app;
  try {
    app = await createApp(config, roles, { logger });
    await app.start();
  } catch (error) {
    logger.fatal({ err: error }, 'the engine could not start');
    await app?.stop();
    return 1;
  }
  const running = app;
  return new Promise<number>((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn({ signal }, 'second signal: exiting without a graceful stop');
        process.exit(130);
      }
      stopping = true;
      logger.info({ signal }, 'stopping');
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
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
