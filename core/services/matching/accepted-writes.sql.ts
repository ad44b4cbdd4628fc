import type { MissKey, SqlStatement } from './match-graph.sql.ts';

/**
 * The identity graph's statements for many acceptances at once (`AcceptedWrites`): each is the
 * set-based form of a `match-graph.sql.ts` statement the single acceptance ran, answering rows
 * tagged with the index of the write they are for. Arrays travel as one JSON value.
 */

/** A source track whose identity is looked for: `selectSourceIdentity` per record. */
export interface SourceIdentityLookup {
  provider: string;
  trackId: string | null;
  isrc: string | null;
  scope: string;
}

/**
 * `selectSourceIdentity` for several source tracks: one row (`write_index`, `identity_id`) per
 * track that has an identity — its own edge first (overlay before global), else its ISRC's oldest.
 */
export function selectSourceIdentities(lookups: readonly SourceIdentityLookup[]): SqlStatement {
  const records = lookups.map((lookup, index) => ({ i: index, sp: lookup.provider, sid: lookup.trackId, isrc: lookup.isrc, scope: lookup.scope }));
  return {
    text: `select l.i as write_index, s.identity_id from jsonb_to_recordset(?::jsonb) as l(i int, sp text, sid text, isrc text, scope text)
      cross join lateral (
        select identity_id from (
          select e.identity_id, case when e.scope = 'global' then 1 else 0 end as scope_rank, 0 as via_rank, e.created_at
            from track_edge e where e.provider = l.sp and e.provider_track_id = l.sid and e.scope in ('global', l.scope)
          union all
          select i.id, 1, 1, i.created_at from track_identity i where i.isrc = l.isrc
        ) s order by scope_rank, via_rank, created_at limit 1
      ) s`,
    values: [JSON.stringify(records)],
  };
}

/** `selectIdentityByIsrc` for several ISRCs: the oldest identity of each that has one. */
export function selectIdentitiesByIsrc(isrcs: readonly string[]): SqlStatement {
  return {
    text: `select distinct on (isrc) id, isrc from track_identity where isrc in (select jsonb_array_elements_text(?::jsonb)) order by isrc, created_at, id`,
    values: [JSON.stringify([...new Set(isrcs)])],
  };
}

export interface IdentityFill {
  id: string;
  isrc: string | null;
  album: string | null;
  durationS: number | null;
}

/** `fillIdentity` for distinct identities: what each does not know yet; answers each one's ISRC after. */
export function fillIdentities(fills: readonly IdentityFill[]): SqlStatement {
  return {
    text: `update track_identity t set isrc = coalesce(t.isrc, r.isrc), album = coalesce(t.album, r.album), duration_s = coalesce(t.duration_s, r.duration_s), updated_at = now()
      from jsonb_to_recordset(?::jsonb) as r(id uuid, isrc text, album text, duration_s int) where t.id = r.id returning t.id, t.isrc`,
    values: [JSON.stringify(fills.map((fill) => ({ id: fill.id, isrc: fill.isrc, album: fill.album, duration_s: fill.durationS })))],
  };
}

export interface NewIdentity {
  /** Chosen by the caller, so each write knows its identity without matching rows back. */
  id: string;
  isrc: string | null;
  title: string;
  artist: string;
  album: string | null;
  durationS: number | null;
}

/** `insertIdentity` for several new identities. */
export function insertIdentities(identities: readonly NewIdentity[]): SqlStatement {
  return {
    text: `insert into track_identity (id, isrc, title, artist, album, duration_s)
      select r.id, r.isrc, r.title, r.artist, r.album, r.duration_s from jsonb_to_recordset(?::jsonb) as r(id uuid, isrc text, title text, artist text, album text, duration_s int)`,
    values: [JSON.stringify(identities.map((identity) => ({ id: identity.id, isrc: identity.isrc, title: identity.title, artist: identity.artist, album: identity.album, duration_s: identity.durationS })))],
  };
}

/** `deleteMiss` for several no-match rows. */
export function deleteMisses(keys: readonly MissKey[]): SqlStatement {
  return {
    text: `delete from match_miss m using jsonb_to_recordset(?::jsonb) as k(sp text, sk text, tp text, st text)
      where m.source_provider = k.sp and m.source_key = k.sk and m.target_provider = k.tp and m.strictness = k.st`,
    values: [JSON.stringify(keys.map((key) => ({ sp: key.sourceProvider, sk: key.sourceKey, tp: key.targetProvider, st: key.strictness })))],
  };
}
