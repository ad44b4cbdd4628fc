import type { Logger } from '../../logging/logger.ts';
import type { SqlExecute, SqlStatement } from '../../storage/sql/executors.ts';
import { LeaseGone } from './run-end.ts';

/**
 * Keeps a sync run's lease while one phase works on it: renewed every third of its length, and
 * `held()` throws `LeaseGone` once a renewal found the run taken over (or `signal` aborted), so
 * the phase stops before its next write. `stop()` ends the renewals.
 */
export function keepRunLease(execute: SqlExecute, renewal: () => SqlStatement, leaseSeconds: number, logger: Logger, signal?: AbortSignal): { readonly held: () => void; readonly stop: () => void } {
  let lost = false;
  const timer = setInterval(
    () => {
      execute(renewal())
        .then((rows) => {
          if (rows.length === 0) lost = true;
        })
        .catch((error: unknown) => logger.warn({ err: error }, 'could not renew the sync run lease'));
    },
    Math.max(250, (leaseSeconds * 1000) / 3),
  );
  return {
    held: () => {
      if (lost || signal?.aborted) throw new LeaseGone();
    },
    stop: () => clearInterval(timer),
  };
}
