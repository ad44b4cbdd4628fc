import type { Logger } from '../../logging/logger.ts';
import { SYNC_PROGRESS_CHANNEL } from '../../storage/entities/sync-rule.entity.ts';
import { PgListener } from '../../storage/pg-listener.ts';
import type { SqlExecute } from '../../storage/sql/executors.ts';
import { deletionsAfter, rulesChangedAfter, runsChangedAfter, selectActiveRun } from './sync.sql.ts';
import { ruleRow, ruleView, runView, type RuleView, type RunView } from './sync-views.ts';

/**
 * Sync events, the way migration progress works: every change of an owner's rule or run row gets
 * the next number of one sequence (a trigger), which is the event id; a client reconnecting with
 * `Last-Event-ID: N` gets every rule and run changed after N. The trigger's NOTIFY (payload: the
 * owner) wakes the streams of every process. Run progress in detail is the run's migration job's
 * own event stream.
 */

/** A batch this long (or longer) means more may follow. */
export const SYNC_EVENT_BATCH = 200;
const EVENT_BATCH = SYNC_EVENT_BATCH;

export type SyncEvent = { id: number; type: 'rule'; data: RuleView } | { id: number; type: 'run'; data: RunView } | { id: number; type: 'rule_deleted'; data: { id: string } };

export async function syncEventsAfter(execute: SqlExecute, ownerId: string, after: number): Promise<SyncEvent[]> {
  const rules = await execute(rulesChangedAfter(ownerId, after, EVENT_BATCH));
  const runs = await execute(runsChangedAfter(ownerId, after, EVENT_BATCH));
  const deletions = await execute(deletionsAfter(ownerId, after, EVENT_BATCH));
  // The lists are cut at the same number, so a later batch never skips a row of another list.
  const full = (rows: readonly Record<string, unknown>[]) => (rows.length === EVENT_BATCH ? Number(rows[rows.length - 1]!['progress_seq']) : Number.POSITIVE_INFINITY);
  const upTo = Math.min(full(rules), full(runs), full(deletions));
  const events: SyncEvent[] = [];
  for (const row of rules) {
    const id = Number(row['progress_seq']);
    if (id > upTo) continue;
    const rule = ruleRow(row);
    const [active] = await execute(selectActiveRun(rule.id));
    events.push({ id, type: 'rule', data: ruleView(rule, active ? runView(active) : null) });
  }
  for (const row of runs) {
    const id = Number(row['progress_seq']);
    if (id <= upTo) events.push({ id, type: 'run', data: runView(row) });
  }
  for (const row of deletions) {
    const id = Number(row['progress_seq']);
    if (id <= upTo) events.push({ id, type: 'rule_deleted', data: { id: String(row['rule_id']) } });
  }
  return events.sort((a, b) => a.id - b.id);
}

/** One LISTEN connection per process, fanning notifications out to the open sync streams. */
export class SyncEventChannel {
  readonly #listeners = new Map<string, Set<() => void>>();
  readonly #connection: PgListener;

  constructor(connectionString: string, logger: Logger) {
    this.#connection = new PgListener({
      connectionString,
      channel: SYNC_PROGRESS_CHANNEL,
      applicationName: 'opl-sync-listener',
      logger,
      onNotify: (ownerId) => {
        for (const wake of this.#listeners.get(ownerId) ?? []) wake();
      },
      onReconnect: () => {
        for (const set of this.#listeners.values()) for (const wake of set) wake();
      },
    });
  }

  async subscribe(ownerId: string, wake: () => void): Promise<() => void> {
    await this.#connection.start();
    const set = this.#listeners.get(ownerId) ?? new Set();
    set.add(wake);
    this.#listeners.set(ownerId, set);
    return () => {
      set.delete(wake);
      if (set.size === 0) this.#listeners.delete(ownerId);
    };
  }

  close(): Promise<void> {
    return this.#connection.close();
  }
}
