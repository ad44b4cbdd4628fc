import { InvalidInput, PluginError, pluginErrorFromData, ProviderError, Unsupported, type OperationInput, type OperationReturn, type ProviderContext, type ProviderOperations } from '@opl/plugin-sdk';
import { deezerRequest, deezerWrite } from './deezer-client.ts';
import { DUPLICATE_MESSAGE, DuplicateTrack } from './deezer-errors.ts';
import { deezerUri, idFor } from './deezer-uri.ts';
import { idOf, record } from './json-read.ts';
import { allTrackIds, currentUser, fullPlaylist, requirePlaylistId } from './playlist-reads.ts';
import { chunks, mirrorPlan, planAdditions, type AdditionInput } from './write-plan.ts';

/**
 * Playlist writes: create (`POST /user/me/playlists?title=`, then description and visibility
 * through `POST /playlist/{id}`), add (`POST /playlist/{id}/tracks?songs=`, ≤ 50 ids, appended),
 * reorder (`…/tracks?order=` with the complete order), remove by track id (`DELETE …/tracks`),
 * mirror, delete (creator only) and remove a followed playlist from the library.
 *
 * Failure rule for multi-request writes: when the first request fails nothing was applied and the
 * typed error is thrown; when a later one fails, the results say which items were written and
 * which were not (with the error), so the engine never mistakes a partial write for none.
 */

type BatchResult = OperationReturn<'addTracks'>['results'][number];

/** Songs per add or remove request. */
export const MAX_SONGS_PER_REQUEST = 50;

function failure(uri: string, error: PluginError, position: number | null = null): BatchResult {
  return { uri, ok: false, position, error: { type: error.type, message: error.message } };
}

function asPluginError(error: unknown): PluginError {
  return error instanceof PluginError ? error : new ProviderError('The Deezer plugin failed unexpectedly while writing.');
}

/** A track id for the playlist endpoints, or the per-item refusal. */
export function trackIdOf(value: string): { id: string } | { error: PluginError } {
  const id = idFor('track', value);
  return id ? { id } : { error: new InvalidInput('Not a Deezer track URI or link.') };
}

export async function createPlaylist(input: OperationInput<'createPlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'createPlaylist'>> {
  const created = record(await deezerRequest(ctx, { method: 'POST', path: '/user/me/playlists', query: { title: input.name }, what: 'creating the playlist' }));
  const id = idOf(created?.['id']);
  if (!id) throw new ProviderError('Deezer created the playlist but its answer carried no playlist id; list the playlists to find it.');
  // Deezer creates playlists public and without a description; both are set in a second request.
  const update: Record<string, string> = {};
  const description = input.description?.trim() ?? '';
  if (description !== '') update['description'] = description;
  if (!input.public) update['public'] = 'false';
  if (Object.keys(update).length > 0) {
    try {
      await deezerWrite(ctx, { method: 'POST', path: `/playlist/${id}`, query: update, what: "setting the new playlist's description and visibility", missing: 'playlist' });
    } catch (error) {
      // The playlist exists: reporting failure would make the engine create it again.
      ctx.log.warn('the playlist was created, but its description or visibility could not be set', { playlist_id: id, error: asPluginError(error).type });
    }
  }
  return { playlist_id: id, uri: deezerUri('playlist', id), snapshot_id: null };
}

