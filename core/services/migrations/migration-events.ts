import pg from 'pg';
import type { Logger } from '../../logging/logger.ts';
import { ITEM_COLUMNS, JOB_COLUMNS, selectItemCounts } from './migration-jobs.sql.ts';
import type { Execute } from './migration-store.ts';
import { countsFrom, itemView, jobRow, jobView, type ItemView, type JobView } from './migration-views.ts';

/**
 * Live progress of a migration, derived from the persisted rows: every change of a job or one of
 * its items gets the next number of one sequence (a trigger, under the job's lock, so numbers
 * follow commit order), and that number is the event id. A client that reconnects with
 * `Last-Event-ID: N` gets every row changed after N — nothing is lost, whatever it missed. The
 * trigger's NOTIFY wakes the streams of every engine process, whichever process made the change.
 */

export const PROGRESS_CHANNEL = 'opl_migration_progress';
const EVENT_BATCH = 500;

export type ProgressEvent = { id: number; type: 'job'; data: JobView } | { id: number; type: 'item'; data: ItemView };

/** The changes of a job after event id `after`, oldest first (at most a batch; call again for more). */
export async function eventsAfter(execute: Execute, jobId: string, after: number): Promise<ProgressEvent[]> {
  const items = await execute({ text: `select ${ITEM_COLUMNS} from job_item where job_id = ? and progress_seq > ? order by progress_seq limit ?`, values: [jobId, after, EVENT_BATCH] });
  const lastItem = items.length === EVENT_BATCH ? Number(items[items.length - 1]!['progress_seq']) : Number.POSITIVE_INFINITY;
  const [job] = await execute({ text: `select ${JOB_COLUMNS} from migration_job where id = ? and progress_seq > ? and progress_seq <= ?`, values: [jobId, after, Number.isFinite(lastItem) ? lastItem : Number.MAX_SAFE_INTEGER] });
  const events: ProgressEvent[] = items.map((row) => ({ id: Number(row['progress_seq']), type: 'item' as const, data: itemView(row) }));
  if (job) {
    const parsed = jobRow(job);
    events.push({ id: parsed.progressSeq, type: 'job', data: jobView(parsed, countsFrom(await execute(selectItemCounts(jobId)))) });
  }
  return events.sort((a, b) => a.id - b.id);
}

const MAX_RECONNECT_DELAY_MS = 30_000;

/** One LISTEN connection per process, fanning notifications out to the open event streams. */
export class ProgressChannel {
  readonly #connectionString: string;
  readonly #logger: Logger;
  readonly #listeners = new Map<string, Set<() => void>>();
  #client: pg.Client | undefined;
  #connecting: Promise<void> | undefined;
  #reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  #failures = 0;
  #closed = false;

  constructor(connectionString: string, logger: Logger) {
    this.#connectionString = connectionString;
    this.#logger = logger;
  }

  /** Calls `wake` whenever the job changes (and after a reconnect, since notifications may have been missed). */
  async subscribe(jobId: string, wake: () => void): Promise<() => void> {
    await this.#ensureConnected();
    const set = this.#listeners.get(jobId) ?? new Set();
    set.add(wake);
    this.#listeners.set(jobId, set);
    return () => {
      set.delete(wake);
      if (set.size === 0) this.#listeners.delete(jobId);
    };
  }

  #ensureConnected(): Promise<void> {
    if (this.#client) return Promise.resolve();
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#connectionString, application_name: 'opl-progress-listener' });
    const lost = (error?: Error) => {
      if (this.#closed || this.#client !== client) return;
      this.#client = undefined;
      this.#logger.warn({ err: error }, 'migration progress listener lost its connection; reconnecting');
      client.end().catch(() => undefined);
      this.#scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel !== PROGRESS_CHANNEL || !message.payload) return;
      for (const wake of this.#listeners.get(message.payload) ?? []) wake();
    });
    await client.connect();
    await client.query(`LISTEN ${PROGRESS_CHANNEL}`);
    this.#client = client;
    this.#failures = 0;
  }

  #scheduleReconnect(): void {
    const delay = Math.min(MAX_RECONNECT_DELAY_MS, 500 * 2 ** this.#failures);
    this.#failures += 1;
    this.#reconnectTimer = setTimeout(() => {
      this.#connect()
        .then(() => {
          for (const set of this.#listeners.values()) for (const wake of set) wake();
        })
        .catch((error: unknown) => {
          this.#logger.warn({ err: error }, 'migration progress listener could not reconnect');
          this.#scheduleReconnect();
        });
    }, delay);
    this.#reconnectTimer.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }
}
