import type { SqlStatement } from '../../plugins/plugin-store.sql.ts';

/** SQL of the private playlist cache (`?` placeholders). */

export function selectCache(ownerId: string, accountId: string, scope: string): SqlStatement {
  return { text: `SELECT snapshot_id, payload, fetched_at FROM playlist_cache WHERE owner_id = ? AND provider_account_id = ? AND scope = ?`, values: [ownerId, accountId, scope] };
}

export function upsertCache(ownerId: string, accountId: string, scope: string, snapshotId: string | null, payload: unknown): SqlStatement {
  return {
    text: `INSERT INTO playlist_cache (owner_id, provider_account_id, scope, snapshot_id, payload, fetched_at) VALUES (?, ?, ?, ?, ?::jsonb, now())
           ON CONFLICT ON CONSTRAINT playlist_cache_scope_unique DO UPDATE SET snapshot_id = EXCLUDED.snapshot_id, payload = EXCLUDED.payload, fetched_at = EXCLUDED.fetched_at
           RETURNING fetched_at`,
    values: [ownerId, accountId, scope, snapshotId, JSON.stringify(payload)],
  };
}

/** After a write to the account, its cached reads are stale. */
export function deleteAccountCache(ownerId: string, accountId: string): SqlStatement {
  return { text: `DELETE FROM playlist_cache WHERE owner_id = ? AND provider_account_id = ?`, values: [ownerId, accountId] };
}
