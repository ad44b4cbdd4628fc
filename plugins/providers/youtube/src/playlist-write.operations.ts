import { InvalidInput, NotFound, PluginError, ProviderError, type OperationInput, type OperationReturn, type PluginErrorType, type ProviderContext, type ProviderOperations } from '@opl/plugin-sdk';
import { isEntryNotFound } from './youtube-errors.ts';
import { list, query, send, type ListAnswer } from './youtube-client.ts';
import { parseYoutubeUri, playlistUri } from './youtube-uris.ts';

/**
 * Playlist writes: create, add (playlistItems.insert takes one video per request, optionally at
 * `snippet.position`), remove by playlistItem id (one per request), delete. Each request costs 50
 * quota units. When a request fails after others of the same call were applied, the call still
 * answers per item — applied ones ok, the rest with the error that stopped it (a used-up quota
 * keeps its quota marker) — so the engine knows exactly what was written.
 */

type ItemResult = OperationReturn<'addTracks'>['results'][number];

function failure(uri: string, type: PluginErrorType, message: string, position: number | null = null): ItemResult {
  return { uri, ok: false, target_item_id: null, position, error: { type, message } };
}

function asPluginError(error: unknown): PluginError {
  return error instanceof PluginError ? error : new ProviderError('the YouTube request failed');
}

function videoIdOf(uri: string): string | null {
  const ref = parseYoutubeUri(uri);
  return ref?.entity === 'track' ? ref.id : null;
}

export async function createPlaylist(input: OperationInput<'createPlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'createPlaylist'>> {
  const body = (await send(ctx, {
    method: 'POST',
    path: `/playlists${query({ part: 'snippet,status' })}`,
    body: { snippet: { title: input.name, ...(input.description ? { description: input.description } : {}) }, status: { privacyStatus: input.public ? 'public' : 'private' } },
    what: 'creating a playlist',
  })) as { id?: unknown } | null;
  if (typeof body?.id !== 'string') throw new ProviderError('YouTube sent no playlist after creating one');
  return { playlist_id: body.id, uri: playlistUri(body.id), snapshot_id: null };
}

export async function addTracks(input: OperationInput<'addTracks'>, ctx: ProviderContext): Promise<OperationReturn<'addTracks'>> {
  const results: ItemResult[] = [];
  let applied = false;
  for (const [index, item] of input.items.entries()) {
    const videoId = videoIdOf(item.uri);
    if (!videoId) {
      results.push(failure(item.uri, 'InvalidInput', 'not a YouTube video URI'));
      continue;
    }
    let body: { id?: unknown; snippet?: { position?: unknown } } | null;
    try {
      body = (await send(ctx, {
        method: 'POST',
        path: `/playlistItems${query({ part: 'snippet' })}`,
        body: { snippet: { playlistId: input.playlist_id, resourceId: { kind: 'youtube#video', videoId }, ...(item.position !== null ? { position: item.position } : {}) } },
        what: 'adding a video to a playlist',
      })) as typeof body;
    } catch (error) {
      // This video only: it does not exist, or its position was refused.
      if (isEntryNotFound(error, 'videoNotFound')) {
        results.push(failure(item.uri, 'NotFound', 'YouTube has no such video (deleted, private or never existed)'));
        continue;
      }
      if (error instanceof InvalidInput) {
        results.push(failure(item.uri, 'InvalidInput', error.message));
        continue;
      }
      // Nothing written yet: the call fails with the typed error itself (a quota stop included).
      if (!applied) throw error;
      const typed = asPluginError(error);
      for (const later of input.items.slice(index)) results.push(failure(later.uri, typed.type, typed.message));
      break;
    }
    applied = true;
    const position = body?.snippet?.position;
    results.push({ uri: item.uri, ok: true, target_item_id: typeof body?.id === 'string' ? body.id : null, position: typeof position === 'number' ? position : null, error: null });
  }
  return { results, snapshot_id: null };
}

