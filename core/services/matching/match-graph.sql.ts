/**
 * SQL of the identity graph, the no-match cache and remembered denials. Pure functions returning
 * `{text, values}` with `?` placeholders; the match service runs them.
 *
 * Scopes: `global` rows hold no personal data; `account:<id>` rows are one account's overlay.
 */

export interface SqlStatement {
  text: string;
  values: unknown[];
}

export type EdgeSource = 'isrc_exact' | 'fuzzy' | 'user_confirmed';
export const GLOBAL_SCOPE = 'global';

/** How much an edge's source is worth: a weaker edge never replaces a stronger one. */
const SOURCE_RANK = (column: string) => `(case ${column} when 'isrc_exact' then 3 when 'user_confirmed' then 2 else 1 end)`;

const IDENTITY_COLUMNS = 'id, isrc, title, artist, album, duration_s';

export interface IdentityFields {
  isrc: string | null;
  title: string;
  artist: string;
  album: string | null;
  durationS: number | null;
}

/** The oldest identity carrying this ISRC (ISRC is evidence, not a key: there may be several). */
export function selectIdentityByIsrc(isrc: string): SqlStatement {
  return { text: `select ${IDENTITY_COLUMNS} from track_identity where isrc = ? order by created_at, id limit 1`, values: [isrc] };
}

export function insertIdentity(fields: IdentityFields): SqlStatement {
  return {
    text: `insert into track_identity (isrc, title, artist, album, duration_s) values (?, ?, ?, ?, ?) returning ${IDENTITY_COLUMNS}`,
    values: [fields.isrc, fields.title, fields.artist, fields.album, fields.durationS],
  };
}

/** Fills what an identity does not know yet; never overwrites what it does. */
export function fillIdentity(id: string, fields: Partial<IdentityFields>): SqlStatement {
  return {
    text: `update track_identity set isrc = coalesce(isrc, ?), album = coalesce(album, ?), duration_s = coalesce(duration_s, ?), updated_at = now() where id = ? returning isrc`,
    values: [fields.isrc ?? null, fields.album ?? null, fields.durationS ?? null, id],
  };
}

/**
 * The identity a source track belongs to in `scope` (or globally): through its own edge first (an
 * overlay edge before a global one), else through its ISRC.
 */
export function selectSourceIdentity(provider: string, trackId: string | null, isrc: string | null, scope: string = GLOBAL_SCOPE): SqlStatement {
  return {
    text: `select identity_id from (
        select e.identity_id, case when e.scope = 'global' then 1 else 0 end as scope_rank, 0 as via_rank, e.created_at
          from track_edge e where e.provider = ? and e.provider_track_id = ? and e.scope in ('global', ?)
        union all
        select i.id, 1, 1, i.created_at from track_identity i where i.isrc = ?
      ) s order by scope_rank, via_rank, created_at limit 1`,
    values: [provider, trackId, scope, isrc],
  };
}

export interface EdgeFields {
  identityId: string;
  provider: string;
  providerTrackId: string;
  providerUri: string | null;
  confidence: number;
  source: EdgeSource;
  scope: string;
}

/**
 * Records an edge, or moves an existing one of the same provider track and scope — unless the
 * existing edge rests on stronger evidence (isrc_exact > user_confirmed > fuzzy).
 */
export function upsertEdge(edge: EdgeFields): SqlStatement {
  return {
    text: `insert into track_edge (identity_id, provider, provider_track_id, provider_uri, confidence, source, scope) values (?, ?, ?, ?, ?, ?, ?)
      on conflict (provider, provider_track_id, scope) do update set identity_id = excluded.identity_id,
        provider_uri = coalesce(excluded.provider_uri, track_edge.provider_uri), confidence = excluded.confidence, source = excluded.source
      where ${SOURCE_RANK('track_edge.source')} <= ${SOURCE_RANK('excluded.source')}
      returning id, identity_id`,
    values: [edge.identityId, edge.provider, edge.providerTrackId, edge.providerUri, edge.confidence, edge.source, edge.scope],
  };
}

