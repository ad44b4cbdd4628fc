import type { SqlStatement } from '../../storage/sql/executors.ts';
import type { SqlExecutor } from '../matching/index.ts';
import type { PreferenceSummary } from './generation-request.ts';

/**
 * The opt-in preference summary: computed here, from the owner's own connected library (the
 * playlists the engine has read and cached) and imports, as counts of the top artists and genres.
 * No track list, no playlist name, no account data ever goes into it; it is sent to the model
 * only for a request that opts in, and not stored.
 */

export const PREFERENCE_LIMITS = { artists: 10, genres: 5, nameChars: 80 } as const;

/** The owner's tracks as (artist, genre) pairs: cached playlists of connected accounts, and imports. */
const OWNER_TRACKS = `
  select t.value->>'artist' as artist, t.value->>'genre' as genre
    from playlist_cache c
    cross join lateral jsonb_array_elements(case when jsonb_typeof(c.payload->'tracks') = 'array' then c.payload->'tracks' else '[]'::jsonb end) t
   where c.owner_id = ? and c.scope like 'playlist:%'
  union all
  select t.value->>'artist', t.value->>'genre'
    from import_record r
    cross join lateral json_array_elements(case when json_typeof(r.playlists) = 'array' then r.playlists else '[]'::json end) p
    cross join lateral json_array_elements(case when json_typeof(p.value->'tracks') = 'array' then p.value->'tracks' else '[]'::json end) t
   where r.owner_id = ?`;

export function selectTopValues(ownerId: string, column: 'artist' | 'genre', limit: number): SqlStatement {
  return {
    text: `with tracks as (${OWNER_TRACKS})
           select left(btrim(${column}), ${PREFERENCE_LIMITS.nameChars}) as name, count(*)::int as count from tracks
           where coalesce(btrim(${column}), '') <> '' group by 1 order by count desc, name limit ?`,
    values: [ownerId, ownerId, limit],
  };
}

export async function summarizePreferences(execute: SqlExecutor, ownerId: string): Promise<PreferenceSummary> {
  const read = async (column: 'artist' | 'genre', limit: number) =>
    (await execute(selectTopValues(ownerId, column, limit))).map((row) => ({ name: String(row['name']), count: Number(row['count']) }));
  return { top_artists: await read('artist', PREFERENCE_LIMITS.artists), top_genres: await read('genre', PREFERENCE_LIMITS.genres) };
}
