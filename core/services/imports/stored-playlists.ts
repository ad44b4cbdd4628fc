import type { Playlist, Track } from '@opl/plugin-sdk';
import { trackSchema } from '@opl/plugin-sdk/schemas';

/**
 * Playlists as an import record stores them: every track without the fields that hold their
 * default (`null`, `[]`, `{}`, `false` for is_local, …). A parsed file's tracks are mostly
 * defaults: 100,000 tracks of a plain list are 51 MB of JSON in full and 13 MB without them, and
 * PostgreSQL took 2.4 s to store the full JSON as jsonb (0.5–0.7 s the compact one; measured on
 * the embedded server). Reading a record puts the defaults back, each field in the model's order,
 * so what is stored and what is read differ in size only. Nothing is validated on the way back:
 * a record holds what the engine checked when it stored it, and reads it as stored.
 */

/** Every track field's default, as the model fills it in (title and artist have none). */
const TRACK_DEFAULTS: ReadonlyMap<string, unknown> = new Map(Object.entries(trackSchema.parse({ title: '', artist: '' })).filter(([key]) => key !== 'title' && key !== 'artist'));
/** The track fields in the model's order. */
const TRACK_KEYS = Object.keys(trackSchema.shape);

/** A field's default, a new array or object each time: a reader may change what it was given. */
function defaultOf(key: string): unknown {
  const fallback = TRACK_DEFAULTS.get(key);
  if (Array.isArray(fallback)) return [];
  if (typeof fallback === 'object' && fallback !== null) return {};
  return fallback;
}

function isDefault(key: string, value: unknown): boolean {
  if (!TRACK_DEFAULTS.has(key)) return false;
  const fallback = TRACK_DEFAULTS.get(key);
  if (Array.isArray(fallback)) return Array.isArray(value) && value.length === 0;
  if (typeof fallback === 'object' && fallback !== null) return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
  return value === fallback;
}

function compactTrack(track: Track): Record<string, unknown> {
  const compact: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(track)) if (!isDefault(key, value)) compact[key] = value;
  return compact;
}

/** The playlists as they are stored: each track without its default fields. */
export function compactPlaylists(playlists: readonly Playlist[]): unknown[] {
  return playlists.map((playlist) => ({ ...playlist, tracks: playlist.tracks.map(compactTrack) }));
}

function expandTrack(stored: Record<string, unknown>): Track {
  const track: Record<string, unknown> = {};
  for (const key of TRACK_KEYS) track[key] = Object.hasOwn(stored, key) ? stored[key] : defaultOf(key);
  return track as Track;
}

/** Stored playlists back as the model's playlists (a record stored before compaction reads the same). */
export function expandPlaylists(stored: readonly unknown[]): Playlist[] {
  return stored.map((value) => {
    const playlist = value as Playlist & { tracks: Record<string, unknown>[] };
    return { ...playlist, tracks: playlist.tracks.map(expandTrack) };
  });
}
