import { PluginError, ProviderError, type OperationInput, type OperationReturn, type PluginErrorType, type ProviderContext, type ProviderOperations } from '@opl/plugin-sdk';
import { readPage, send, segment } from './apple-client.ts';
import { catalogIdOf, record } from './apple-mapping.ts';
import { appleUri, parseAppleUri, trackResourceType } from './apple-uris.ts';
import { anyPending, matchAppended, type SentItem } from './append-confirmation.ts';
import { APPLE_PAGE_MAX } from './offset-paging.ts';
import { playlistTracksPage, readPlaylistResource } from './playlist-read.operations.ts';

/**
 * Playlist writes: create (201 with the new `p.…` playlist) and append (204, no body, and the
 * tracks may appear later). Apple has no call to insert at a position, remove, reorder or delete,
 * and none to make a write idempotent, so `addTracks` never re-sends a request: it appends in
 * requests of at most 100 tracks, then reads the playlist back a bounded number of times to tell
 * which tracks landed where.
 */

export const MAX_APPEND = 100;
/** Reads of the playlist's new tail before unconfirmed tracks are reported as pending. */
export const CONFIRM_READS = 6;

type ItemResult = OperationReturn<'addTracks'>['results'][number];

function failure(uri: string, type: PluginErrorType, message: string): ItemResult {
  return { uri, ok: false, target_item_id: null, position: null, error: { type, message } };
}

function asPluginError(error: unknown): PluginError {
  return error instanceof PluginError ? error : new ProviderError('the Apple Music request failed');
}

export async function createPlaylist(input: OperationInput<'createPlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'createPlaylist'>> {
  const attributes = { name: input.name, isPublic: input.public, ...(input.description ? { description: input.description } : {}) };
  const body = await send(ctx, { method: 'POST', path: '/me/library/playlists', body: { attributes }, what: 'creating a library playlist' });
  const first = record(readPage(body, 'creating a library playlist').data[0]);
  const id = first?.['id'];
  if (typeof id !== 'string' || !/^p\./.test(id)) throw new ProviderError('Apple Music sent no playlist after creating one');
  return { playlist_id: id, uri: appleUri('library-playlist', id), snapshot_id: null };
}

/** How many tracks the playlist shows now (`meta.total` of a one-item page, else by walking it). */
async function visibleCount(ctx: ProviderContext, playlistId: string): Promise<number> {
  const first = await playlistTracksPage(ctx, playlistId, 0, 1, false);
  if (first.total !== null) return first.total;
  if (first.data.length === 0) return 0;
  let count = 0;
  for (let pages = 0; pages < 200; pages++) {
    const page = await playlistTracksPage(ctx, playlistId, count, APPLE_PAGE_MAX, false);
    count += page.data.length;
    if (page.next === null || page.data.length === 0) break;
  }
  return count;
}

/** The keys of every entry from `from` on (catalog and library ids). */
async function tailKeys(ctx: ProviderContext, playlistId: string, from: number): Promise<string[][]> {
  const keys: string[][] = [];
  let offset = from;
  for (let pages = 0; pages < 200; pages++) {
    const page = await playlistTracksPage(ctx, playlistId, offset, APPLE_PAGE_MAX, false);
    for (const entry of page.data) {
      const resource = record(entry) ?? {};
      const isVideo = resource['type'] === 'library-music-videos' || resource['type'] === 'music-videos';
      const catalogId = catalogIdOf(resource);
      const own = typeof resource['id'] === 'string' ? [`library:${resource['id']}`] : [];
      keys.push([...own, ...(catalogId ? [`${isVideo ? 'music-video' : 'song'}:${catalogId}`] : [])]);
    }
    offset += page.data.length;
    if (page.next === null || page.data.length === 0) break;
  }
  return keys;
}

interface Target {
  readonly index: number;
  readonly uri: string;
  readonly id: string;
  readonly type: 'songs' | 'music-videos' | 'library-songs';
  readonly key: string;
}

export async function addTracks(input: OperationInput<'addTracks'>, ctx: ProviderContext): Promise<OperationReturn<'addTracks'>> {
  const results: (ItemResult | null)[] = input.items.map(() => null);
  const playlist = await readPlaylistResource(ctx, input.playlist_id);
  if (record(playlist['attributes'])?.['canEdit'] === false) {
    const message = 'this playlist was added to the library from the catalogue and cannot be edited';
    return { results: input.items.map((item) => failure(item.uri, 'Unsupported', message)), snapshot_id: null };
  }
  const baseline = await visibleCount(ctx, input.playlist_id);

  const targets: Target[] = [];
  input.items.forEach((item, index) => {
    const ref = parseAppleUri(item.uri);
    const type = ref ? trackResourceType(ref.kind) : null;
    if (!ref || !type) {
      results[index] = failure(item.uri, 'InvalidInput', 'not an Apple Music song, music video or library song URI');
      return;
    }
    // Apple only appends: a position is honoured only where the track lands anyway, at the end.
    const end = baseline + targets.length;
    if (item.position !== null && item.position !== end) {
      results[index] = failure(item.uri, 'Unsupported', 'Apple Music can only add tracks at the end of a playlist');
      return;
    }
    const key = type === 'library-songs' ? `library:${ref.id}` : `${type === 'songs' ? 'song' : 'music-video'}:${ref.id}`;
    targets.push({ index, uri: item.uri, id: ref.id, type, key });
  });

  const sent: (Target & { request: number })[] = [];
  for (let start = 0, request = 0; start < targets.length; start += MAX_APPEND, request++) {
    const batch = targets.slice(start, start + MAX_APPEND);
    try {
      await send(ctx, { method: 'POST', path: `/me/library/playlists/${segment(input.playlist_id)}/tracks`, body: { data: batch.map((target) => ({ id: target.id, type: target.type })) }, what: 'appending tracks to a playlist' });
    } catch (error) {
      // Nothing accepted yet: the call failed as a whole, and the engine sees the typed error itself.
      if (sent.length === 0) throw error;
      const typed = asPluginError(error);
      for (const target of targets.slice(start)) results[target.index] = failure(target.uri, typed.type, typed.message);
      break;
    }
    sent.push(...batch.map((target) => ({ ...target, request })));
  }

  if (sent.length > 0) {
    const items: SentItem[] = sent.map((target) => ({ keys: [target.key], request: target.request }));
    // Bounded read-backs (the sandbox has no timer: the host's pacing spaces them). Never a re-send.
    let verdicts = matchAppended(items, await tailKeys(ctx, input.playlist_id, baseline), baseline);
    for (let read = 1; read < CONFIRM_READS && anyPending(verdicts); read++) {
      verdicts = matchAppended(items, await tailKeys(ctx, input.playlist_id, baseline), baseline);
    }
    verdicts.forEach((verdict, at) => {
      const target = sent[at]!;
      if (verdict.state === 'confirmed') results[target.index] = { uri: target.uri, ok: true, target_item_id: null, position: verdict.position, error: null };
      else if (verdict.state === 'skipped') results[target.index] = failure(target.uri, 'NotFound', 'Apple Music skipped this track: it is not available in the account\'s storefront');
      // Accepted (204) but not visible yet: ok, position unknown. Reporting it failed would invite a duplicate.
      else results[target.index] = { uri: target.uri, ok: true, target_item_id: null, position: null, error: null };
    });
  }
  return { results: results.map((result, index) => result ?? failure(input.items[index]!.uri, 'ProviderError', 'not written')), snapshot_id: null };
}

/** The operations of this file, as the plugin definition takes them. */
export const playlistWrites = { createPlaylist, addTracks } satisfies ProviderOperations;
