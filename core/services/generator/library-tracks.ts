import { trackSchema } from '@opl/plugin-sdk/schemas';
import type { SqlStatement } from '../../storage/sql/executors.ts';
import type { SqlExecutor } from '../matching/index.ts';
import type { SnapshotService } from '../snapshots/index.ts';
import type { GeneratorControls } from './generation-request.ts';
import { LIBRARY_OFFER, newSeed, sampleLibrary, type LibrarySources, type LibraryTrack, type OfferedTrack } from './library-offer.ts';

/**
 * The listener's own tracks, read locally for library-grounded generation: the cached playlist
 * reads of the owner's connected accounts (what the engine already read from them; nothing is
 * fetched for this), the owner's imports, and the owner's most recent verified snapshots. Every
 * statement filters by the owner, so another owner's library is never offered. Reading is capped
 * (`LIBRARY_OFFER.maxScanned` tracks, `LIBRARY_OFFER.maxSnapshots` archives).
 */

/** Tracks of the owner's cached playlist reads, each with its account's provider. */
export function selectCachedLibraryTracks(ownerId: string, accountIds: readonly string[] | null, limit: number): SqlStatement {
  return {
    text: `select a.provider, t.value as track
             from playlist_cache c
             join provider_account a on a.id = c.provider_account_id and a.owner_id = c.owner_id
             cross join lateral jsonb_array_elements(case when jsonb_typeof(c.payload->'tracks') = 'array' then c.payload->'tracks' else '[]'::jsonb end) t
            where c.owner_id = ? and c.scope like 'playlist:%' and (?::uuid[] is null or a.id = any(?::uuid[]))
            limit ?`,
    values: [ownerId, accountIds, accountIds, limit],
  };
}

/** Tracks of the owner's imports (as stored: compact, the defaults left out). */
export function selectImportedLibraryTracks(ownerId: string, limit: number): SqlStatement {
  return {
    text: `select 'import' as provider, t.value as track
             from import_record r
             cross join lateral json_array_elements(case when json_typeof(r.playlists::json) = 'array' then r.playlists::json else '[]'::json end) p
             cross join lateral json_array_elements(case when json_typeof(p.value->'tracks') = 'array' then p.value->'tracks' else '[]'::json end) t
            where r.owner_id = ?
            limit ?`,
    values: [ownerId, limit],
  };
}

export type SnapshotReader = Pick<SnapshotService, 'snapshots' | 'collections'>;

function tracksOf(rows: Record<string, unknown>[], origin: LibraryTrack['origin']): LibraryTrack[] {
  const tracks: LibraryTrack[] = [];
  for (const row of rows) {
    const parsed = trackSchema.safeParse(typeof row['track'] === 'string' ? JSON.parse(row['track']) : row['track']);
    // Local files and podcast episodes are not songs a target can have.
    if (!parsed.success || parsed.data.is_local) continue;
    tracks.push({ provider: String(row['provider']), origin, track: parsed.data });
  }
  return tracks;
}

async function snapshotTracks(snapshots: SnapshotReader, ownerId: string, room: number): Promise<LibraryTrack[]> {
  const done = (await snapshots.snapshots(ownerId)).filter((view) => (view.status === 'completed' || view.status === 'partial') && view.collections.length > 0).slice(0, LIBRARY_OFFER.maxSnapshots);
  const tracks: LibraryTrack[] = [];
  for (const view of done) {
    if (tracks.length >= room) break;
    const ids = view.collections.filter((collection) => collection.status !== 'failed').map((collection) => collection.restore_id);
    const read = await snapshots.collections(ownerId, view.id, ids).catch(() => null);
    for (const collection of read?.collections ?? []) {
      const sourceId = view.collections.find((entry) => entry.restore_id === collection.id)?.source_id;
      const provider = (view.sources as readonly { id?: string; provider?: string }[]).find((source) => source.id === sourceId)?.provider ?? 'snapshot';
      for (const track of collection.tracks ?? []) {
        const parsed = trackSchema.safeParse(track);
        if (parsed.success && !parsed.data.is_local) tracks.push({ provider, origin: 'snapshot', track: parsed.data });
      }
    }
  }
  return tracks.slice(0, room);
}

/** The owner's library tracks from the chosen sources, at most `LIBRARY_OFFER.maxScanned`. */
export async function readLibraryTracks(execute: SqlExecutor, snapshots: SnapshotReader | null, ownerId: string, sources: LibrarySources): Promise<LibraryTrack[]> {
  const tracks: LibraryTrack[] = [];
  const room = () => LIBRARY_OFFER.maxScanned - tracks.length;
  if (sources.connections) tracks.push(...tracksOf(await execute(selectCachedLibraryTracks(ownerId, sources.account_ids ?? null, room())), 'connection'));
  if (sources.imports && room() > 0) tracks.push(...tracksOf(await execute(selectImportedLibraryTracks(ownerId, room())), 'import'));
  if (sources.snapshots && snapshots && room() > 0) tracks.push(...(await snapshotTracks(snapshots, ownerId, room())));
  return tracks;
}

/**
 * The offer of one library-grounded request: the owner's tracks from the chosen sources, sampled
 * with the request's seed (a new one when it brought none), without the songs in `exclude` (the
 * kept songs when only open slots are regenerated). What the draft records of it: the mode, the
 * sources, the seed and how many tracks were offered out of how many read — never the list.
 */
export async function offerLibrary(
  execute: SqlExecutor,
  snapshots: SnapshotReader | null,
  ownerId: string,
  sources: LibrarySources,
  controls: GeneratorControls,
  exclude: ReadonlySet<string> = new Set(),
): Promise<{ offered: OfferedTrack[]; record: Record<string, unknown> }> {
  const seed = sources.seed ?? newSeed();
  const tracks = await readLibraryTracks(execute, snapshots, ownerId, sources);
  const offered = sampleLibrary(tracks, controls, seed, { exclude });
  return { offered, record: { mode: 'library', sources: { ...sources, seed }, library_tracks_read: tracks.length, offered: offered.length, offer_cap: LIBRARY_OFFER.maxOffered } };
}
