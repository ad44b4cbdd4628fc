import type { Logger } from '../../logging/logger.ts';
import { PgListener } from '../../storage/pg-listener.ts';
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
  } else if (items.length > 0) {
    // Items moved but the job row did not (matching, a review decision): the job's counts did
    // change, so the job follows too — numbered like the last item (a derived view, not a change
    // of its own, so resuming after it skips nothing).
    const [current] = await execute({ text: `select ${JOB_COLUMNS} from migration_job where id = ?`, values: [jobId] });
    if (current) events.push({ id: Number(items[items.length - 1]!['progress_seq']), type: 'job', data: jobView(jobRow(current), countsFrom(await execute(selectItemCounts(jobId)))) });
  }
  return events.sort((a, b) => a.id - b.id);
}

/** One LISTEN connection per process and channel, fanning notifications out to the open event streams (keyed by the notified id). */
export class ProgressChannel {
  readonly #listeners = new Map<string, Set<() => void>>();
  readonly #connection: PgListener;

  /** `channel`: the NOTIFY channel of the rows' progress triggers (migrations by default; generator drafts use their own). */
  constructor(connectionString: string, logger: Logger, channel: string = PROGRESS_CHANNEL) {
    this.#connection = new PgListener({
      connectionString,
      channel,
      applicationName: `opl-progress-listener`,
      logger,
      onNotify: (jobId) => {
        for (const wake of this.#listeners.get(jobId) ?? []) wake();
      },
      // Changes made while the connection was down were not announced: every stream looks again.
      onReconnect: () => {
        for (const set of this.#listeners.values()) for (const wake of set) wake();
      },
    });
  }

  /** Calls `wake` whenever the job changes (and after a reconnect, since notifications may have been missed). */
  async subscribe(jobId: string, wake: () => void): Promise<() => void> {
    await this.#connection.start();
    const set = this.#listeners.get(jobId) ?? new Set();
    set.add(wake);
    this.#listeners.set(jobId, set);
    return () => {
      set.delete(wake);
      if (set.size === 0) this.#listeners.delete(jobId);
    };
  }

  close(): Promise<void> {
    return this.#connection.close();
  }
}
