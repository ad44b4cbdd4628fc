import { InvalidInput, type OperationInput, type OperationReturn, type ProviderContext } from '@opl/plugin-sdk';
import { chunk } from './batch-plan.ts';
import { asIdentifier } from './json-api-document.ts';
import { idempotencyKey } from './idempotency-key.ts';
import { readEntryLayout } from './playlist-read.operations.ts';
import { getDocument, query, segment, send } from './tidal-client.ts';
import { parseTidalUri } from './tidal-uris.ts';

/**
 * Moving entries inside a playlist (`PATCH /playlists/{id}/relationships/items`): the entries,
 * named by their item ids, go right before another entry (`meta.positionBefore`), 20 per request.
 * They stay the same entries (item ids and added-at dates kept): no removal and re-add.
 *
 * TIDAL can only place entries *before* an entry, so a move to the end is two moves: the entries go
 * before the last entry, then the last entry goes before them.
 */

/** The most entries one move request may carry (TIDAL's limit for this payload). */
export const MAX_MOVE_BATCH = 20;

interface Entry {
  readonly id: string;
  readonly type: string;
  readonly itemId: string;
}

/** The entry the caller names by id and song, where it gave both for a single-entry move. */
function namedEntry(input: OperationInput<'moveTracks'>): Entry | null {
  if (input.item_id === null || input.range_length !== 1 || input.item_uri === null) return null;
  const ref = parseTidalUri(input.item_uri);
  if (!ref || (ref.entity !== 'track' && ref.entity !== 'video')) return null;
  return { id: ref.id, type: ref.entity === 'track' ? 'tracks' : 'videos', itemId: input.item_id };
}

/** The playlist's last entry: the first of its items sorted by descending index (one request). */
async function lastEntry(ctx: ProviderContext, playlistId: string): Promise<Entry | null> {
  const document = await getDocument(ctx, `/playlists/${segment(playlistId)}/relationships/items${query({ sort: '-itemIndex' })}`, 'reading the last entry of a playlist');
  const identifier = asIdentifier(document.data[0]);
  const itemId = identifier?.meta['itemId'];
  return identifier && typeof itemId === 'string' ? { id: identifier.id, type: identifier.type, itemId } : null;
}

export async function moveTracks(input: OperationInput<'moveTracks'>, ctx: ProviderContext): Promise<OperationReturn<'moveTracks'>> {
  const playlistId = input.playlist_id;
  // The key names the playlist version the caller looked at (TIDAL's `lastModifiedAt`): a lost
  // answer's retry is replayed, while the same move asked for again after the playlist changed is
  // a new write and not a replay of the old one (TIDAL replays a key for an hour).
  const send20 = async (moved: readonly Entry[], positionBefore: string): Promise<void> => {
    for (const [index, batch] of chunk(moved, MAX_MOVE_BATCH).entries()) {
      await send(ctx, {
        method: 'PATCH',
        path: `/playlists/${segment(playlistId)}/relationships/items`,
        body: { data: batch.map((entry) => ({ id: entry.id, type: entry.type, meta: { itemId: entry.itemId } })), meta: { positionBefore } },
        idempotencyKey: idempotencyKey(['moveTracks', playlistId, input.snapshot_id, batch.map((entry) => entry.itemId), positionBefore, index]),
        what: "moving the playlist's entries",
      });
    }
  };

  let moved: Entry[];
  let before: string | null;
  const named = namedEntry(input);
  if (named) {
    moved = [named];
    before = input.before_item_id;
  } else {
    const layout = await readEntryLayout(ctx, playlistId);
    const range = layout.slice(input.range_start, input.range_start + input.range_length);
    if (range.length !== input.range_length || input.insert_before > layout.length) {
      throw new InvalidInput(`The playlist has ${layout.length} entries; positions ${input.range_start}–${input.range_start + input.range_length - 1} before ${input.insert_before} are outside it (nothing was moved).`);
    }
    if (input.insert_before >= input.range_start && input.insert_before <= input.range_start + input.range_length) return { snapshot_id: null };
    moved = range;
    before = layout[input.insert_before]?.itemId ?? null;
  }
  if (before !== null) {
    await send20(moved, before);
    return { snapshot_id: null };
  }
  const last = await lastEntry(ctx, playlistId);
  if (!last) throw new InvalidInput('The playlist is empty: there is nothing to move (nothing was moved).');
  // The entry to move is the last one already: it is at the end.
  if (moved.some((entry) => entry.itemId === last.itemId)) return { snapshot_id: null };
  await send20(moved, last.itemId);
  await send20([last], moved[0]!.itemId);
  return { snapshot_id: null };
}
