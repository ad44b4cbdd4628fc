import type { SqlStatement } from '../../storage/sql/executors.ts';

/**
 * The statements of snapshot rewinds: one `running` rewind per playlist (claimed under an advisory
 * lock of the playlist, so two requests never write to it at once), and its ledger.
 */

/** A running rewind silent for this long (no ledger step, no heartbeat) died with its process. */
export const REWIND_STALE_SECONDS = 120;

export function lockRewindPlaylist(ownerId: string, accountId: string, playlistId: string): SqlStatement {
  return { text: `select pg_advisory_xact_lock(hashtextextended('opl.snapshot-rewind:' || ? || ':' || ? || ':' || ?, 0))`, values: [ownerId, accountId, playlistId] };
}

/** Ends rewinds of the playlist whose process stopped (its ledger shows how far it got). */
export function failStaleRewinds(ownerId: string, accountId: string, playlistId: string): SqlStatement {
  return {
    text: `update snapshot_rewind set status = 'failed', error = 'interrupted: the rewind stopped before it finished; its ledger shows the writes it made', updated_at = now()
           where owner_id = ? and account_id = ? and playlist_id = ? and status = 'running' and updated_at < now() - make_interval(secs => ?) returning id`,
    values: [ownerId, accountId, playlistId, REWIND_STALE_SECONDS],
  };
}

export function selectRunningRewind(ownerId: string, accountId: string, playlistId: string): SqlStatement {
  return { text: `select id from snapshot_rewind where owner_id = ? and account_id = ? and playlist_id = ? and status = 'running'`, values: [ownerId, accountId, playlistId] };
}

export function insertRewind(ownerId: string, snapshotId: string, accountId: string, playlistId: string): SqlStatement {
  return { text: `insert into snapshot_rewind (owner_id, snapshot_id, account_id, playlist_id) values (?, ?, ?, ?) returning id`, values: [ownerId, snapshotId, accountId, playlistId] };
}

export function deleteRewind(rewindId: string): SqlStatement {
  return { text: `delete from snapshot_rewind where id = ? and status = 'running'`, values: [rewindId] };
}

export function finishRewind(rewindId: string, status: 'completed' | 'failed', stats: Record<string, unknown>, error: string | null): SqlStatement {
  return { text: `update snapshot_rewind set status = ?, stats = ?::jsonb, error = ?, updated_at = now() where id = ? returning id`, values: [status, JSON.stringify(stats), error, rewindId] };
}

/** A ledger row `intended` before its provider call; it also shows the rewind alive. */
export function insertRewindStep(ownerId: string, rewindId: string, seq: number, kind: string, payload: Record<string, unknown>): SqlStatement {
  return {
    text: `with alive as (update snapshot_rewind set updated_at = now() where id = ?)
           insert into snapshot_rewind_step (owner_id, rewind_id, seq, kind, payload) values (?, ?, ?, ?, ?::jsonb) returning id`,
    values: [rewindId, ownerId, rewindId, seq, kind, JSON.stringify(payload)],
  };
}

export function settleRewindStep(stepId: string, status: 'done' | 'failed', error: string | null): SqlStatement {
  return { text: `update snapshot_rewind_step set status = ?, error = ?, updated_at = now() where id = ?`, values: [status, error, stepId] };
}

export function selectRewind(ownerId: string, rewindId: string): SqlStatement {
  return {
    text: `select r.id, r.snapshot_id, r.account_id, r.playlist_id, r.status, r.stats, r.error, r.created_at, r.updated_at,
                  coalesce((select jsonb_agg(jsonb_build_object('seq', s.seq, 'kind', s.kind, 'payload', s.payload, 'status', s.status, 'error', s.error) order by s.seq) from snapshot_rewind_step s where s.rewind_id = r.id), '[]'::jsonb) as steps
           from snapshot_rewind r where r.owner_id = ? and r.id = ?`,
    values: [ownerId, rewindId],
  };
}
