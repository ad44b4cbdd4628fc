import { formatKit, type Playlist, type Track } from '@opl/plugin-sdk';
import type { ExportWarning } from '@opl/plugin-sdk/schemas';
import { ExportError } from './export-error.ts';

/**
 * Where an export's playlists come from (an import record, a connected provider account, or a
 * migration's stored history). The export service asks for one playlist at a time and feeds its
 * tracks, a slice at a time, through the format plugin's playlist writer into the file, so a
 * source that reads its tracks in slices (the history, from the database) never holds a whole
 * playlist at all.
 */
/** Tracks per slice handed to the format plugin: small enough that a slice dies young in V8's heap. */
export const EXPORT_SLICE_TRACKS = 500;

/**
 * `source_provider` of an export from an import record, in the request and in the bundle and
 * manifest written (the convention of `POST /api/migrations`, whose import jobs store it too).
 */
export const IMPORT_SOURCE_PROVIDER = 'import';

export interface ExportSource {
  /** The provider key the bundle and the manifest name (`source_provider`): `import` for an import record. */
  readonly sourceProvider: string;
  /** What a multi-playlist archive is called (without `.zip`). */
  readonly archiveName: string;
  /**
   * The playlists of the export in order: `id` is what `read` takes (and what a placeholder names
   * when a read fails), `name` what a placeholder shows.
   */
  readonly playlists: readonly { id: string; name: string }[];
  /**
   * Reads one playlist of `playlists`. Throws `PlaylistUnavailableError` when this one playlist
   * cannot be read (it becomes a placeholder among several); any other error aborts the export.
   */
  read(id: string, signal?: AbortSignal): Promise<SourcePlaylist>;
}

export interface SourcePlaylist {
  /** The id the manifest and warnings name the playlist by. */
  id: string;
  /** The playlist's details; `tracks` is empty: they come in `slices`. */
  playlist: Playlist;
  /** The playlist's tracks in order, at most `EXPORT_SLICE_TRACKS` at a time; iterated once. */
  slices: AsyncIterable<readonly Track[]>;
  /** Set when a track selection restricted the playlist. */
  partial: { selected: number; total: number } | null;
  /**
   * Warnings only this source knows about (e.g. the historical ones). A source may add to them
   * while its slices are read (what it learns about the tracks), so they are read after the last.
   */
  warnings: ExportWarning[];
}

/** A playlist held whole, as a source playlist handing its tracks over in slices. */
export function inSlices(id: string, picked: Pick<SourcePlaylist, 'playlist' | 'partial'>, warnings: ExportWarning[] = []): SourcePlaylist {
  const { tracks } = picked.playlist;
  return { id, playlist: { ...picked.playlist, tracks: [] }, partial: picked.partial, warnings, slices: slicesOf(tracks) };
}

async function* slicesOf(tracks: readonly Track[]): AsyncGenerator<readonly Track[]> {
  for (let start = 0; start < tracks.length; start += EXPORT_SLICE_TRACKS) yield tracks.slice(start, start + EXPORT_SLICE_TRACKS);
}

/** One playlist of a multi-playlist export that could not be read: missing, or access denied. */
export class PlaylistUnavailableError extends Error {
  readonly reason: 'not_found' | 'denied';
  /** The playlist's name when the source still knows it (for the placeholder); else its id is shown. */
  readonly playlistName: string | null;
  constructor(reason: 'not_found' | 'denied', message: string, playlistName: string | null = null) {
    super(message);
    this.name = 'PlaylistUnavailableError';
    this.reason = reason;
    this.playlistName = playlistName;
  }
}

/**
 * `text` cut to at most `max` UTF-16 units between two characters, never inside a surrogate pair:
 * a half emoji in a message or a manifest would make its JSON invalid Unicode.
 */
export function clip(text: string, max: number): string {
  return formatKit.boundedText(text, max).value;
}

/**
 * A track's selection keys, as `POST /api/migrations` takes them: its track id, its entry id
 * (`source_item_id`), or `pos:<n>` for the entry at 0-based position n.
 */
function keysOf(track: Track, position: number): string[] {
  return [`pos:${position}`, ...(track.id !== null ? [track.id] : []), ...(track.source_item_id !== null ? [track.source_item_id] : [])];
}

/**
 * The playlist restricted to the selected tracks (playlist order kept), or unchanged without a
 * selection or a selection of every track. Throws `invalid_selection` naming the keys the playlist
 * does not have.
 */
export function selectTracks(id: string, playlist: Playlist, keys: readonly string[] | undefined): Pick<SourcePlaylist, 'playlist' | 'partial'> {
  if (keys === undefined) return { playlist, partial: null };
  const wanted = new Set(keys);
  const found = new Set<string>();
  const tracks = playlist.tracks.filter((track, position) => {
    const matching = keysOf(track, position).filter((key) => wanted.has(key));
    for (const key of matching) found.add(key);
    return matching.length > 0;
  });
  const missing = keys.filter((key) => !found.has(key));
  if (missing.length > 0) {
    throw new ExportError(
      'invalid_selection',
      `selection.tracks[${JSON.stringify(id.slice(0, 100))}]: playlist "${clip(playlist.name, 80)}" has no track ${missing
        .slice(0, 5)
        .map((key) => JSON.stringify(key.slice(0, 100)))
        .join(', ')}${missing.length > 5 ? ` or ${missing.length - 5} more` : ''} (select tracks by track id, entry id or pos:<n>).`,
      { playlist_id: id, missing_track_ids: missing.slice(0, 100) },
    );
  }
  // A selection of every track leaves nothing out: the whole playlist, with no partial_selection.
  if (tracks.length === playlist.tracks.length) return { playlist, partial: null };
  return { playlist: { ...playlist, tracks, track_count: tracks.length }, partial: { selected: tracks.length, total: playlist.tracks.length } };
}

/** The spec's selection: whole playlists by id, and optionally only some tracks of a playlist. */
export interface ExportSelection {
  playlist_ids: readonly string[];
  tracks?: Readonly<Record<string, readonly string[]>> | undefined;
}

/**
 * The track keys the selection names for one playlist, or undefined (the whole playlist). Only the
 * selection's own keys count: a playlist called `constructor` or `toString` must not find
 * `Object.prototype`'s function there.
 */
export function selectedTrackKeys(selection: ExportSelection | undefined, playlistId: string): readonly string[] | undefined {
  const tracks = selection?.tracks;
  return tracks !== undefined && Object.hasOwn(tracks, playlistId) ? tracks[playlistId] : undefined;
}

/** Every playlist the selection names (listed ones, then those only named in `tracks`), once each. */
export function selectedPlaylistIds(selection: ExportSelection): string[] {
  return [...new Set([...selection.playlist_ids, ...Object.keys(selection.tracks ?? {})])];
}
