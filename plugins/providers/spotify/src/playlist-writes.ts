import { InvalidInput, PluginError, pluginErrorFromData, ProviderError, type OperationInput, type OperationReturn, type ProviderContext, type ProviderOperations } from '@opl/plugin-sdk';
import { nonEmpty, record } from './json-read.ts';
import { requirePlaylistId } from './playlist-reads.ts';
import { spotifyRequest } from './spotify-client.ts';
import { isLocalFileUri, parseSpotifyRef } from './spotify-uri.ts';
import { additionBlocks, chunks, MAX_ITEMS_PER_REQUEST, type AdditionInput } from './write-batches.ts';

/**
 * Playlist writes on the current endpoints: create (`POST /me/playlists`), add at positions
 * (`POST /playlists/{id}/items`, ≤ 100 per request), remove by URI against a snapshot
 * (`DELETE …/items`, ≤ 100), reorder and replace (`PUT …/items`) and unfollow (`DELETE /me/library`).
 *
 * Failure rule for multi-request writes: when the first request fails nothing was applied and the
 * typed error is thrown; when a later one fails, the results say which items were written and
 * which were not (with the error), so the engine never mistakes a partial write for none.
 */

type BatchResult = OperationReturn<'addTracks'>['results'][number];

/** Spotify accepts playlist descriptions of up to 300 characters, on one line. */
export const DESCRIPTION_MAX = 300;

function snapshotOf(answer: unknown): string | null {
  return nonEmpty(record(answer)?.['snapshot_id']);
}

function failure(uri: string, error: PluginError, position: number | null = null): BatchResult {
  return { uri, ok: false, position, error: { type: error.type, message: error.message } };
}

function asPluginError(error: unknown): PluginError {
  if (error instanceof PluginError) return error;
  return new ProviderError('The Spotify plugin failed unexpectedly while writing.');
}

/** A track or episode URI for the items endpoints, or the per-item refusal. */
export function itemUri(value: string): { uri: string } | { error: PluginError } {
  if (isLocalFileUri(value)) return { error: new InvalidInput('Local files cannot be added through the Spotify API: they exist only on the owner’s devices.') };
  const parsed = parseSpotifyRef(value);
  if (!parsed || (parsed.entity !== 'track' && parsed.entity !== 'episode')) return { error: new InvalidInput('Not a Spotify track or episode URI.') };
  return { uri: parsed.uri };
}

export async function createPlaylist(input: OperationInput<'createPlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'createPlaylist'>> {
  const body: Record<string, unknown> = { name: input.name, public: input.public };
  if (input.description !== null) {
    const description = input.description.replace(/\s+/g, ' ').trim();
    if (description !== '') body['description'] = [...description].slice(0, DESCRIPTION_MAX).join('');
  }
  const created = record(await spotifyRequest(ctx, { method: 'POST', path: '/me/playlists', body, what: 'creating the playlist' }));
  const id = nonEmpty(created?.['id']);
  if (!created || !id) throw new ProviderError('Spotify created the playlist but its answer carried no playlist id; list the playlists to find it.');
  return { playlist_id: id, uri: nonEmpty(created['uri']), snapshot_id: nonEmpty(created['snapshot_id']) };
}

export async function addTracks(input: OperationInput<'addTracks'>, ctx: ProviderContext): Promise<OperationReturn<'addTracks'>> {
  const id = requirePlaylistId(input.playlist_id);
  const results: (BatchResult | null)[] = input.items.map(() => null);
  const valid: AdditionInput[] = [];
  input.items.forEach((item, index) => {
    const checked = itemUri(item.uri);
    if ('error' in checked) results[index] = failure(item.uri, checked.error, item.position);
    else valid.push({ index, uri: checked.uri, position: item.position });
  });
  let snapshot: string | null = null;
  let written = 0;
  const blocks = additionBlocks(valid, MAX_ITEMS_PER_REQUEST);
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    const body: Record<string, unknown> = { uris: block.items.map((item) => item.uri) };
    if (block.position !== null) body['position'] = block.position;
    try {
      const answer = await spotifyRequest(ctx, { method: 'POST', path: `/playlists/${id}/items`, body, what: 'adding tracks to the playlist', missing: 'playlist', ownerOnly: true });
      snapshot = snapshotOf(answer) ?? snapshot;
      written += block.items.length;
      block.items.forEach((item, offset) => {
        results[item.index] = { uri: input.items[item.index]!.uri, ok: true, position: block.position === null ? null : block.position + offset };
      });
    } catch (error) {
      const typed = asPluginError(error);
      if (written === 0) throw typed;
      // Later blocks are not attempted: the playlist's state after a failure must be read first.
      for (const rest of blocks.slice(b)) for (const item of rest.items) results[item.index] = failure(input.items[item.index]!.uri, typed, item.position);
      break;
    }
  }
  return { results: results.map((result, index) => result ?? failure(input.items[index]!.uri, new ProviderError('not attempted'))), snapshot_id: snapshot };
}

/**
 * Removes by URI. The current endpoint takes URIs only (no positions), and Spotify removes every
 * occurrence of each URI; `snapshot_id` pins the version the caller looked at.
 */