interface Entry {
  readonly itemId: string;
  readonly videoId: string;
}

/** Every entry of a playlist, in order (for removals that name no entry id). */
async function readEntries(ctx: ProviderContext, playlistId: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  let pageToken: string | null = null;
  for (let page = 0; page < 200; page++) {
    const answer: ListAnswer<{ id?: unknown; contentDetails?: { videoId?: unknown } }> = await list(ctx, `/playlistItems${query({ part: 'contentDetails', playlistId, maxResults: 50, pageToken })}`, 'reading playlist entries');
    for (const item of answer.items) {
      if (typeof item.id === 'string' && typeof item.contentDetails?.videoId === 'string') entries.push({ itemId: item.id, videoId: item.contentDetails.videoId });
    }
    pageToken = answer.nextPageToken;
    if (!pageToken) break;
  }
  return entries;
}

export async function removeTracks(input: OperationInput<'removeTracks'>, ctx: ProviderContext): Promise<OperationReturn<'removeTracks'>> {
  const results: (ItemResult | null)[] = input.items.map(() => null);
  const targets: { index: number; uri: string; itemId: string; position: number | null }[] = [];
  const unresolved: number[] = [];
  input.items.forEach((item, index) => {
    if (!videoIdOf(item.uri)) results[index] = failure(item.uri, 'InvalidInput', 'not a YouTube video URI');
    else if (item.target_item_id) targets.push({ index, uri: item.uri, itemId: item.target_item_id, position: item.position });
    else unresolved.push(index);
  });
  if (unresolved.length) {
    // No entry id: the entry at the given position when it still holds this video, else its first unclaimed occurrence.
    const entries = await readEntries(ctx, input.playlist_id);
    const claimed = new Set(targets.map((target) => target.itemId));
    for (const index of unresolved) {
      const item = input.items[index]!;
      const videoId = videoIdOf(item.uri)!;
      const at = item.position !== null ? entries[item.position] : undefined;
      const entry = at && at.videoId === videoId && !claimed.has(at.itemId) ? at : entries.find((candidate) => candidate.videoId === videoId && !claimed.has(candidate.itemId));
      if (!entry) {
        results[index] = failure(item.uri, 'NotFound', 'the playlist has no such entry');
        continue;
      }
      claimed.add(entry.itemId);
      targets.push({ index, uri: item.uri, itemId: entry.itemId, position: item.position });
    }
  }
  targets.sort((a, b) => a.index - b.index);
  let applied = false;
  for (const [order, target] of targets.entries()) {
    try {
      await send(ctx, { method: 'DELETE', path: `/playlistItems${query({ id: target.itemId })}`, what: 'removing a playlist entry' });
    } catch (error) {
      if (isEntryNotFound(error, 'playlistItemNotFound')) {
        results[target.index] = failure(target.uri, 'NotFound', 'the playlist has no such entry (already removed?)', target.position);
        continue;
      }
      if (!applied) throw error;
      const typed = asPluginError(error);
      for (const later of targets.slice(order)) results[later.index] = failure(later.uri, typed.type, typed.message, later.position);
      break;
    }
    applied = true;
    results[target.index] = { uri: target.uri, ok: true, target_item_id: target.itemId, position: target.position, error: null };
  }
  return { results: results.map((result, index) => result ?? failure(input.items[index]!.uri, 'ProviderError', 'not removed')), snapshot_id: null };
}

export async function deletePlaylist(input: OperationInput<'deletePlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'deletePlaylist'>> {
  try {
    await send(ctx, { method: 'DELETE', path: `/playlists${query({ id: input.playlist_id })}`, what: 'deleting a playlist' });
  } catch (error) {
    if (error instanceof NotFound) throw new NotFound('YouTube has no such playlist (already deleted?)');
    throw error;
  }
  return { ok: true };
}

/** The operations of this file, as the plugin definition takes them. */
export const playlistWrites = { createPlaylist, addTracks, removeTracks, deletePlaylist } satisfies ProviderOperations;
