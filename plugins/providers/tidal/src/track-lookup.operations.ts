import type { OperationInput, OperationReturn, ProviderContext, TrackInput } from '@opl/plugin-sdk';
import { chunk } from './batch-plan.ts';
import { primary } from './json-api-document.ts';
import { TRACK_INCLUDES } from './search.operations.ts';
import { getDocument, query } from './tidal-client.ts';
import { mapTrack } from './tidal-mapping.ts';
import { parseTidalUri } from './tidal-uris.ts';

/**
 * Tracks named by URI or link, read from the catalogue with `GET /tracks?filter[id]=…` (artists,
 * album and cover included), at most 20 ids a request. One answer per input URI, in input order:
 * null for an id TIDAL does not return (withdrawn, unknown, not in the account's country) and, with
 * no request at all, for a URI that is not a TIDAL track.
 */

/** Ids per request: TIDAL's page size, so one request answers a whole batch. */
export const MAX_LOOKUP_IDS = 20;
/** Pages followed for one batch, should TIDAL page it after all (each page holds at least one track). */
const MAX_PAGES = MAX_LOOKUP_IDS;

async function readBatch(ctx: ProviderContext, ids: readonly string[], found: Map<string, TrackInput>): Promise<void> {
  const wanted = new Set(ids);
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const path = `/tracks${query({ 'filter[id]': { each: ids }, include: TRACK_INCLUDES, 'page[cursor]': cursor })}`;
    const document = await getDocument(ctx, path, 'looking tracks up by id');
    for (const resource of primary(document, 'tracks')) {
      if (wanted.has(resource.id) && !found.has(resource.id)) found.set(resource.id, mapTrack(document, resource));
    }
    if (document.nextCursor === null || ids.every((id) => found.has(id))) return;
    cursor = document.nextCursor;
  }
}

export async function lookupTracks(input: OperationInput<'lookupTracks'>, ctx: ProviderContext): Promise<OperationReturn<'lookupTracks'>> {
  const ids = input.uris.map((uri) => {
    const ref = parseTidalUri(uri);
    return ref?.entity === 'track' ? ref.id : null;
  });
  const distinct = [...new Set(ids.filter((id): id is string => id !== null))];
  const found = new Map<string, TrackInput>();
  for (const batch of chunk(distinct, MAX_LOOKUP_IDS)) await readBatch(ctx, batch, found);
  return { tracks: ids.map((id) => (id === null ? null : (found.get(id) ?? null))) };
}