/** `upsertEdge` for several edges of distinct (provider, track, scope) rows in one statement. */
export function upsertEdges(edges: readonly EdgeFields[]): SqlStatement {
  return {
    text: `insert into track_edge (identity_id, provider, provider_track_id, provider_uri, confidence, source, scope) values ${edges.map(() => '(?::uuid, ?, ?, ?, ?::double precision, ?, ?)').join(', ')}
      on conflict (provider, provider_track_id, scope) do update set identity_id = excluded.identity_id,
        provider_uri = coalesce(excluded.provider_uri, track_edge.provider_uri), confidence = excluded.confidence, source = excluded.source
      where ${SOURCE_RANK('track_edge.source')} <= ${SOURCE_RANK('excluded.source')}`,
    values: edges.flatMap((edge) => [edge.identityId, edge.provider, edge.providerTrackId, edge.providerUri, edge.confidence, edge.source, edge.scope]),
  };
}

/**
 * Serialises graph writes about one key (an ISRC or a provider track) across workers and
 * processes until the transaction ends, so two workers never create two identities for the same
 * recording or move one edge in opposite directions. Callers lock keys in sorted order.
 */
export function lockGraphKey(key: string): SqlStatement {
  return { text: `select pg_advisory_xact_lock(hashtextextended('opl.match-graph:' || ?, 0))`, values: [key] };
}

/** `lockGraphKey` for several keys in one round trip, taken in sorted order (the subquery's sort feeds the locks). */
export function lockGraphKeys(keys: readonly string[]): SqlStatement {
  return {
    text: `select count(pg_advisory_xact_lock(hashtextextended('opl.match-graph:' || k, 0))) from (select k from jsonb_array_elements_text(?::jsonb) as k order by k collate "C") s`,
    values: [JSON.stringify([...new Set(keys)])],
  };
}

/** Every edge of a provider track that turned out not to exist (or not to be a track), in every scope. */
export function deleteTargetEdges(provider: string, providerTrackId: string): SqlStatement {
  return { text: 'delete from track_edge where provider = ? and provider_track_id = ? returning id, scope, source', values: [provider, providerTrackId] };
}

export function deleteEdge(scope: string, provider: string, providerTrackId: string, identityId: string): SqlStatement {
  return {
    text: 'delete from track_edge where scope = ? and provider = ? and provider_track_id = ? and identity_id = ? returning id',
    values: [scope, provider, providerTrackId, identityId],
  };
}

export interface GraphLookup {
  sourceProvider: string;
  sourceTrackId: string | null;
  isrc: string | null;
  /** Key of the source track for denials. */
  sourceKey: string;
  targetProvider: string;
  /** `account:<id>`: its overlay is consulted first, its denials are excluded. */
  scope: string;
  /** A `fuzzy` edge counts only at or above this confidence (the strictness's accept bar); null: fuzzy edges never count. */
  minFuzzyConfidence: number | null;
  /**
   * Only a person's decision about this very source track answers: the source track's own
   * `user_confirmed` edge leading to a `user_confirmed` target edge. An identity is a recording,
   * so any other edge may name another release of it (a compilation copy with the same ISRC).
   */
  confirmedForSourceOnly?: boolean;
  /** Edges of these target tracks are skipped (found invalid during this lookup). */
  excludeTrackIds?: readonly string[];
}

/** Where each value of a graph lookup comes from: a placeholder (one lookup) or a column (many). */
type LookupRefs = Record<'sp' | 'sid' | 'scope' | 'isrc' | 'tp' | 'fuzzy' | 'confirmed' | 'excluded' | 'sk', string>;

/**
 * The source track's identities first, then all the edges of each (a handful) through the
 * `identity_id` index, filtered after: the `offset 0` fences keep the planner from turning the
 * plan around. On a young graph whose statistics were never gathered, it otherwise believed one
 * provider's edges to be few and scanned all of them for every source track — 50 ms a song with
 * 1,000 edges, growing with the graph.
 */
function graphMatchQuery(v: LookupRefs): string {
  return `select t.provider_track_id, t.provider_uri, t.confidence, t.source, t.scope, t.identity_id, t.created_at, src.via_rank
        from (
          select e.identity_id, case when e.scope = 'global' then 1 else 0 end as scope_rank, 0 as via_rank, e.source
            from track_edge e where e.provider = ${v.sp} and e.provider_track_id = ${v.sid} and e.scope in ('global', ${v.scope})
          union all
          select i.id, 1, 1, null from track_identity i where i.isrc = ${v.isrc}
          offset 0
        ) src
        cross join lateral (select e.* from track_edge e where e.identity_id = src.identity_id offset 0) t
        where t.provider = ${v.tp} and t.scope in ('global', ${v.scope})
          and (t.source <> 'fuzzy' or t.confidence >= coalesce(${v.fuzzy}, 2))
          and (not ${v.confirmed} or (src.via_rank = 0 and src.source = 'user_confirmed' and t.source = 'user_confirmed'))
          and t.provider_track_id not in (select jsonb_array_elements_text(${v.excluded}))
          and not exists (select 1 from match_denial d where d.scope = ${v.scope} and d.source_provider = ${v.sp} and d.source_key = ${v.sk}
            and d.target_provider = t.provider and d.target_track_id = t.provider_track_id)
        order by case when t.scope = 'global' then 1 else 0 end, src.scope_rank, src.via_rank, ${SOURCE_RANK('t.source')} desc, t.confidence desc, t.created_at, t.provider_track_id
        limit 1`;
}

