import { InvalidInput, PluginError, ProviderError, Unsupported, type OperationInput, type OperationReturn, type ProviderContext, type ProviderOperations } from '@opl/plugin-sdk';
import { innertube } from './innertube-client.ts';
import { nonEmpty, record, records, type JsonRecord } from './json-read.ts';
import { readAllEntries, readPlaylistHeader, requirePlaylistId } from './playlist-reads.ts';
import { additionBlocks, chunks, MAX_ACTIONS_PER_EDIT, type AdditionInput } from './write-batches.ts';
import { playlistUri, videoIdOf } from './ytmusic-uri.ts';

/**
 * Playlist writes: create (`playlist/create`), add (`browse/edit_playlist` ACTION_ADD_VIDEO, then
 * ACTION_MOVE_VIDEO_BEFORE for positioned items), move entries (ACTION_MOVE_VIDEO_BEFORE), remove
 * by each occurrence's `setVideoId` (ACTION_REMOVE_VIDEO) and delete (`playlist/delete`, only after a live read shows the account
 * owns the playlist).
 *
 * Failure rule for multi-request writes: when the first request fails nothing was applied and the
 * typed error is thrown; when a later one fails, the results say which items were written and
 * which were not, so the engine never mistakes a partial write for none.
 */

type BatchResult = OperationReturn<'addTracks'>['results'][number];

export const TITLE_MAX = 150;
export const DESCRIPTION_MAX = 5000;

function failure(uri: string, error: PluginError, position: number | null = null): BatchResult {
  return { uri, ok: false, position, error: { type: error.type, message: error.message } };
}

function asPluginError(error: unknown): PluginError {
  return error instanceof PluginError ? error : new ProviderError('The YouTube Music plugin failed unexpectedly while writing.');
}

/** YouTube refuses `<` and `>` in playlist titles and descriptions. */
export function cleanText(value: string, max: number): string {
  return [...value.replace(/[<>]/g, '').replace(/[\r\n\t]+/g, ' ').trim()].slice(0, max).join('');
}

export async function createPlaylist(input: OperationInput<'createPlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'createPlaylist'>> {
  const title = cleanText(input.name, TITLE_MAX);
  if (title === '') throw new InvalidInput('A YouTube Music playlist needs a title other than "<" and ">" characters.');
  const body: JsonRecord = { title, description: input.description === null ? '' : cleanText(input.description, DESCRIPTION_MAX), privacyStatus: input.public ? 'PUBLIC' : 'PRIVATE' };
  const answer = await innertube(ctx, { endpoint: 'playlist/create', body, what: 'creating the playlist', write: true });
  const id = nonEmpty(answer['playlistId']);
  if (!id) throw new ProviderError('YouTube Music created the playlist but its answer carried no playlist id; list the playlists to find it.');
  return { playlist_id: id, uri: playlistUri(id), snapshot_id: null };
}

/** An edit's outcome: `STATUS_SUCCEEDED` with one result per added video, or a refusal. */
export function editSucceeded(answer: JsonRecord): boolean {
  return typeof answer['status'] === 'string' && answer['status'].includes('SUCCEEDED');
}

/** The `setVideoId`s of the added entries, in the order of the add actions. */
export function addedSetVideoIds(answer: JsonRecord): (string | null)[] {
  return records(answer['playlistEditResults']).map((result) => nonEmpty(record(result['playlistEditVideoAddedResultData'])?.['setVideoId']));
}

async function edit(ctx: ProviderContext, playlistId: string, actions: JsonRecord[], what: string): Promise<JsonRecord> {
  const answer = await innertube(ctx, { endpoint: 'browse/edit_playlist', body: { playlistId, actions }, what, missing: 'playlist', ownerOnly: true, write: true });
  if (!editSucceeded(answer)) throw new InvalidInput(`YouTube Music did not accept ${what} (nothing was changed).`);
  return answer;
}

