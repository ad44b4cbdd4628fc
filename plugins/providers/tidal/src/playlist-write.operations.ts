import { NotFound, PluginError, ProviderError, type OperationInput, type OperationReturn, type PluginErrorType, type ProviderContext, type ProviderOperations } from '@opl/plugin-sdk';
import { chunk, planInserts, type PlannedItem } from './batch-plan.ts';
import { asIdentifier, asResource, readDocument, text } from './json-api-document.ts';
import { idempotencyKey } from './idempotency-key.ts';
import { readEntryLayout } from './playlist-read.operations.ts';
import { send, segment } from './tidal-client.ts';
import { parseTidalUri, tidalUri } from './tidal-uris.ts';

/**
 * Playlist writes: create, add (50 per request, `positionBefore` for positioned inserts), remove
 * by entry id (50 per request), delete. Every request carries an `Idempotency-Key` derived from
 * the write, so a retry of a write whose answer was lost is replayed by TIDAL, not applied twice.
 */

export const MAX_BATCH = 50;
/** A create answer older than this was replayed from an earlier call (see createPlaylist). */
const REPLAY_SUSPECT_MS = 2 * 60 * 1000;

type ItemResult = OperationReturn<'addTracks'>['results'][number];

function failure(uri: string, type: PluginErrorType, message: string, position: number | null = null): ItemResult {
  return { uri, ok: false, target_item_id: null, position, error: { type, message } };
}

function asPluginError(error: unknown): PluginError {
  return error instanceof PluginError ? error : new ProviderError('the TIDAL request failed');
}

/** Playlist entries must be tracks or videos; anything else is refused per item. */
function playlistMedia(uri: string): { id: string; type: 'tracks' | 'videos' } | null {
  const ref = parseTidalUri(uri);
  if (!ref || (ref.entity !== 'track' && ref.entity !== 'video')) return null;
  return { id: ref.id, type: ref.entity === 'track' ? 'tracks' : 'videos' };
}

export async function createPlaylist(input: OperationInput<'createPlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'createPlaylist'>> {
  const attributes = { name: input.name, accessType: input.public ? 'PUBLIC' : 'UNLISTED', ...(input.description ? { description: input.description } : {}) };
  const create = async (salt: string | null) => {
    const body = await send(ctx, {
      method: 'POST',
      path: '/playlists',
      body: { data: { type: 'playlists', attributes } },
      idempotencyKey: idempotencyKey(['createPlaylist', ctx.account?.id ?? null, attributes, salt]),
      what: 'creating a playlist',
    });
    const resource = asResource(readDocument(body)?.data[0]);
    if (!resource || resource.type !== 'playlists') throw new ProviderError('TIDAL sent no playlist after creating one');
    return resource;
  };
  let resource = await create(null);
  // TIDAL replays a key's first answer for an hour. An old creation date means this answer is such a
  // replay (an identical playlist was made earlier); if that playlist has since been deleted, make a new one.
  const createdAt = Date.parse(text(resource.attributes['createdAt']) ?? '');
  if (!Number.isNaN(createdAt) && Date.parse(ctx.now()) - createdAt > REPLAY_SUSPECT_MS) {
    try {
      await send(ctx, { path: `/playlists/${segment(resource.id)}`, what: 'checking a created playlist' });
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
      resource = await create(ctx.now());
    }
  }
  return { playlist_id: resource.id, uri: tidalUri('playlist', resource.id), snapshot_id: text(resource.attributes['lastModifiedAt']) };
}

