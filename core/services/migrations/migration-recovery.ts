import type { Logger } from '../../logging/logger.ts';
import { requeueDuePausedJob, selectDuePausedJobs, selectOrphanedJobs } from './migration-jobs.sql.ts';
import type { MigrationStore } from './migration-store.ts';

/**
 * Keeps every migration moving in a worker process: jobs whose worker died (their lease ran out)
 * and paused jobs whose provider quota has reset go back to the queue. Runs at worker start and
 * then every lease period; a duplicate queue entry is harmless (the run finds the lease taken).
 */
export class MigrationRecovery {
  readonly #store: MigrationStore;
  readonly #enqueue: (jobId: string) => Promise<void>;
  readonly #leaseSeconds: number;
  readonly #logger: Logger;
  #timer: ReturnType<typeof setInterval> | undefined;
  #running = false;

  constructor(options: { store: MigrationStore; enqueue: (jobId: string) => Promise<void>; leaseSeconds: number; logger: Logger }) {
    this.#store = options.store;
    this.#enqueue = options.enqueue;
    this.#leaseSeconds = options.leaseSeconds;
    this.#logger = options.logger;
  }

  async sweep(): Promise<number> {
    if (this.#running) return 0;
    this.#running = true;
    try {
      // One job at a time under its lock (see MigrationStore): a job resumed or cancelled in between is left as it is.
      const due: Record<string, unknown>[] = [];
      for (const row of await this.#store.execute(selectDuePausedJobs(100))) due.push(...(await this.#store.change(String(row['id']), requeueDuePausedJob(String(row['id'])))));
      const orphaned = await this.#store.execute(selectOrphanedJobs(this.#leaseSeconds, 100));
      const ids = [...new Set([...due, ...orphaned].map((row) => String(row['id'])))];
      for (const id of ids) await this.#enqueue(id);
      if (ids.length > 0) this.#logger.info({ jobs: ids.length }, 'migrations re-queued (worker gone or quota reset)');
      return ids.length;
    } finally {
      this.#running = false;
    }
  }

  start(): void {
    void this.sweep().catch((error: unknown) => this.#logger.warn({ err: error }, 'migration recovery sweep failed'));
    this.#timer = setInterval(() => {
      void this.sweep().catch((error: unknown) => this.#logger.warn({ err: error }, 'migration recovery sweep failed'));
    }, this.#leaseSeconds * 1000);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
  }
}
