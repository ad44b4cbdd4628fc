import type { Playlist, Track } from '@opl/plugin-sdk';
import { playlistSchema, trackSchema, type ExportWarning } from '@opl/plugin-sdk/schemas';
import type { Execute } from '../migrations/migration-store.ts';
import type { JobRow } from '../migrations/migration-views.ts';
import { detailExpired } from '../migrations/migration-views.ts';
import { PLAYLIST_SNAPSHOTS_KEY } from '../migrations/playlist-snapshot.ts';
import { ExportError } from './export-error.ts';
import { clip, EXPORT_SLICE_TRACKS, IMPORT_SOURCE_PROVIDER, type ExportSource, type SourcePlaylist } from './export-source.ts';
import { countHistoryTracks, selectHistoryTracks } from './history-export.sql.ts';

export interface HistoryExportDependencies {
  /** The owner's job (throws the migration service's `not_found` for anyone else's or an unknown one). */
  job(ownerId: string, jobId: string): Promise<JobRow>;
  execute: Execute;
}

/** States after which a job's items no longer change. */
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** A selected source collection as the job keeps it (`selection.collections`). */
interface StoredCollection {
  id: string;
  kind?: string;
  name?: string;
  description?: string | null;
  total_tracks?: number;
  selected_tracks?: number;
}

