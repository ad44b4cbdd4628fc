/**
 * The snapshot history calls of the Snapshots page: a track-level diff (two snapshots, or a
 * snapshot's playlist against the live one) and a rewind ("this playlist as it was at a time",
 * written back into the same playlist): its preview, then the rewind with the removals confirmed.
 */

export interface DiffSong {
  readonly title: string;
  readonly artist: string;
}

export interface CollectionDiff {
  readonly key: string;
  readonly name: string;
  readonly status: string;
  readonly counts: { readonly added: number; readonly removed: number; readonly moved: number; readonly unchanged: number };
  readonly added: readonly { readonly position: number; readonly track: DiffSong }[];
  readonly removed: readonly { readonly position: number; readonly track: DiffSong }[];
  readonly moved: readonly { readonly from: number; readonly to: number; readonly track: DiffSong }[];
  readonly truncated: boolean;
}

export interface SnapshotDiff {
  readonly toLive: boolean;
  readonly collections: readonly CollectionDiff[];
}

export interface RewindPreview {
  readonly snapshotId: string;
  readonly snapshotCreatedAt: string;
  readonly playlistName: string;
  readonly itemCount: number;
  readonly method: 'none' | 'edit' | 'replace';
  readonly counts: { readonly remove: number; readonly move: number; readonly add: number; readonly result: number; readonly unrestorable: number };
  readonly remove: readonly (DiffSong & { readonly positions: readonly number[] })[];
  readonly move: readonly (DiffSong & { readonly from: number; readonly to: number })[];
  readonly add: readonly (DiffSong & { readonly position: number })[];
  readonly unrestorable: readonly DiffSong[];
}

export interface RewindTargetInput {
  readonly accountId: string;
  readonly playlistId: string;
  /** ISO time. */
  readonly at: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const number = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const string = (value: unknown): string => (typeof value === 'string' ? value : '');
const song = (value: unknown): DiffSong => (isRecord(value) ? { title: string(value['title']), artist: string(value['artist']) } : { title: '', artist: '' });

export function diffPath(olderId: string, against: string, restoreId: string | null): string {
  const query = new URLSearchParams({ against });
  return restoreId ? `/api/snapshots/${olderId}/collections/${encodeURIComponent(restoreId)}/diff?${query}` : `/api/snapshots/${olderId}/diff?${query}`;
}

export function parseDiff(data: unknown): SnapshotDiff | undefined {
  if (!isRecord(data) || !Array.isArray(data['collections']) || !isRecord(data['to'])) return undefined;
  return {
    toLive: data['to']['snapshot_id'] === null,
    collections: data['collections'].filter(isRecord).map((entry) => {
      const counts = isRecord(entry['counts']) ? entry['counts'] : {};
      return {
        key: string(entry['key']),
        name: string(entry['name']),
        status: string(entry['status']),
        counts: { added: number(counts['added']), removed: number(counts['removed']), moved: number(counts['moved']), unchanged: number(counts['unchanged']) },
        added: list(entry['added']).filter(isRecord).map((item) => ({ position: number(item['position']), track: song(item['track']) })),
        removed: list(entry['removed']).filter(isRecord).map((item) => ({ position: number(item['position']), track: song(item['track']) })),
        moved: list(entry['moved']).filter(isRecord).map((item) => ({ from: number(item['from']), to: number(item['to']), track: song(item['track']) })),
        truncated: entry['truncated'] === true,
      };
    }),
  };
}

export function rewindPreviewPath(target: RewindTargetInput): string {
  return `/api/snapshots/rewind/preview?${new URLSearchParams({ account_id: target.accountId, playlist_id: target.playlistId, at: target.at })}`;
}

export const REWIND_PATH = '/api/snapshots/rewind';

export function rewindRequest(target: RewindTargetInput, confirmRemovals: number): Record<string, unknown> {
  return { account_id: target.accountId, playlist_id: target.playlistId, at: target.at, confirm_removals: confirmRemovals };
}

export function parseRewindPreview(data: unknown): RewindPreview | undefined {
  if (!isRecord(data) || !isRecord(data['snapshot']) || !isRecord(data['playlist']) || !isRecord(data['counts'])) return undefined;
  const method = data['method'];
  if (method !== 'none' && method !== 'edit' && method !== 'replace') return undefined;
  const counts = data['counts'];
  return {
    snapshotId: string(data['snapshot']['id']),
    snapshotCreatedAt: string(data['snapshot']['created_at']),
    playlistName: string(data['playlist']['name']),
    itemCount: number(data['playlist']['item_count']),
    method,
    counts: { remove: number(counts['remove']), move: number(counts['move']), add: number(counts['add']), result: number(counts['result']), unrestorable: number(counts['unrestorable']) },
    remove: list(data['remove']).filter(isRecord).map((item) => ({ ...song(item), positions: list(item['positions']).map(number) })),
    move: list(data['move']).filter(isRecord).map((item) => ({ ...song(item), from: number(item['from']), to: number(item['to']) })),
    add: list(data['add']).filter(isRecord).map((item) => ({ ...song(item), position: number(item['position']) })),
    unrestorable: list(data['unrestorable']).map(song),
  };
}

/** The rewind's outcome in a sentence. */
export function rewindOutcome(data: unknown): string {
  if (!isRecord(data)) return 'The rewind answered unexpectedly.';
  if (data['status'] === 'unchanged') return 'The playlist already was as it was then: nothing was written.';
  const writes = isRecord(data['writes']) ? number(data['writes']['calls']) : 0;
  return `The playlist is back as it was (${writes} ${writes === 1 ? 'change' : 'changes'} on the service, checked by reading it again). A snapshot of how it was just before is kept${typeof data['automatic_snapshot_id'] === 'string' ? ` (${data['automatic_snapshot_id'].slice(0, 8)})` : ''}.`;
}
