import { formatKit, type PlaylistInput, type TrackInput } from '@opl/plugin-sdk';
import { CellReader } from './cell-values.ts';
import type { CsvRecord } from './csv-records.ts';
import type { HeaderIndex } from './header-index.ts';
import { acceptRow } from './row-shape.ts';

/**
 * The CSV Exportify writes for a Spotify playlist: one row per track with columns such as
 * `Track URI`, `Track Name`, `Artist Name(s)`, `Album Name`, `Duration (ms)`, `Explicit`, `ISRC`,
 * and depending on its version `Album Artist Name(s)`, `Album Release Date` (or `Release Date`),
 * `Album Image URL`, `Disc Number`, `Track Number`, `Added At`, `Added By`, `Popularity`,
 * `Genres`, `Record Label` and audio features. Columns are matched by name, case-insensitively;
 * any of them but `Track Name` may be missing, and unknown ones are ignored.
 *
 * - `Artist Name(s)` holds the artists separated by commas: they become `artists`, and `artist`
 *   is them joined with ", " (a name that itself contains a comma is split too; the file cannot
 *   tell the two apart).
 * - `spotify:track:…` goes to `provider_uris.spotify`; `spotify:episode:…` too, as an episode
 *   that is not migrated; `spotify:local:artist:album:title:seconds` is a local file — a track
 *   with `is_local`, media type `local_file` and an `unsupported_reason`, its URI kept in metadata
 *   (never opened), missing names filled from the URI; any other URI is kept as metadata too.
 * - The file is one playlist, named after the uploaded file.
 */

export function isExportifyHeader(header: HeaderIndex): boolean {
  return header.has('track name') && (header.has('track uri') || header.has('artist name(s)'));
}

const SPOTIFY_TRACK = /^spotify:track:[A-Za-z0-9]{1,64}$/;
const SPOTIFY_EPISODE = /^spotify:episode:[A-Za-z0-9]{1,64}$/;
const SPOTIFY_LOCAL = /^spotify:local:([^:]*):([^:]*):([^:]*):(\d*)$/;
export const LOCAL_FILE_REASON = 'local file: it exists only on the device that added it, not on the streaming service';
export const EPISODE_REASON = 'podcast episode: only music tracks are migrated';

interface Columns {
  readonly uri?: number;
  readonly title?: number;
  readonly artists?: number;
  readonly album?: number;
  readonly albumArtists?: number;
  readonly releaseDate?: number;
  readonly artwork?: number;
  readonly disc?: number;
  readonly trackNumber?: number;
  readonly duration?: number;
  readonly explicit?: number;
  readonly popularity?: number;
  readonly isrc?: number;
  readonly addedBy?: number;
  readonly addedAt?: number;
  readonly genres?: number;
  readonly label?: number;
}

function columnsOf(header: HeaderIndex): Columns {
  return {
    uri: header.find('track uri', 'uri', 'spotify uri'),
    title: header.find('track name'),
    artists: header.find('artist name(s)', 'artist names', 'artist name', 'artists'),
    album: header.find('album name'),
    albumArtists: header.find('album artist name(s)', 'album artist names'),
    releaseDate: header.find('album release date', 'release date'),
    artwork: header.find('album image url'),
    disc: header.find('disc number'),
    trackNumber: header.find('track number'),
    duration: header.find('duration (ms)', 'track duration (ms)'),
    explicit: header.find('explicit'),
    popularity: header.find('popularity'),
    isrc: header.find('isrc'),
    addedBy: header.find('added by'),
    addedAt: header.find('added at'),
    genres: header.find('genres', 'artist genres'),
    label: header.find('record label', 'label'),
  };
}

/** Comma-separated names → trimmed, non-empty, within the model's bounds. */
export function splitArtists(cell: string): string[] {
  const names: string[] = [];
  for (const part of cell.split(',')) {
    const name = part.trim();
    if (name === '') continue;
    if (names.length === 100) break;
    names.push(formatKit.boundedText(name, 1_000).value);
  }
  return names;
}