export async function addTracks(input: OperationInput<'addTracks'>, ctx: ProviderContext): Promise<OperationReturn<'addTracks'>> {
  const id = requirePlaylistId(input.playlist_id);
  const results: (BatchResult | null)[] = input.items.map(() => null);
  const valid: AdditionInput[] = [];
  input.items.forEach((item, index) => {
    const checked = trackIdOf(item.uri);
    if ('error' in checked) results[index] = failure(item.uri, checked.error, item.position);
    else valid.push({ index, trackId: checked.id, position: item.position });
  });
  if (valid.length === 0) return { results: results.map((result, index) => result ?? failure(input.items[index]!.uri, new ProviderError('not attempted'))), snapshot_id: null };

  const plan = planAdditions(await allTrackIds(ctx, id), valid);
  for (const index of plan.duplicates) results[index] = failure(input.items[index]!.uri, new DuplicateTrack(), input.items[index]!.position);
  let written = 0;
  const batches = chunks(plan.append, MAX_SONGS_PER_REQUEST);
  for (let b = 0; b < batches.length; b++) {
    const batch = batches[b]!;
    try {
      await deezerWrite(ctx, { method: 'POST', path: `/playlist/${id}/tracks`, query: { songs: batch.map((item) => item.trackId).join(',') }, what: 'adding tracks to the playlist', missing: 'playlist', ownerOnly: true });
    } catch (error) {
      const typed = asPluginError(error);
      if (written === 0) throw typed;
      // Later batches are not attempted: the playlist's state after a failure must be read first.
      for (const rest of batches.slice(b)) for (const item of rest) results[item.index] = failure(input.items[item.index]!.uri, typed, item.position);
      break;
    }
    written += batch.length;
    for (const item of batch) results[item.index] = { uri: input.items[item.index]!.uri, ok: true, position: plan.appendedAt.get(item.index) ?? null };
  }

  const appendedAll = written === plan.append.length;
  let placed = false;
  if (appendedAll && plan.order !== null) {
    try {
      await deezerWrite(ctx, { method: 'POST', path: `/playlist/${id}/tracks`, query: { order: plan.order.join(',') }, what: 'moving the added tracks into place', missing: 'playlist', ownerOnly: true });
      placed = true;
    } catch (error) {
      // The tracks are in the playlist, at its end: their results say where they actually are.
      ctx.log.warn('the tracks were added at the end; moving them into place failed', { error: asPluginError(error).type });
    }
  }
  if (appendedAll) {
    for (const item of plan.append) {
      const position = plan.order === null || placed ? plan.positions.get(item.index)! : plan.appendedAt.get(item.index)!;
      results[item.index] = { uri: input.items[item.index]!.uri, ok: true, position };
    }
  }
  return { results: results.map((result, index) => result ?? failure(input.items[index]!.uri, new ProviderError('not attempted'))), snapshot_id: null };
}

/**
 * Removes by track id: Deezer removes the track wherever it is (a playlist holds it once), so
 * positions and the snapshot id the caller saw do not change what is removed.
 */
export async function removeTracks(input: OperationInput<'removeTracks'>, ctx: ProviderContext): Promise<OperationReturn<'removeTracks'>> {
  const id = requirePlaylistId(input.playlist_id);
  const results: (BatchResult | null)[] = input.items.map(() => null);
  const valid: { index: number; trackId: string }[] = [];
  input.items.forEach((item, index) => {
    const checked = trackIdOf(item.uri);
    if ('error' in checked) results[index] = failure(item.uri, checked.error, item.position);
    else valid.push({ index, trackId: checked.id });
  });
  let removed = 0;
  const batches = chunks(valid, MAX_SONGS_PER_REQUEST);
  for (let b = 0; b < batches.length; b++) {
    const batch = batches[b]!;
    try {
      await deezerWrite(ctx, { method: 'DELETE', path: `/playlist/${id}/tracks`, query: { songs: [...new Set(batch.map((item) => item.trackId))].join(',') }, what: 'removing tracks from the playlist', missing: 'playlist', ownerOnly: true });
    } catch (error) {
      const typed = asPluginError(error);
      if (removed === 0) throw typed;
      for (const rest of batches.slice(b)) for (const item of rest) results[item.index] = failure(input.items[item.index]!.uri, typed, input.items[item.index]!.position);
      break;
    }
    removed += batch.length;
    for (const item of batch) results[item.index] = { uri: input.items[item.index]!.uri, ok: true, position: input.items[item.index]!.position };
  }
  return { results: results.map((result, index) => result ?? failure(input.items[index]!.uri, new ProviderError('not attempted'))), snapshot_id: null };
}

