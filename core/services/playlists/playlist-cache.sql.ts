import type { SqlStatement } from '../../plugins/plugin-store.sql.ts';

/** SQL of the private playlist cache (`?` placeholders). */

export function selectCache(ownerId: string, accountId: string, scope: string): SqlStatement {
  return { text: `SELECT snapshot_id, payload, fetched_at FROM playlist_cache WHERE owner_id = ? AND provider_account_id = ? AND scope = ?`, values: [ownerId, accountId, scope] };
}

/** `trackDigest`: a cached playlist's compact track digest (`track-digest.ts`); null for a playlist list. */
export function upsertCache(ownerId: string, accountId: string, scope: string, snapshotId: string | null, payload: unknown, trackDigest: string | null = null): SqlStatement {
  return {
    text: `INSERT INTO playlist_cache (owner_id, provider_account_id, scope, snapshot_id, payload, track_digest, fetched_at) VALUES (?, ?, ?, ?, ?::jsonb, ?, now())
           ON CONFLICT ON CONSTRAINT playlist_cache_scope_unique DO UPDATE SET snapshot_id = EXCLUDED.snapshot_id, payload = EXCLUDED.payload, track_digest = EXCLUDED.track_digest, fetched_at = EXCLUDED.fetched_at
           RETURNING fetched_at`,
    values: [ownerId, accountId, scope, snapshotId, JSON.stringify(payload), trackDigest],
  };
}

/**
 * A cached playlist without its tracks: its details (with `tracks` emptied in place, so the keys
 * keep the order a whole cached read gives them), how many tracks it has, and the row's version
 * for `selectCachedTracks`.
 */
export function selectCachedDetails(ownerId: string, accountId: string, scope: string): SqlStatement {
  return {
    text: `SELECT snapshot_id, fetched_at, fetched_at::text AS version, jsonb_set(payload, '{tracks}', '[]'::jsonb) AS details,
                  coalesce(jsonb_array_length(CASE WHEN jsonb_typeof(payload->'tracks') = 'array' THEN payload->'tracks' END), 0) AS track_count
           FROM playlist_cache WHERE owner_id = ? AND provider_account_id = ? AND scope = ?`,
    values: [ownerId, accountId, scope],
  };
}

/**
 * Tracks `from` to `to` (0-based, inclusive) of a cached playlist, as stored, from the row version
 * `selectCachedDetails` saw: no row when the cache was refreshed in between.
 */
export function selectCachedTracks(ownerId: string, accountId: string, scope: string, version: string, from: number, to: number): SqlStatement {
  return {
    text: `SELECT jsonb_path_query_array(payload, '$.tracks[$from to $to]', jsonb_build_object('from', ?::int, 'to', ?::int)) AS tracks
           FROM playlist_cache WHERE owner_id = ? AND provider_account_id = ? AND scope = ? AND fetched_at::text = ?`,
    values: [from, to, ownerId, accountId, scope, version],
  };
}

/** After a write to the account, its cached reads are stale. */
export function deleteAccountCache(ownerId: string, accountId: string): SqlStatement {
  return { text: `DELETE FROM playlist_cache WHERE owner_id = ? AND provider_account_id = ?`, values: [ownerId, accountId] };
}
