import type { SqlStatement } from '../../storage/sql/executors.ts';

/** SQL of the Library workspace (`?` parameter markers). Reads caches, the graph and lineage; writes only the user's pairs. */

/** Every cached playlist list of the owner's accounts. */
export function selectListCaches(ownerId: string): SqlStatement {
  return { text: `select provider_account_id, payload, fetched_at from playlist_cache where owner_id = ? and scope = 'list'`, values: [ownerId] };
}

/**
 * Every cached playlist of the owner's accounts with only what the workspace compares of each
 * track: its digest (`track-digest.ts`), or — for a cache written before digests, or in another
 * digest version — its tracks in the compact form `[id, isrc, migratable, local]`, in order. Only
 * those rows read the (large) cached payload.
 */
export function selectTrackCaches(ownerId: string, digestVersion: string): SqlStatement {
  return {
    text: `select provider_account_id, substr(scope, 10) as playlist_id, snapshot_id, track_digest,
             case when split_part(track_digest, chr(10), 1) is distinct from ? then ${compactTracks(`payload->'tracks'`)} end as tracks
           from playlist_cache where owner_id = ? and starts_with(scope, 'playlist:')`,
    values: [digestVersion, ownerId],
  };
}

/** The compact track form of the workspace, `[id, isrc, migratable, local]`, of a jsonb array of tracks `tracks`. */
const compactTracks = (tracks: string) =>
  `(select coalesce(jsonb_agg(jsonb_build_array(t->>'id', t->>'isrc', coalesce((t->>'is_migratable')::boolean, true), coalesce((t->>'is_local')::boolean, false)) order by o), '[]'::jsonb)
      from jsonb_array_elements(case when jsonb_typeof(${tracks}) = 'array' then ${tracks} else '[]'::jsonb end) with ordinality as x(t, o))`;

/**
 * The owner's recent imports a migration can still use (not expired, not held by a queued
 * migration), newest first: each record's playlists with their own id, name and tracks in the
 * workspace's compact form. A record holds its playlists whole (they are never "not read").
 */
export function selectRecentImports(ownerId: string, limit: number): SqlStatement {
  return {
    text: `select r.id::text as import_id, r.kind, r.source_label, r.created_at,
             (select coalesce(jsonb_agg(jsonb_build_object('id', p->>'id', 'name', coalesce(p->>'name', ''), 'tracks', ${compactTracks(`p->'tracks'`)}) order by po), '[]'::jsonb)
                from jsonb_array_elements(r.playlists::jsonb) with ordinality as y(p, po)) as playlists
           from import_record r where r.owner_id = ? and r.state <> 'queued' and r.expires_at > now() order by r.created_at desc, r.id limit ?`,
    values: [ownerId, limit],
  };
}

/**
 * The identity each of one account's provider tracks has an edge to: the account's overlay edge
 * before a global one, the oldest first. One row per track that has one.
 */
export function selectEdgeIdentities(provider: string, accountId: string, trackIds: readonly string[]): SqlStatement {
  return {
    text: `select distinct on (e.provider_track_id) e.provider_track_id, e.identity_id::text as identity_id
           from track_edge e
           where e.provider = ? and e.scope in ('global', ?) and e.provider_track_id in (select jsonb_array_elements_text(?::jsonb))
           order by e.provider_track_id, case when e.scope = 'global' then 1 else 0 end, e.created_at`,
    values: [provider, `account:${accountId}`, JSON.stringify(trackIds)],
  };
}

/** The oldest identity carrying each ISRC (ISRC is evidence, not a key: there may be several). */
export function selectIsrcIdentities(isrcs: readonly string[]): SqlStatement {
  return {
    text: `select distinct on (x.isrc) x.isrc, x.id::text as identity_id from track_identity x
           where x.isrc in (select jsonb_array_elements_text(?::jsonb)) order by x.isrc, x.created_at, x.id`,
    values: [JSON.stringify(isrcs)],
  };
}

/**
 * Where the engine wrote one of the owner's playlists (or an import's) into another (snapshot
 * restores excluded: they are not live playlists): one row per source and target collection, with the newest job a
 * user started (what a sync rule is made from).
 */
export function selectMigrationLineage(ownerId: string): SqlStatement {
  return {
    text: `select j.source_account_id, i.source_playlist_id, j.target_account_id,
                  coalesce(i.target_playlist_id, case when i.source_playlist_id = 'liked' then 'liked' end) as target_playlist_id,
                  max(j.created_at) as at,
                  (array_agg(j.id::text order by j.created_at desc) filter (where j.origin = 'user'))[1] as job_id
           from job_item i join migration_job j on j.id = i.job_id
           where j.owner_id = ? and j.source_kind in ('provider', 'import') and i.entity_type = 'track' and i.source_playlist_id is not null
             and coalesce(i.target_playlist_id, case when i.source_playlist_id = 'liked' then 'liked' end) is not null
           group by 1, 2, 3, 4`,
    values: [ownerId],
  };
}

export function selectSyncRules(ownerId: string): SqlStatement {
  return {
    text: `select id, name, status, mode, source_account_id, source_playlist_id, target_account_id, target_playlist_id from sync_rule where owner_id = ?`,
    values: [ownerId],
  };
}

/**
 * The source songs of the owner's playlists that reached a target account through the migration
 * ledger (written, or found already there), snapshot restores excluded. One row per source
 * account, playlist and song.
 */
export function selectMigratedTracks(ownerId: string, targetAccountId: string, sourceAccountIds: readonly string[]): SqlStatement {
  return {
    text: `select distinct j.source_account_id, i.source_playlist_id, i.source_track_id
           from job_item i join migration_job j on j.id = i.job_id
           where j.owner_id = ? and j.target_account_id = ? and j.source_kind in ('provider', 'import') and j.source_account_id = any(?::text[])
             and i.entity_type = 'track' and i.source_track_id is not null
             and (i.status = 'written' or (i.status = 'skipped' and starts_with(i.reason, 'Already in the target')))`,
    values: [ownerId, targetAccountId, `{${sourceAccountIds.map((id) => `"${id.replace(/["\\]/g, '')}"`).join(',')}}`],
  };
}

export function selectPairs(ownerId: string): SqlStatement {
  return { text: `select a_account_id::text, a_playlist_id, b_account_id::text, b_playlist_id, relation from library_member_pair where owner_id = ?`, values: [ownerId] };
}

export interface PairRow {
  aAccountId: string;
  aPlaylistId: string;
  bAccountId: string;
  bPlaylistId: string;
  relation: 'linked' | 'apart';
}

/** Records (or replaces) the user's word on pairs of members; each pair in canonical order. */
export function upsertPairs(ownerId: string, pairs: readonly PairRow[]): SqlStatement {
  return {
    text: `insert into library_member_pair (owner_id, a_account_id, a_playlist_id, b_account_id, b_playlist_id, relation)
           select ?, r.a_account_id, r.a_playlist_id, r.b_account_id, r.b_playlist_id, r.relation
             from jsonb_to_recordset(?::jsonb) as r(a_account_id uuid, a_playlist_id text, b_account_id uuid, b_playlist_id text, relation text)
           on conflict on constraint library_member_pair_unique do update set relation = excluded.relation, created_at = now()`,
    values: [ownerId, JSON.stringify(pairs.map((pair) => ({ a_account_id: pair.aAccountId, a_playlist_id: pair.aPlaylistId, b_account_id: pair.bAccountId, b_playlist_id: pair.bPlaylistId, relation: pair.relation })))],
  };
}