/**
 * The best target-provider edge of the source track's identity: the account's overlay first, then
 * global edges; reached through the source track's own edge before its ISRC; stronger evidence
 * and higher confidence first. Targets the account denied for this source never come back.
 */
export function selectGraphMatch(lookup: GraphLookup): SqlStatement {
  return {
    text: graphMatchQuery({ sp: '?', sid: '?', scope: '?', isrc: '?', tp: '?', fuzzy: '?::double precision', confirmed: '?::boolean', excluded: '?::jsonb', sk: '?' }),
    values: [
      lookup.sourceProvider,
      lookup.sourceTrackId,
      lookup.scope,
      lookup.isrc,
      lookup.targetProvider,
      lookup.scope,
      lookup.minFuzzyConfidence,
      lookup.confirmedForSourceOnly ?? false,
      JSON.stringify(lookup.excludeTrackIds ?? []),
      lookup.scope,
      lookup.sourceProvider,
      lookup.sourceKey,
    ],
  };
}

/**
 * `selectGraphMatch` for many source tracks in one round trip (a slice of a migration): one row
 * per lookup that has a hit, with `lookup_index` (0-based position in `lookups`).
 */
export function selectGraphMatches(lookups: readonly GraphLookup[]): SqlStatement {
  const records = lookups.map((lookup, index) => ({
    i: index,
    sp: lookup.sourceProvider,
    sid: lookup.sourceTrackId,
    isrc: lookup.isrc,
    sk: lookup.sourceKey,
    tp: lookup.targetProvider,
    scope: lookup.scope,
    fuzzy: lookup.minFuzzyConfidence,
    confirmed: lookup.confirmedForSourceOnly ?? false,
    excluded: lookup.excludeTrackIds ?? [],
  }));
  const columns = { sp: 'l.sp', sid: 'l.sid', scope: 'l.scope', isrc: 'l.isrc', tp: 'l.tp', fuzzy: 'l.fuzzy', confirmed: 'l.confirmed', excluded: 'l.excluded', sk: 'l.sk' };
  return {
    text: `select l.i as lookup_index, m.* from jsonb_to_recordset(?::jsonb) as l(i int, sp text, sid text, isrc text, sk text, tp text, scope text, fuzzy double precision, confirmed boolean, excluded jsonb)
      cross join lateral (${graphMatchQuery(columns)}) m
      order by l.i`,
    values: [JSON.stringify(records)],
  };
}

/**
 * The identity other accounts' confirmations already put this source and target track on
 * (both confirmed in the same overlay), so independent confirmations meet on one identity.
 */
export function selectConfirmedIdentity(sourceProvider: string, sourceTrackId: string, targetProvider: string, targetTrackId: string): SqlStatement {
  return {
    text: `select s.identity_id from track_edge s join track_edge t on t.identity_id = s.identity_id and t.scope = s.scope
      where s.provider = ? and s.provider_track_id = ? and t.provider = ? and t.provider_track_id = ?
        and s.source = 'user_confirmed' and t.source = 'user_confirmed' and starts_with(s.scope, 'account:')
      order by s.created_at, s.identity_id limit 1`,
    values: [sourceProvider, sourceTrackId, targetProvider, targetTrackId],
  };
}

/** Distinct accounts whose overlay links this target track to this identity by confirmation. */
export function countConfirmingAccounts(provider: string, providerTrackId: string, identityId: string): SqlStatement {
  return {
    text: `select count(distinct scope)::int as accounts from track_edge
      where provider = ? and provider_track_id = ? and identity_id = ? and source = 'user_confirmed' and starts_with(scope, 'account:')`,
    values: [provider, providerTrackId, identityId],
  };
}

