import type { Config } from '../config/index.ts';
import type { JobQueue } from '../jobs/index.ts';
import type { Logger } from '../logging/logger.ts';
import type { OwnerSessionService } from '../services/owner/owner-session.service.ts';
import type { Database } from '../storage/index.ts';

/** Everything the engine wires together once per process; handed to routes and job handlers. */
export interface AppServices {
  config: Config;
  logger: Logger;
  database: Database;
  jobs: JobQueue<AppServices>;
  ownerSessions: OwnerSessionService;
}