export async function addTracks(input: OperationInput<'addTracks'>, ctx: ProviderContext): Promise<OperationReturn<'addTracks'>> {
  const results: (ItemResult | null)[] = input.items.map(() => null);
  const valid: PlannedItem<{ uri: string; position: number | null; id: string; type: 'tracks' | 'videos' }>[] = [];
  input.items.forEach((item, index) => {
    const media = playlistMedia(item.uri);
    if (media) valid.push({ index, value: { ...item, ...media } });
    else results[index] = failure(item.uri, 'InvalidInput', 'not a TIDAL track or video URI');
  });
  const batches = planInserts(valid, (value) => value.position, MAX_BATCH);
  // Positions become "before this entry": the current layout tells which entry sits there.
  const layout = batches.some((batch) => batch.position !== null) ? (await readEntryLayout(ctx, input.playlist_id)).map((entry) => entry.itemId) : null;
  const writeId = input.items.map((item) => [item.uri, item.position]);
  let applied = false;
  for (const [batchIndex, batch] of batches.entries()) {
    let insertAt: number | null = null;
    let positionBefore: string | null = null;
    if (layout) {
      insertAt = batch.position !== null && batch.position < layout.length ? batch.position : layout.length;
      positionBefore = layout[insertAt] ?? null;
    }
    let body: unknown;
    try {
      body = await send(ctx, {
        method: 'POST',
        path: `/playlists/${segment(input.playlist_id)}/relationships/items`,
        body: { data: batch.items.map((item) => ({ id: item.value.id, type: item.value.type })), ...(positionBefore ? { meta: { positionBefore } } : {}) },
        idempotencyKey: idempotencyKey(['addTracks', input.playlist_id, writeId, batchIndex]),
        what: 'adding entries to a playlist',
      });
    } catch (error) {
      // Nothing written yet: the whole call failed, and the engine sees the typed error itself.
      if (!applied) throw error;
      const typed = asPluginError(error);
      for (const later of batches.slice(batchIndex)) for (const item of later.items) results[item.index] = failure(item.value.uri, typed.type, typed.message);
      break;
    }
    applied = true;
    const created = (readDocument(body)?.data ?? []).map(asIdentifier);
    const skippedRaw = (body as { meta?: { skipped?: unknown } } | null)?.meta?.skipped;
    const skipped = new Set((Array.isArray(skippedRaw) ? skippedRaw : []).map((entry) => { const id = asIdentifier(entry); return id ? `${id.type}:${id.id}` : ''; }));
    const added: string[] = [];
    let next = 0;
    for (const item of batch.items) {
      if (skipped.has(`${item.value.type}:${item.value.id}`)) {
        results[item.index] = failure(item.value.uri, 'NotFound', 'TIDAL has no such track or video (or not in the account\'s country)');
        continue;
      }
      const entry = created[next];
      next += 1;
      const itemId = entry && entry.id === item.value.id ? text(entry.meta['itemId']) : null;
      results[item.index] = { uri: item.value.uri, ok: true, target_item_id: itemId, position: insertAt !== null ? insertAt + added.length : null, error: null };
      if (itemId) added.push(itemId);
    }
    if (layout && insertAt !== null) layout.splice(insertAt, 0, ...added);
  }
  return { results: results.map((result, index) => result ?? failure(input.items[index]!.uri, 'ProviderError', 'not written')), snapshot_id: null };
}

export async function removeTracks(input: OperationInput<'removeTracks'>, ctx: ProviderContext): Promise<OperationReturn<'removeTracks'>> {
  const results: (ItemResult | null)[] = input.items.map(() => null);
  const targets: { index: number; uri: string; id: string; type: string; itemId: string; position: number | null }[] = [];
  const unresolved: number[] = [];
  input.items.forEach((item, index) => {
    const media = playlistMedia(item.uri);
    if (!media) results[index] = failure(item.uri, 'InvalidInput', 'not a TIDAL track or video URI');
    else if (item.target_item_id) targets.push({ index, uri: item.uri, ...media, itemId: item.target_item_id, position: item.position });
    else unresolved.push(index);
  });
  if (unresolved.length) {
    // No entry id: find the entry by its position (when it still holds this track), else its first unclaimed occurrence.
    const layout = await readEntryLayout(ctx, input.playlist_id);
    const claimed = new Set(targets.map((target) => target.itemId));
    for (const index of unresolved) {
      const item = input.items[index]!;
      const media = playlistMedia(item.uri)!;
      const at = item.position !== null ? layout[item.position] : undefined;
      const entry = at && at.id === media.id && !claimed.has(at.itemId) ? at : layout.find((candidate) => candidate.id === media.id && candidate.type === media.type && !claimed.has(candidate.itemId));
      if (!entry) {
        results[index] = failure(item.uri, 'NotFound', 'the playlist has no such entry');
        continue;
      }
      claimed.add(entry.itemId);
      targets.push({ index, uri: item.uri, ...media, itemId: entry.itemId, position: item.position });
    }
  }
  const batches = chunk(targets, MAX_BATCH);
  let applied = false;
  for (const [batchIndex, batch] of batches.entries()) {
    try {
      await send(ctx, {
        method: 'DELETE',
        path: `/playlists/${segment(input.playlist_id)}/relationships/items`,
        body: { data: batch.map((target) => ({ id: target.id, type: target.type, meta: { itemId: target.itemId } })) },
        idempotencyKey: idempotencyKey(['removeTracks', input.playlist_id, batch.map((target) => target.itemId)]),
        what: 'removing entries from a playlist',
      });
    } catch (error) {
      if (!applied) throw error;
      const typed = asPluginError(error);
      for (const later of batches.slice(batchIndex)) for (const target of later) results[target.index] = failure(target.uri, typed.type, typed.message);
      break;
    }
    applied = true;
    for (const target of batch) results[target.index] = { uri: target.uri, ok: true, target_item_id: target.itemId, position: target.position, error: null };
  }
  return { results: results.map((result, index) => result ?? failure(input.items[index]!.uri, 'ProviderError', 'not removed')), snapshot_id: null };
}

export async function deletePlaylist(input: OperationInput<'deletePlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'deletePlaylist'>> {
  await send(ctx, {
    method: 'DELETE',
    path: `/playlists/${segment(input.playlist_id)}`,
    idempotencyKey: idempotencyKey(['deletePlaylist', input.playlist_id]),
    what: 'deleting a playlist',
  });
  return { ok: true };
}

/** The operations of this file, as the plugin definition takes them. */
export const playlistWrites = { createPlaylist, addTracks, removeTracks, deletePlaylist } satisfies ProviderOperations;