export async function addTracks(input: OperationInput<'addTracks'>, ctx: ProviderContext): Promise<OperationReturn<'addTracks'>> {
  const id = requirePlaylistId(input.playlist_id);
  const results: (BatchResult | null)[] = input.items.map(() => null);
  const valid: AdditionInput[] = [];
  input.items.forEach((item, index) => {
    const videoId = videoIdOf(item.uri);
    if (videoId === null) results[index] = failure(item.uri, new InvalidInput('Not a YouTube Music song or video link.'), item.position);
    else valid.push({ index, videoId, position: item.position });
  });
  let written = 0;
  const blocks = additionBlocks(valid, MAX_ACTIONS_PER_EDIT);
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    try {
      // The entry now at the block's position: the added entries are moved in front of it.
      const successor = block.position === null ? null : ((await readAllEntries(ctx, id))[block.position]?.setVideoId ?? null);
      // DEDUPE_OPTION_SKIP: add even when the video is already in the playlist (duplicates are wanted).
      const actions = block.items.map((item) => ({ action: 'ACTION_ADD_VIDEO', addedVideoId: item.videoId, dedupeOption: 'DEDUPE_OPTION_SKIP' }));
      const setVideoIds = addedSetVideoIds(await edit(ctx, id, actions, 'adding songs to the playlist'));
      written += block.items.length;
      let moveError: PluginError | null = null;
      const moves = setVideoIds.filter((value): value is string => value !== null).map((setVideoId) => ({ action: 'ACTION_MOVE_VIDEO_BEFORE', setVideoId, movedSetVideoIdSuccessor: successor }));
      if (successor !== null && moves.length > 0) {
        try {
          await edit(ctx, id, moves, 'moving the added songs into place');
        } catch (error) {
          moveError = asPluginError(error);
        }
      }
      block.items.forEach((item, offset) => {
        const uri = input.items[item.index]!.uri;
        const position = block.position === null ? null : block.position + offset;
        const targetItemId = setVideoIds[offset] ?? null;
        results[item.index] = moveError
          ? { uri, ok: false, target_item_id: targetItemId, position, error: { type: moveError.type, message: `Added to the end of the playlist, but not moved to position ${position}: ${moveError.message}` } }
          : { uri, ok: true, target_item_id: targetItemId, position };
      });
    } catch (error) {
      const typed = asPluginError(error);
      if (written === 0) throw typed;
      for (const rest of blocks.slice(b)) for (const item of rest.items) results[item.index] = failure(input.items[item.index]!.uri, typed, item.position);
      break;
    }
  }
  return { results: results.map((result, index) => result ?? failure(input.items[index]!.uri, new ProviderError('not attempted'))), snapshot_id: null };
}

interface PlannedRemoval {
  readonly index: number;
  readonly videoId: string;
  readonly setVideoId: string;
}

/**
 * Removes entries by their `setVideoId` (one occurrence each, never every copy of a video). The
 * playlist is read first: an entry already gone counts as removed and is not sent again, so a
 * retry after a lost answer neither fails nor removes another occurrence.
 */
export async function removeTracks(input: OperationInput<'removeTracks'>, ctx: ProviderContext): Promise<OperationReturn<'removeTracks'>> {
  const id = requirePlaylistId(input.playlist_id);
  const entries = await readAllEntries(ctx, id);
  const bySetVideoId = new Map(entries.filter((entry) => entry.setVideoId !== null).map((entry) => [entry.setVideoId!, entry]));
  const results: (BatchResult | null)[] = input.items.map(() => null);
  const planned: PlannedRemoval[] = [];
  const claimed = new Set<string>();
  input.items.forEach((item, index) => {
    const videoId = videoIdOf(item.uri);
    if (videoId === null) {
      results[index] = failure(item.uri, new InvalidInput('Not a YouTube Music song or video link.'), item.position);
      return;
    }
    let setVideoId = item.target_item_id;
    if (setVideoId === null && item.position !== null && entries[item.position]?.videoId === videoId) setVideoId = entries[item.position]!.setVideoId;
    if (setVideoId === null) {
      results[index] = failure(item.uri, new InvalidInput('YouTube Music removes one occurrence by its entry id (setVideoId); read the playlist and pass the entry id or its current position.'), item.position);
      return;
    }
    const entry = bySetVideoId.get(setVideoId);
    if (!entry || claimed.has(setVideoId)) {
      // Already gone (or asked twice): nothing to send, and the entry is not in the playlist.
      results[index] = { uri: item.uri, ok: true, target_item_id: setVideoId, position: item.position };
      return;
    }
    if (entry.videoId !== videoId) {
      results[index] = failure(item.uri, new InvalidInput('That entry id belongs to a different song in this playlist; nothing was removed for it.'), item.position);
      return;
    }
    claimed.add(setVideoId);
    planned.push({ index, videoId, setVideoId });
  });
  let removed = 0;
  const batches = chunks(planned, MAX_ACTIONS_PER_EDIT);
  for (let b = 0; b < batches.length; b++) {
    const batch = batches[b]!;
    try {
      await edit(ctx, id, batch.map((item) => ({ action: 'ACTION_REMOVE_VIDEO', removedVideoId: item.videoId, setVideoId: item.setVideoId })), 'removing songs from the playlist');
      removed += batch.length;
      for (const item of batch) results[item.index] = { uri: input.items[item.index]!.uri, ok: true, target_item_id: item.setVideoId, position: input.items[item.index]!.position };
    } catch (error) {
      const typed = asPluginError(error);
      if (removed === 0) throw typed;
      for (const rest of batches.slice(b)) for (const item of rest) results[item.index] = failure(input.items[item.index]!.uri, typed, input.items[item.index]!.position);
      break;
    }
  }
  return { results: results.map((result, index) => result ?? failure(input.items[index]!.uri, new ProviderError('not attempted'))), snapshot_id: null };
}