/** Fields of a playlist-level snapshot that make a playlist's metadata complete enough to export. */
const SNAPSHOT_FIELDS = ['name', 'description', 'owner_id', 'owner_name', 'artwork_uri', 'created_at', 'updated_at', 'kind'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `spotify:track:…` ⇒ `spotify`; anything else has no provider key to file it under. */
function uriProvider(uri: string): string | null {
  return /^([a-z][a-z0-9_-]{0,39}):(track|episode|video):/.exec(uri)?.[1] ?? null;
}

/** A track rebuilt from the item's report columns, for items whose stored metadata is missing or invalid. */
function trackFromColumns(row: Record<string, unknown>, sourceProvider: string | null): Track {
  const text = (key: string) => (typeof row[key] === 'string' && row[key] !== '' ? (row[key]) : null);
  const number = (key: string) => (row[key] === null || row[key] === undefined ? null : Number(row[key]));
  const uri = text('source_uri');
  const key = uri ? (sourceProvider ?? uriProvider(uri)) : null;
  return trackSchema.parse({
    id: text('source_track_id'),
    title: text('title') ?? '',
    artist: text('artist') ?? '',
    album: text('album'),
    duration_s: number('duration_s'),
    isrc: text('isrc')?.slice(0, 32) ?? null,
    release_year: number('release_year'),
    explicit: typeof row['explicit'] === 'boolean' ? row['explicit'] : null,
    provider_uris: uri && key ? { [key]: uri } : {},
    metadata: uri && !key ? { source_uri: uri } : {},
    source_item_id: text('source_item_id'),
    position: number('position'),
    source_position: number('position'),
  });
}

function storedTrack(value: unknown): Track | null {
  const raw: unknown = typeof value === 'string' ? safeJson(value) : value;
  if (!isRecord(raw)) return null;
  const parsed = trackSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The playlist portion of a finished migration as an export source (SPEC "Export endpoints" rules
 * 4, 5, 8): tracks from the items' stored source metadata in source order, read from the database
 * a slice at a time as the format plugin writes them, playlist-level
 * metadata from the snapshot the job keeps in its selection data. Nothing is read from a
 * provider. Older jobs without a snapshot, and items whose metadata cannot be read, still
 * export, with `historical_playlist_metadata_partial` / `historical_track_metadata_partial`.
 */
export async function historyExportSource(deps: HistoryExportDependencies, ownerId: string, jobId: string): Promise<ExportSource> {
  const job = await deps.job(ownerId, jobId);
  if (!TERMINAL.has(job.status)) {
    throw new ExportError('migration_not_finished', `Migration ${jobId} is ${job.status.replace('_', ' ')}; export its playlists once it has finished (completed, failed or cancelled).`, { job_status: job.status });
  }
  const expired = (row: JobRow) =>
    new ExportError('detail_expired', `The item detail of migration ${jobId} was kept until ${row.detailExpiresAt ?? row.detailPurgedAt} and is gone, so its playlists can no longer be exported; its summary and report totals remain.`);
  if (detailExpired(job)) throw expired(job);
  const collections = (Array.isArray(job.selection['collections']) ? job.selection['collections'] : []).filter(
    (entry): entry is StoredCollection => isRecord(entry) && typeof entry['id'] === 'string',
  );
  if (collections.length === 0) {
    throw new ExportError('no_playlist_portion', `Migration ${jobId} moved no playlists or liked songs (only albums or artists): download its report instead (GET /api/migrations/${jobId}/report).`);
  }
  const snapshots = isRecord(job.selection[PLAYLIST_SNAPSHOTS_KEY]) ? (job.selection[PLAYLIST_SNAPSHOTS_KEY]) : {};
  // An import's tracks have no provider key of their own (their URIs say which provider, if any).
  const trackProvider = job.sourceKind === 'import' ? null : job.sourceProvider;
  const names = collections.map((collection) => ({ id: collection.id, name: typeof collection.name === 'string' ? collection.name : collection.id }));
  return {
    sourceProvider: job.sourceKind === 'import' ? IMPORT_SOURCE_PROVIDER : job.sourceProvider,
    archiveName: names.length === 1 ? names[0]!.name : `${names[0]!.name} and ${names.length - 1} more`,
    playlists: names,
    async read(id): Promise<SourcePlaylist> {
      const collection = collections.find((entry) => entry.id === id)!;
      const warnings: ExportWarning[] = [];
      const { playlist: base, complete } = playlistOf(collection, snapshots[id]);
      const label = `"${clip(base.name, 200)}"`;
      if (!complete) {
        warnings.push({ code: 'historical_playlist_metadata_partial', playlist_id: id, message: `Migration ${jobId} kept only part of ${label}'s details (an older job, or an unreadable snapshot); the export has its name and tracks but may lack its description, owner, artwork or dates.` });
      }
      const [counted] = await deps.execute(countHistoryTracks(job.id, id));
      const count = Number(counted?.['tracks'] ?? 0);
      // Cleanup may have deleted items since the check above: it deletes only once the deadline
      // has passed, and sets that deadline first, so a fresh look at the job after a read tells
      // whether the rows read so far can be trusted to be whole (never a file missing tracks, or
      // empty). Looked at after the count and again after the last slice.
      const stillKept = async () => {
        const now = await deps.job(ownerId, jobId);
        if (detailExpired(now)) throw expired(now);
      };
      await stillKept();
      async function* slices(): AsyncGenerator<readonly Track[]> {
        let rebuilt = 0;
        for (let offset = 0; offset < count; offset += EXPORT_SLICE_TRACKS) {
          const rows = await deps.execute(selectHistoryTracks(job.id, id, offset, EXPORT_SLICE_TRACKS));
          if (rows.length === 0) break;
          yield rows.map((row) => {
            const track = storedTrack(row['source_metadata']);
            if (track) return track;
            rebuilt += 1;
            return trackFromColumns(row, trackProvider);
          });
        }
        await stillKept();
        if (rebuilt > 0) {
          warnings.push({ code: 'historical_track_metadata_partial', playlist_id: id, count: rebuilt, message: `${rebuilt} track${rebuilt === 1 ? '' : 's'} of ${label} had no readable stored metadata and ${rebuilt === 1 ? 'was' : 'were'} rebuilt from the migration's columns (title, artist, album, duration, ISRC, link).` });
        }
      }
      const total = typeof collection.total_tracks === 'number' ? collection.total_tracks : count;
      return {
        id,
        playlist: { ...base, tracks: [], track_count: count },
        slices: slices(),
        // The job migrated a part of the playlist: the file holds that part.
        partial: total > count ? { selected: count, total } : null,
        warnings,
      };
    },
  };
}

/** The playlist's metadata: the stored snapshot when it is there and valid, else what the collection entry knows. */
function playlistOf(collection: StoredCollection, snapshot: unknown): { playlist: Playlist; complete: boolean } {
  const kind = collection.kind === 'LIKED_TRACKS' ? 'LIKED_TRACKS' : 'PLAYLIST';
  const fallback = playlistSchema.parse({
    id: collection.id,
    name: clip(typeof collection.name === 'string' ? collection.name : collection.id, 1_000),
    description: typeof collection.description === 'string' ? clip(collection.description, 10_000) : null,
    kind,
  });
  if (!isRecord(snapshot) || !SNAPSHOT_FIELDS.every((field) => field in snapshot)) return { playlist: fallback, complete: false };
  const parsed = playlistSchema.safeParse({ ...snapshot, tracks: [] });
  if (!parsed.success) return { playlist: fallback, complete: false };
  return { playlist: { ...parsed.data, id: parsed.data.id ?? collection.id }, complete: true };
}
