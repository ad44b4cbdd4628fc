import type { LeaseFence } from './lease-lost.ts';
import type { SqlStatement } from './migration-jobs.sql.ts';

/**
 * SQL of the operation ledger: the intent of every provider write, recorded before the call and
 * settled after it (observed, failed, ambiguous), so a rerun or a crash recovery writes nothing twice.
 */

export interface LedgerIntent {
  itemId: string | null;
  operation: string;
  intent: Record<string, unknown>;
  idempotencyKey: string;
}

/**
 * Records the intent of writes, fenced by the job's lease: only while `lease.worker` still holds it
 * (extending it, in the same statement, so that no other worker can take the job between this
 * record and the call it announces). No row comes back when the worker lost the lease — another
 * worker took the job, or the user cancelled it — and the writer must then not call the provider.
 */
export function insertLedger(jobId: string, ownerId: string, entries: readonly LedgerIntent[], lease: LeaseFence): SqlStatement {
  const rows = entries.map((entry) => ({ item_id: entry.itemId, operation: entry.operation, intent: entry.intent, idempotency_key: entry.idempotencyKey }));
  return {
    text: `with held as (
             update migration_job set lease_expires_at = now() + make_interval(secs => ?)
             where id = ? and lease_owner = ? and status = 'running' returning id)
           insert into operation_ledger (job_id, owner_id, item_id, operation, intent, idempotency_key)
           select ?, ?, r.item_id, r.operation, r.intent, r.idempotency_key
           from jsonb_to_recordset(?::jsonb) as r(item_id uuid, operation text, intent jsonb, idempotency_key text)
           where exists (select 1 from held)
           returning id, item_id, idempotency_key`,
    values: [lease.seconds, jobId, lease.worker, jobId, ownerId, JSON.stringify(rows)],
  };
}

export function updateLedger(ids: readonly string[], fields: { state: string; observedTargetId?: string | null; observedPosition?: number | null; error?: string | null }): SqlStatement {
  return {
    text: `update operation_ledger set state = ?, observed_target_id = coalesce(?, observed_target_id), observed_position = coalesce(?, observed_position),
             error = ?, updated_at = now() where id in (select (jsonb_array_elements_text(?::jsonb))::uuid)`,
    values: [fields.state, fields.observedTargetId ?? null, fields.observedPosition ?? null, fields.error ?? null, JSON.stringify(ids)],
  };
}

/** Writes whose outcome is unknown: recorded as intended (the process may have died during the call) or ambiguous. */
export function selectUncertainLedger(jobId: string, operation: string): SqlStatement {
  return {
    text: `select id, item_id, operation, intent, state, idempotency_key from operation_ledger
           where job_id = ? and operation = ? and state in ('intended', 'called', 'ambiguous') order by created_at, id`,
    values: [jobId, operation],
  };
}

export function selectObservedLedger(jobId: string, operation: string, collectionKey: string): SqlStatement {
  return {
    text: `select observed_target_id from operation_ledger where job_id = ? and operation = ? and intent->>'collection' = ? and state = 'observed'
           order by updated_at desc limit 1`,
    values: [jobId, operation, collectionKey],
  };
}

/**
 * Accepted playlist writes of a collection whose target position was not observed yet (and not
 * already given up on: those carry an error note).
 */
export function selectUnconfirmedWrites(jobId: string, operation: string, collectionKey: string): SqlStatement {
  return {
    text: `select id, item_id, intent from operation_ledger
           where job_id = ? and operation = ? and intent->>'collection' = ? and state = 'observed' and observed_position is null and error is null and item_id is not null
           order by created_at, id`,
    values: [jobId, operation, collectionKey],
  };
}

/** URIs other jobs of the owner wrote to a target playlist that were accepted but never seen there (`note` marks them). */
export function selectAcceptedInvisible(ownerId: string, exceptJobId: string, operation: string, targetPlaylistId: string, note: string): SqlStatement {
  return {
    text: `select distinct intent->>'uri' as uri from operation_ledger
           where owner_id = ? and job_id <> ? and operation = ? and intent->>'target_playlist_id' = ? and state = 'observed' and observed_position is null and error = ?`,
    values: [ownerId, exceptJobId, operation, targetPlaylistId, note],
  };
}

export function countLedgerAttempts(jobId: string, itemIds: readonly string[]): SqlStatement {
  return {
    text: `select item_id, count(*)::int as n from operation_ledger where job_id = ? and item_id in (select (jsonb_array_elements_text(?::jsonb))::uuid) group by item_id`,
    values: [jobId, JSON.stringify(itemIds)],
  };
}

export function markLedgerObserved(rows: readonly { id: string; targetId: string | null; position: number | null }[]): SqlStatement {
  return {
    text: `update operation_ledger l set state = 'observed', observed_target_id = r.target_id, observed_position = r.position, error = null, updated_at = now()
           from jsonb_to_recordset(?::jsonb) as r(id uuid, target_id text, position int) where l.id = r.id`,
    values: [JSON.stringify(rows.map((row) => ({ id: row.id, target_id: row.targetId, position: row.position })))],
  };
}