/**
 * Moves entries within the playlist, keeping them (their `setVideoId`s): ACTION_MOVE_VIDEO_BEFORE
 * puts an entry right before another (`movedSetVideoIdSuccessor`), or at the end without one. The
 * caller's entry ids are used when it passes them (a single-entry move); otherwise the playlist is
 * read once to map positions to entries. The range moves in one edit, in its order.
 */
export async function moveTracks(input: OperationInput<'moveTracks'>, ctx: ProviderContext): Promise<OperationReturn<'moveTracks'>> {
  const id = requirePlaylistId(input.playlist_id);
  if (id === 'LM' || id === 'SE') throw new Unsupported('Liked Music and Episodes for Later are automatic YouTube Music playlists; their order cannot be changed.');
  let moved: string[];
  let successor: string | null;
  if (input.item_id !== null && input.range_length === 1) {
    moved = [input.item_id];
    successor = input.before_item_id;
  } else {
    const entries = await readAllEntries(ctx, id);
    const range = entries.slice(input.range_start, input.range_start + input.range_length);
    if (range.length !== input.range_length || input.insert_before > entries.length) throw new InvalidInput(`The playlist has ${entries.length} entries; positions ${input.range_start}–${input.range_start + input.range_length - 1} before ${input.insert_before} are outside it (nothing was moved).`);
    if (range.some((entry) => entry.setVideoId === null)) throw new Unsupported('An entry of that range carries no setVideoId, so YouTube Music cannot move it (nothing was moved).');
    moved = range.map((entry) => entry.setVideoId!);
    if (input.insert_before >= input.range_start && input.insert_before <= input.range_start + input.range_length) return { snapshot_id: null };
    successor = entries[input.insert_before]?.setVideoId ?? null;
  }
  const actions = moved.map((setVideoId) => (successor === null ? { action: 'ACTION_MOVE_VIDEO_BEFORE', setVideoId } : { action: 'ACTION_MOVE_VIDEO_BEFORE', setVideoId, movedSetVideoIdSuccessor: successor }));
  for (const batch of chunks(actions, MAX_ACTIONS_PER_EDIT)) await edit(ctx, id, batch, "moving the playlist's entries");
  return { snapshot_id: null };
}

/** Permanent deletion, only when a live read of the playlist shows the account owns it. */
export async function deletePlaylist(input: OperationInput<'deletePlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'deletePlaylist'>> {
  const id = requirePlaylistId(input.playlist_id);
  if (id === 'LM' || id === 'SE') throw new Unsupported('Liked Music and Episodes for Later are automatic YouTube Music playlists; they cannot be deleted.');
  const header = await readPlaylistHeader(ctx, id);
  if (!header.owned) throw new Unsupported('YouTube Music deletes only playlists the account owns; this one belongs to someone else, so it was left alone.');
  await innertube(ctx, { endpoint: 'playlist/delete', body: { playlistId: id }, what: 'deleting the playlist', missing: 'playlist', ownerOnly: true, write: true });
  return { ok: true };
}

/** The operations of this file, as the plugin definition takes them. */
export const playlistWrites = { createPlaylist, addTracks, removeTracks, moveTracks, deletePlaylist } satisfies ProviderOperations;
