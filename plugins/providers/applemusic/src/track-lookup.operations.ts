import { NotFound, type OperationInput, type OperationReturn, type ProviderContext, type TrackInput } from '@opl/plugin-sdk';
import { currentStorefront, getPage, query } from './apple-client.ts';
import { mapTrack, record } from './apple-mapping.ts';
import { parseAppleUri } from './apple-uris.ts';

/**
 * Songs named by URI or link (`applemusic:song:…`, `…/song/<slug>/<id>`, `…/album/<slug>/<id>?i=<id>`),
 * read from the catalogue of the account's storefront with "Get Multiple Catalog Songs by ID"
 * (`GET /catalog/{storefront}/songs?ids=…`), at most 300 ids a request. One answer per input URI,
 * in input order, each distinct id asked once: null for an id Apple does not return (unknown,
 * withdrawn, or not sold in the account's storefront — such a song cannot be added to its playlists
 * either) and, with no request at all, for a URI that is not an Apple Music catalog song. Library
 * songs (`library-song`, `i.…`) and music videos are null too: they would need other endpoints
 * (`/me/library/songs?ids=`, `/catalog/{storefront}/music-videos?ids=`) the plugin does not read, and
 * a music video is never migrated anyway. Any other failure (rate limit, expired token, 5xx) is
 * thrown as a typed error like every other read, since a partial answer cannot be returned.
 */

/** Ids per request: Apple's documented maximum for `ids` ("The maximum fetch limit is 300"). */
export const MAX_LOOKUP_IDS = 300;

/** The catalog id of an Apple Music song URI or link; null for anything else (albums, videos, library songs, other services). */
function songIdOf(uri: string): string | null {
  const ref = parseAppleUri(uri);
  return ref?.kind === 'song' ? ref.id : null;
}

async function readBatch(ctx: ProviderContext, storefront: string, ids: readonly string[], found: Map<string, TrackInput>): Promise<void> {
  const wanted = new Set(ids);
  let data: readonly unknown[];
  try {
    // The ids are digits only (checked by the parser), so the comma-separated list needs no escaping of its own.
    data = (await getPage(ctx, `/catalog/${storefront}/songs${query({ ids: ids.join(',') })}`, 'looking songs up by id')).data;
  } catch (error) {
    // Apple leaves unknown ids out of `data`, and may answer 404 when it knows none of them.
    if (error instanceof NotFound) return;
    throw error;
  }
  for (const item of data) {
    const resource = record(item);
    const id = resource?.['id'];
    if (!resource || resource['type'] !== 'songs' || typeof id !== 'string' || !wanted.has(id) || found.has(id)) continue;
    found.set(id, mapTrack(resource));
  }
}

export async function lookupTracks(input: OperationInput<'lookupTracks'>, ctx: ProviderContext): Promise<OperationReturn<'lookupTracks'>> {
  const ids = input.uris.map(songIdOf);
  const distinct = [...new Set(ids.filter((id): id is string => id !== null))];
  const found = new Map<string, TrackInput>();
  if (distinct.length > 0) {
    // Read only when there is something to look up: a call of other services' links sends nothing.
    const storefront = await currentStorefront(ctx);
    for (let start = 0; start < distinct.length; start += MAX_LOOKUP_IDS) await readBatch(ctx, storefront.id, distinct.slice(start, start + MAX_LOOKUP_IDS), found);
  }
  return { tracks: ids.map((id) => (id === null ? null : (found.get(id) ?? null))) };
}