/** One `+`/percent-encoded part of a local-file URI; undecodable text is kept as it is. */
function decodeLocalPart(part: string): string {
  const spaced = part.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

function readTrack(row: CellReader, columns: Columns, position: number): TrackInput | null {
  const uri = row.text(columns.uri, 'Track URI', formatKit.LIMITS.providerUri);
  let title = row.text(columns.title, 'Track Name', formatKit.LIMITS.title);
  const artistsCell = row.raw(columns.artists);
  let artists = splitArtists(artistsCell);
  let album = row.text(columns.album, 'Album Name');
  const albumArtists = splitArtists(row.raw(columns.albumArtists));
  const release = row.releaseDate(columns.releaseDate, 'Album Release Date');
  const artwork = row.text(columns.artwork, 'Album Image URL');
  const disc = row.count(columns.disc, 'Disc Number');
  const trackNumber = row.count(columns.trackNumber, 'Track Number');
  let durationSeconds = row.durationFromMs(columns.duration, 'Duration (ms)');
  const explicit = row.boolean(columns.explicit, 'Explicit');
  const popularity = row.count(columns.popularity, 'Popularity');
  const isrc = row.isrc(columns.isrc, 'ISRC');
  const addedBy = row.text(columns.addedBy, 'Added By');
  const addedAtCell = row.raw(columns.addedAt);
  const addedAtConversion = formatKit.dateTime(addedAtCell, 'Added At');
  const addedAt = addedAtConversion.problem === undefined ? addedAtConversion.value : row.invalid(columns.addedAt, 'Added At', `${addedAtConversion.problem.replace(/^Added At /, '')}`);
  const genre = row.text(columns.genres, 'Genres');
  const label = row.text(columns.label, 'Record Label');

  const track: TrackInput = { title: '', artist: '', position };
  const metadata: Record<string, unknown> = {};
  const local = uri === null ? null : SPOTIFY_LOCAL.exec(uri);
  if (uri !== null && SPOTIFY_TRACK.test(uri)) {
    track.provider_uris = { spotify: uri };
  } else if (uri !== null && SPOTIFY_EPISODE.test(uri)) {
    track.provider_uris = { spotify: uri };
    track.media_type = 'episode';
    track.is_migratable = false;
    track.unsupported_reason = EPISODE_REASON;
  } else if (local) {
    // A local file: its names may be only in the URI. The URI is data; nothing is opened.
    const [, artistPart = '', albumPart = '', titlePart = '', secondsPart = ''] = local;
    title ??= optional(formatKit.boundedText(decodeLocalPart(titlePart), formatKit.LIMITS.title).value);
    if (artists.length === 0) artists = splitArtists(decodeLocalPart(artistPart));
    album ??= optional(formatKit.boundedText(decodeLocalPart(albumPart), formatKit.LIMITS.text).value);
    if (durationSeconds === null && /^\d{1,7}$/.test(secondsPart)) durationSeconds = Math.min(Number(secondsPart), 1_000_000);
    metadata.source_uri = uri;
    track.media_type = 'local_file';
    track.is_local = true;
    track.is_migratable = false;
    track.unsupported_reason = LOCAL_FILE_REASON;
  } else if (uri !== null) {
    metadata.source_uri = uri;
  }
  if (title === null && artists.length === 0 && uri === null) return null;

  track.title = title ?? '';
  track.artists = artists;
  track.artist = formatKit.boundedText(artists.join(', '), formatKit.LIMITS.artist).value;
  track.album = album;
  track.duration_s = durationSeconds;
  track.isrc = isrc;
  track.release_date = release?.date ?? null;
  track.release_year = release?.year ?? null;
  track.artwork_uri = artwork;
  track.disc_number = disc;
  track.track_number = trackNumber;
  track.explicit = explicit;
  track.added_at = addedAt;
  track.genre = genre;
  track.label = label;
  if (albumArtists.length > 0) metadata.album_artists = albumArtists;
  if (addedBy !== null) metadata.added_by = addedBy;
  if (popularity !== null) metadata.popularity = popularity;
  track.metadata = metadata;
  return track;
}

function optional(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

export function readExportify(header: HeaderIndex, records: Iterable<CsvRecord>, name: string, issues: formatKit.IssueCollector): PlaylistInput[] {
  const columns = columnsOf(header);
  const tracks: TrackInput[] = [];
  for (const record of records) {
    if (!acceptRow(record, header.width, issues)) continue;
    const track = readTrack(new CellReader(record.cells, record.line, issues), columns, tracks.length);
    if (track === null) {
      issues.add(record.line, 'empty_row', 'the row has neither a track name, artists nor a URI; the row was skipped', 'warning');
      continue;
    }
    tracks.push(track);
  }
  if (tracks.length === 0) issues.add(null, 'no_tracks', 'the Exportify file has a header but no track rows', 'warning');
  return [{ name, tracks, provider_uris: {}, metadata: { source_format: 'exportify' } }];
}
