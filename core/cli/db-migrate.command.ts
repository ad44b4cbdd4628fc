import type { Config } from '../config/index.ts';
import { createLogger } from '../logging/logger.ts';
import { openDatabase } from '../storage/index.ts';

/** `opl db migrate`: applies pending database migrations (starting the embedded server if needed) and exits. */
export async function dbMigrateCommand(config: Config): Promise<number> {
  const logger = createLogger({ level: config.logLevel });
  const database = await openDatabase(config, logger, { migrate: true });
  await database.close();
  logger.info('database is up to date');
  return 0;
}