export async function removeTracks(input: OperationInput<'removeTracks'>, ctx: ProviderContext): Promise<OperationReturn<'removeTracks'>> {
  const id = requirePlaylistId(input.playlist_id);
  const results: (BatchResult | null)[] = input.items.map(() => null);
  const valid: { index: number; uri: string }[] = [];
  input.items.forEach((item, index) => {
    const checked = itemUri(item.uri);
    if ('error' in checked) results[index] = failure(item.uri, checked.error, item.position);
    else valid.push({ index, uri: checked.uri });
  });
  let snapshot = input.snapshot_id;
  let removed = 0;
  const batches = chunks(valid, MAX_ITEMS_PER_REQUEST);
  for (let b = 0; b < batches.length; b++) {
    const batch = batches[b]!;
    const body: Record<string, unknown> = { items: [...new Set(batch.map((item) => item.uri))].map((uri) => ({ uri })) };
    if (snapshot !== null) body['snapshot_id'] = snapshot;
    try {
      const answer = await spotifyRequest(ctx, { method: 'DELETE', path: `/playlists/${id}/items`, body, what: 'removing tracks from the playlist', missing: 'playlist', ownerOnly: true });
      snapshot = snapshotOf(answer) ?? snapshot;
      removed += batch.length;
      for (const item of batch) results[item.index] = { uri: input.items[item.index]!.uri, ok: true, position: input.items[item.index]!.position };
    } catch (error) {
      const typed = asPluginError(error);
      if (removed === 0) throw typed;
      for (const rest of batches.slice(b)) for (const item of rest) results[item.index] = failure(input.items[item.index]!.uri, typed, input.items[item.index]!.position);
      break;
    }
  }
  return { results: results.map((result, index) => result ?? failure(input.items[index]!.uri, new ProviderError('not attempted'))), snapshot_id: snapshot };
}

/**
 * Mirror: the first 100 URIs replace the contents in one request, the rest are appended. Not
 * atomic across requests: if an append fails, the playlist holds the first part; the error says so.
 */
export async function replacePlaylistTracks(input: OperationInput<'replacePlaylistTracks'>, ctx: ProviderContext): Promise<OperationReturn<'replacePlaylistTracks'>> {
  const id = requirePlaylistId(input.playlist_id);
  const uris = input.uris.map((value) => {
    const checked = itemUri(value);
    if ('error' in checked) throw new InvalidInput(`Cannot mirror into Spotify: ${checked.error.message} (${value.slice(0, 100)})`);
    return checked.uri;
  });
  const [first = [], ...rest] = chunks(uris, MAX_ITEMS_PER_REQUEST);
  let snapshot = snapshotOf(await spotifyRequest(ctx, { method: 'PUT', path: `/playlists/${id}/items`, body: { uris: first }, what: "replacing the playlist's items", missing: 'playlist', ownerOnly: true }));
  let written = first.length;
  for (const batch of rest) {
    try {
      snapshot = snapshotOf(await spotifyRequest(ctx, { method: 'POST', path: `/playlists/${id}/items`, body: { uris: batch }, what: "appending the rest of the playlist's items", missing: 'playlist', ownerOnly: true })) ?? snapshot;
    } catch (error) {
      const typed = asPluginError(error);
      // Same type (a rate limit stays a rate limit), with the partial state in words.
      throw pluginErrorFromData({ ...typed.toData(), message: `The mirror stopped after ${written} of ${uris.length} items were written: ${typed.message}` });
    }
    written += batch.length;
  }
  return { snapshot_id: snapshot };
}

/**
 * Reorder (`PUT …/items` with `range_start`, `insert_before`, `range_length`): the entries keep
 * their added-at dates and followers are not notified, unlike a replacement.
 */
export async function moveTracks(input: OperationInput<'moveTracks'>, ctx: ProviderContext): Promise<OperationReturn<'moveTracks'>> {
  const id = requirePlaylistId(input.playlist_id);
  const body: Record<string, unknown> = { range_start: input.range_start, insert_before: input.insert_before, range_length: input.range_length };
  if (input.snapshot_id !== null) body['snapshot_id'] = input.snapshot_id;
  const answer = await spotifyRequest(ctx, { method: 'PUT', path: `/playlists/${id}/items`, body, what: "moving the playlist's items", missing: 'playlist', ownerOnly: true });
  return { snapshot_id: snapshotOf(answer) ?? input.snapshot_id };
}

/** Unfollowing is removing the playlist from the library; the playlist itself stays on Spotify. */
export async function unfollowPlaylist(input: OperationInput<'unfollowPlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'unfollowPlaylist'>> {
  const id = requirePlaylistId(input.playlist_id);
  await spotifyRequest(ctx, { method: 'DELETE', path: `/me/library?uris=${encodeURIComponent(`spotify:playlist:${id}`)}`, what: 'removing the playlist from the library', missing: 'playlist' });
  return { ok: true };
}

/** The operations of this file, as the plugin definition takes them. */
export const playlistWrites = { createPlaylist, addTracks, removeTracks, moveTracks, replacePlaylistTracks, unfollowPlaylist } satisfies ProviderOperations;
