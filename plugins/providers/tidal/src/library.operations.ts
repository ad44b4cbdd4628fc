import { PluginError, ProviderError, type OperationInput, type OperationReturn, type ProviderContext, type ProviderOperations } from '@opl/plugin-sdk';
import { chunk } from './batch-plan.ts';
import { asIdentifier, lookup, type Identifier } from './json-api-document.ts';
import { idempotencyKey } from './idempotency-key.ts';
import { collectPage } from './page-cursor.ts';
import { getDocument, pageCursor, query, send } from './tidal-client.ts';
import { mapAlbum, mapArtist } from './tidal-mapping.ts';
import { parseTidalUri } from './tidal-uris.ts';

/**
 * The account's collection ("My Collection"): favourite albums and followed artists, read page by
 * page and written 50 at a time through the `userCollectionAlbums` / `userCollectionArtists`
 * resources (the older `userCollections` relationships are deprecated).
 */

const MAX_BATCH = 50;

type Kind = 'albums' | 'artists';
type BatchReturn = OperationReturn<'saveAlbums'>;
type ItemResult = BatchReturn['results'][number];

const RESOURCE: Record<Kind, string> = { albums: 'userCollectionAlbums', artists: 'userCollectionArtists' };
const INCLUDES: Record<Kind, string[]> = { albums: ['items.artists', 'items.coverArt'], artists: ['items.profileArt'] };

async function collectionPage(ctx: ProviderContext, kind: Kind, cursor: string | null) {
  const document = await getDocument(ctx, `/${RESOURCE[kind]}/me/relationships/items${query({ include: INCLUDES[kind], 'page[cursor]': cursor })}`, `reading the collection's ${kind}`);
  const identifiers = document.data.map(asIdentifier).filter((identifier): identifier is Identifier => identifier !== null && identifier.type === kind);
  return { items: identifiers.map((identifier) => ({ identifier, document })), next: document.nextCursor };
}

export async function listSavedAlbums(input: OperationInput<'listSavedAlbums'>, ctx: ProviderContext): Promise<OperationReturn<'listSavedAlbums'>> {
  const page = await collectPage(
    pageCursor(input.cursor),
    input.limit,
    (cursor) => collectionPage(ctx, 'albums', cursor),
    ({ identifier, document }) => {
      const resource = lookup(document, identifier);
      const addedAt = typeof identifier.meta['addedAt'] === 'string' ? identifier.meta['addedAt'] : null;
      return resource ? mapAlbum(document, resource, addedAt) : { id: identifier.id, title: '', provider_uris: { tidal: `tidal:album:${identifier.id}` } };
    },
  );
  return { ...page, total: null };
}

export async function listFollowedArtists(input: OperationInput<'listFollowedArtists'>, ctx: ProviderContext): Promise<OperationReturn<'listFollowedArtists'>> {
  const page = await collectPage(
    pageCursor(input.cursor),
    input.limit,
    (cursor) => collectionPage(ctx, 'artists', cursor),
    ({ identifier, document }) => {
      const resource = lookup(document, identifier);
      const addedAt = typeof identifier.meta['addedAt'] === 'string' ? identifier.meta['addedAt'] : null;
      return resource ? mapArtist(document, resource, addedAt) : { id: identifier.id, name: '', provider_uris: { tidal: `tidal:artist:${identifier.id}` } };
    },
  );
  return { ...page, total: null };
}

function failed(uri: string, error: PluginError): ItemResult {
  return { uri, ok: false, target_item_id: null, position: null, error: { type: error.type, message: error.message } };
}

/** Adds to (POST) or removes from (DELETE) the collection, 50 per request, results in input order. */
async function writeCollection(ctx: ProviderContext, kind: Kind, method: 'POST' | 'DELETE', items: readonly { uri: string }[]): Promise<BatchReturn> {
  const entity = kind === 'albums' ? 'album' : 'artist';
  const results: (ItemResult | null)[] = items.map(() => null);
  const targets: { index: number; uri: string; id: string }[] = [];
  items.forEach((item, index) => {
    const ref = parseTidalUri(item.uri);
    if (ref && ref.entity === entity) targets.push({ index, uri: item.uri, id: ref.id });
    else results[index] = { uri: item.uri, ok: false, target_item_id: null, position: null, error: { type: 'InvalidInput', message: `not a TIDAL ${entity} URI` } };
  });
  const verb = method === 'POST' ? 'adding to' : 'removing from';
  let applied = false;
  const batches = chunk(targets, MAX_BATCH);
  for (const [batchIndex, batch] of batches.entries()) {
    let body: unknown;
    try {
      body = await send(ctx, {
        method,
        path: `/${RESOURCE[kind]}/me/relationships/items`,
        body: { data: batch.map((target) => ({ id: target.id, type: kind })) },
        idempotencyKey: idempotencyKey([`${method} ${RESOURCE[kind]}`, batch.map((target) => target.id)]),
        what: `${verb} the collection's ${kind}`,
      });
    } catch (error) {
      if (!applied) throw error;
      const typed = error instanceof PluginError ? error : new ProviderError('the TIDAL request failed');
      for (const later of batches.slice(batchIndex)) for (const target of later) results[target.index] = failed(target.uri, typed);
      break;
    }
    applied = true;
    const skippedRaw = (body as { meta?: { skipped?: unknown } } | null)?.meta?.skipped;
    // ALREADY_PRESENT is success (the album is saved); NOT_FOUND is not.
    const missing = new Set(
      (Array.isArray(skippedRaw) ? skippedRaw : [])
        .filter((entry) => (entry as { reason?: unknown } | null)?.reason === 'NOT_FOUND')
        .map((entry) => asIdentifier(entry)?.id ?? ''),
    );
    for (const target of batch) {
      results[target.index] = missing.has(target.id)
        ? { uri: target.uri, ok: false, target_item_id: null, position: null, error: { type: 'NotFound', message: `TIDAL has no such ${entity}` } }
        : { uri: target.uri, ok: true, target_item_id: null, position: null, error: null };
    }
  }
  return { results: results.map((result, index) => result ?? { uri: items[index]!.uri, ok: false, target_item_id: null, position: null, error: { type: 'ProviderError', message: 'not written' } }), snapshot_id: null };
}

export const saveAlbums = (input: OperationInput<'saveAlbums'>, ctx: ProviderContext) => writeCollection(ctx, 'albums', 'POST', input.items);
export const removeSavedAlbums = (input: OperationInput<'removeSavedAlbums'>, ctx: ProviderContext) => writeCollection(ctx, 'albums', 'DELETE', input.items);
export const followArtists = (input: OperationInput<'followArtists'>, ctx: ProviderContext) => writeCollection(ctx, 'artists', 'POST', input.items);
export const unfollowArtists = (input: OperationInput<'unfollowArtists'>, ctx: ProviderContext) => writeCollection(ctx, 'artists', 'DELETE', input.items);

/** The operations of this file, as the plugin definition takes them. */
export const libraryOperations = { listSavedAlbums, saveAlbums, removeSavedAlbums, listFollowedArtists, followArtists, unfollowArtists } satisfies ProviderOperations;
