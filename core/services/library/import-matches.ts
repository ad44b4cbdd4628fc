import type { Track } from '@opl/plugin-sdk';
import type { SqlExecute, SqlStatement } from '../../storage/sql/executors.ts';
import { sourceKeyOf } from '../matching/index.ts';
import { selectEdgeIdentities } from './workspace.sql.ts';

/**
 * What the Library's "resolve" found for an import's songs (`library_import_match`). An import's
 * track has no provider id, so no identity-graph edge can name it; a match found by searching is
 * remembered here instead — the import's track, by its song key (the matcher's source key: ISRC,
 * else normalised title, artist and duration), is that provider track. A diff of the import then
 * gives the song the provider track's identity (its graph edge, written by the same match), with
 * no search. Owner-scoped; deleted with the import record.
 */

/** The key an import's track is remembered by: equal songs of one import share it (one search for all). */
export function importTrackKey(track: Track): string {
  return sourceKeyOf(track);
}

export interface ImportMatch {
  trackKey: string;
  provider: string;
  providerAccountId: string;
  providerTrackId: string;
}

function selectImportMatches(ownerId: string, importId: string, trackKeys: readonly string[]): SqlStatement {
  return {
    text: `select track_key, provider, provider_account_id::text as provider_account_id, provider_track_id from library_import_match
           where owner_id = ? and import_record_id = ? and track_key in (select jsonb_array_elements_text(?::jsonb))`,
    values: [ownerId, importId, JSON.stringify(trackKeys)],
  };
}

/** Remembers a match; a later one for the same song and provider replaces it (the user resolved again). */
export function upsertImportMatch(ownerId: string, importId: string, match: ImportMatch): SqlStatement {
  return {
    text: `insert into library_import_match (import_record_id, track_key, provider, owner_id, provider_account_id, provider_track_id)
           select r.id, ?, ?, r.owner_id, ?, ? from import_record r where r.id = ? and r.owner_id = ?
           on conflict (import_record_id, track_key, provider) do update
             set provider_account_id = excluded.provider_account_id, provider_track_id = excluded.provider_track_id, created_at = now()`,
    values: [match.trackKey, match.provider, match.providerAccountId, match.providerTrackId, importId, ownerId],
  };
}

/** The side an import is compared with: an account's provider and its tracks' identities by provider track id. */
export interface ComparedAccount {
  provider: string;
  identityOfTrack: ReadonlyMap<string, string>;
}

/**
 * The identities of an import's tracks with the remembered matches filled in where `identities`
 * has none: a match on the compared account's provider first (the very track that account holds
 * takes its identity there), else the matched provider track's own graph edge.
 */
export async function withImportMatches(execute: SqlExecute, ownerId: string, importId: string, tracks: readonly Track[], identities: readonly (string | null)[], compared: ComparedAccount | null): Promise<(string | null)[]> {
  const keys = tracks.map((track, index) => (identities[index] === null ? importTrackKey(track) : null));
  const wanted = [...new Set(keys.filter((key): key is string => key !== null))];
  if (wanted.length === 0) return [...identities];
  const byKey = new Map<string, ImportMatch[]>();
  for (const row of await execute(selectImportMatches(ownerId, importId, wanted))) {
    const match: ImportMatch = { trackKey: String(row['track_key']), provider: String(row['provider']), providerAccountId: String(row['provider_account_id']), providerTrackId: String(row['provider_track_id']) };
    // The compared account's provider first.
    const list = byKey.get(match.trackKey) ?? [];
    if (match.provider === compared?.provider) list.unshift(match);
    else list.push(match);
    byKey.set(match.trackKey, list);
  }
  const edgeIdentity = new Map<string, string>();
  const byAccount = new Map<string, ImportMatch[]>();
  for (const match of [...byKey.values()].flat()) byAccount.set(`${match.provider}\n${match.providerAccountId}`, [...(byAccount.get(`${match.provider}\n${match.providerAccountId}`) ?? []), match]);
  for (const matches of byAccount.values()) {
    const { provider, providerAccountId } = matches[0]!;
    for (const row of await execute(selectEdgeIdentities(provider, providerAccountId, matches.map((match) => match.providerTrackId)))) {
      edgeIdentity.set(`${provider}\n${String(row['provider_track_id'])}`, String(row['identity_id']));
    }
  }
  const identityOf = (match: ImportMatch) =>
    (match.provider === compared?.provider ? compared.identityOfTrack.get(match.providerTrackId) : undefined) ?? edgeIdentity.get(`${match.provider}\n${match.providerTrackId}`) ?? null;
  return identities.map((identity, index) => {
    const key = keys[index];
    if (identity !== null || key === null || key === undefined) return identity;
    for (const match of byKey.get(key) ?? []) {
      const found = identityOf(match);
      if (found !== null) return found;
    }
    return null;
  });
}