export interface MissKey {
  sourceProvider: string;
  sourceKey: string;
  targetProvider: string;
  strictness: string;
}

export function selectMiss(key: MissKey): SqlStatement {
  return {
    text: 'select attempts, last_tried_at, retry_after from match_miss where source_provider = ? and source_key = ? and target_provider = ? and strictness = ?',
    values: [key.sourceProvider, key.sourceKey, key.targetProvider, key.strictness],
  };
}

/** `selectMiss` for many keys at once: one row per cached miss, with `lookup_index`. */
export function selectMisses(keys: readonly MissKey[]): SqlStatement {
  const records = keys.map((key, index) => ({ i: index, sp: key.sourceProvider, sk: key.sourceKey, tp: key.targetProvider, st: key.strictness }));
  return {
    text: `select k.i as lookup_index, m.attempts, m.last_tried_at, m.retry_after from jsonb_to_recordset(?::jsonb) as k(i int, sp text, sk text, tp text, st text)
      join match_miss m on m.source_provider = k.sp and m.source_key = k.sk and m.target_provider = k.tp and m.strictness = k.st`,
    values: [JSON.stringify(records)],
  };
}

/**
 * Records a real no-match at `now`: the first waits `baseSeconds`, each further miss in a row
 * doubles the wait, up to `maxSeconds`.
 */
export function recordMiss(key: MissKey, now: Date, baseSeconds: number, maxSeconds: number): SqlStatement {
  return {
    text: `insert into match_miss (source_provider, source_key, target_provider, strictness, attempts, last_tried_at, retry_after)
        values (?, ?, ?, ?, 1, ?::timestamptz, ?::timestamptz + least(?::double precision, ?::double precision) * interval '1 second')
      on conflict (source_provider, source_key, target_provider, strictness) do update set attempts = match_miss.attempts + 1,
        last_tried_at = excluded.last_tried_at,
        retry_after = excluded.last_tried_at + least(?::double precision * power(2, match_miss.attempts), ?::double precision) * interval '1 second',
        updated_at = now()
      returning attempts, retry_after`,
    values: [key.sourceProvider, key.sourceKey, key.targetProvider, key.strictness, now, now, baseSeconds, maxSeconds, baseSeconds, maxSeconds],
  };
}

export function deleteMiss(key: MissKey): SqlStatement {
  return {
    text: 'delete from match_miss where source_provider = ? and source_key = ? and target_provider = ? and strictness = ?',
    values: [key.sourceProvider, key.sourceKey, key.targetProvider, key.strictness],
  };
}

export interface DenialKey {
  scope: string;
  sourceProvider: string;
  sourceKey: string;
  targetProvider: string;
}

export function insertDenial(key: DenialKey, targetTrackId: string): SqlStatement {
  return {
    text: `insert into match_denial (scope, source_provider, source_key, target_provider, target_track_id) values (?, ?, ?, ?, ?)
      on conflict (scope, source_provider, source_key, target_provider, target_track_id) do nothing`,
    values: [key.scope, key.sourceProvider, key.sourceKey, key.targetProvider, targetTrackId],
  };
}

export function deleteDenial(key: DenialKey, targetTrackId: string): SqlStatement {
  return {
    text: 'delete from match_denial where scope = ? and source_provider = ? and source_key = ? and target_provider = ? and target_track_id = ?',
    values: [key.scope, key.sourceProvider, key.sourceKey, key.targetProvider, targetTrackId],
  };
}

/** `selectDenied` for many keys at once: one row per denial, with `lookup_index`. */
export function selectDenials(keys: readonly DenialKey[]): SqlStatement {
  const records = keys.map((key, index) => ({ i: index, scope: key.scope, sp: key.sourceProvider, sk: key.sourceKey, tp: key.targetProvider }));
  return {
    text: `select k.i as lookup_index, d.target_track_id from jsonb_to_recordset(?::jsonb) as k(i int, scope text, sp text, sk text, tp text)
      join match_denial d on d.scope = k.scope and d.source_provider = k.sp and d.source_key = k.sk and d.target_provider = k.tp`,
    values: [JSON.stringify(records)],
  };
}

export function selectDenied(key: DenialKey): SqlStatement {
  return {
    text: 'select target_track_id from match_denial where scope = ? and source_provider = ? and source_key = ? and target_provider = ?',
    values: [key.scope, key.sourceProvider, key.sourceKey, key.targetProvider],
  };
}
