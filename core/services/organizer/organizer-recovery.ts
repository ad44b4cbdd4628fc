import type { Logger } from '../../logging/logger.ts';
import type { SqlExecute } from '../../storage/sql/executors.ts';
import { selectStrandedJobs } from './organizer.sql.ts';

/**
 * Keeps organizer jobs moving in a worker process: a job whose worker died (its lease ran out
 * with items still `running` or `pending`) goes back to the queue, where the next run settles
 * every interrupted item by reading the playlist before anything is sent. Runs at worker start
 * and then every lease period; a duplicate queue entry is harmless (the run finds the lease taken
 * or the job finished).
 */
export class OrganizerRecovery {
  readonly #execute: SqlExecute;
  readonly #enqueue: (jobId: string) => Promise<void>;
  readonly #intervalSeconds: number;
  readonly #logger: Logger;
  #timer: ReturnType<typeof setInterval> | undefined;
  #running = false;

  constructor(options: { execute: SqlExecute; enqueue: (jobId: string) => Promise<void>; intervalSeconds: number; logger: Logger }) {
    this.#execute = options.execute;
    this.#enqueue = options.enqueue;
    this.#intervalSeconds = options.intervalSeconds;
    this.#logger = options.logger;
  }

  async sweep(): Promise<number> {
    if (this.#running) return 0;
    this.#running = true;
    try {
      const ids = (await this.#execute(selectStrandedJobs())).map((row) => String(row['id']));
      for (const id of ids) await this.#enqueue(id);
      if (ids.length > 0) this.#logger.info({ jobs: ids.length }, 'organizer jobs re-queued (worker gone)');
      return ids.length;
    } finally {
      this.#running = false;
    }
  }

  start(): void {
    const sweep = () => void this.sweep().catch((error: unknown) => this.#logger.warn({ err: error }, 'organizer recovery sweep failed'));
    sweep();
    this.#timer = setInterval(sweep, this.#intervalSeconds * 1000);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
  }
}