/**
 * Mirror: remove what should go, append what is missing, then set the complete order. Not atomic
 * across requests: if a step fails, the error says how far it got.
 */
export async function replacePlaylistTracks(input: OperationInput<'replacePlaylistTracks'>, ctx: ProviderContext): Promise<OperationReturn<'replacePlaylistTracks'>> {
  const id = requirePlaylistId(input.playlist_id);
  const desired = input.uris.map((value) => {
    const checked = trackIdOf(value);
    if ('error' in checked) throw new InvalidInput(`Cannot mirror into Deezer: ${checked.error.message} (${value.slice(0, 100)})`);
    return checked.id;
  });
  if (new Set(desired).size !== desired.length) throw new InvalidInput(`Cannot mirror into Deezer: ${DUPLICATE_MESSAGE} Remove the repeated tracks from the list first.`);
  const plan = mirrorPlan(await allTrackIds(ctx, id), desired);
  const steps = [
    ...chunks(plan.remove, MAX_SONGS_PER_REQUEST).map((songs) => ({ method: 'DELETE' as const, query: { songs: songs.join(',') }, what: 'removing tracks from the playlist' })),
    ...chunks(plan.append, MAX_SONGS_PER_REQUEST).map((songs) => ({ method: 'POST' as const, query: { songs: songs.join(',') }, what: 'adding tracks to the playlist' })),
    ...(plan.order ? [{ method: 'POST' as const, query: { order: plan.order.join(',') }, what: 'putting the playlist in order' }] : []),
  ];
  for (let step = 0; step < steps.length; step++) {
    const { method, query, what } = steps[step]!;
    try {
      await deezerWrite(ctx, { method, path: `/playlist/${id}/tracks`, query, what, missing: 'playlist', ownerOnly: true });
    } catch (error) {
      const typed = asPluginError(error);
      if (step === 0) throw typed;
      throw pluginErrorFromData({ ...typed.toData(), message: `The mirror stopped after ${step} of ${steps.length} requests: ${typed.message}` });
    }
  }
  return { snapshot_id: null };
}

async function ownership(ctx: ProviderContext, id: string): Promise<{ owned: boolean; loved: boolean }> {
  const me = await currentUser(ctx);
  const playlist = await fullPlaylist(ctx, id);
  return { owned: idOf(record(playlist['creator'])?.['id']) === me.id, loved: playlist['is_loved_track'] === true };
}

/** Deletes a playlist the account created; Deezer lets no one else delete it. */
export async function deletePlaylist(input: OperationInput<'deletePlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'deletePlaylist'>> {
  const id = requirePlaylistId(input.playlist_id);
  const { owned, loved } = await ownership(ctx, id);
  if (loved) throw new Unsupported('The Loved Tracks playlist is Deezer’s favourites collection; it cannot be deleted.');
  if (!owned) throw new Unsupported('Only the creator of a Deezer playlist can delete it; remove it from the library instead.');
  await deezerWrite(ctx, { method: 'DELETE', path: `/playlist/${id}`, what: 'deleting the playlist', missing: 'playlist', ownerOnly: true });
  return { ok: true };
}

/** Removes someone else's playlist from the library (favourites); the playlist itself stays. */
export async function unfollowPlaylist(input: OperationInput<'unfollowPlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'unfollowPlaylist'>> {
  const id = requirePlaylistId(input.playlist_id);
  const { owned } = await ownership(ctx, id);
  if (owned) throw new Unsupported('This Deezer playlist is the account’s own: it leaves the library only by being deleted.');
  await deezerWrite(ctx, { method: 'DELETE', path: '/user/me/playlists', query: { playlist_id: id }, what: 'removing the playlist from the library', missing: 'playlist' });
  return { ok: true };
}

/** The operations of this file, as the plugin definition takes them. */
export const playlistWrites = { createPlaylist, addTracks, removeTracks, replacePlaylistTracks, unfollowPlaylist, deletePlaylist } satisfies ProviderOperations;
