import { formatKit, type PlaylistInput, type TrackInput } from '@opl/plugin-sdk';
import { CellReader } from './cell-values.ts';
import type { CsvRecord } from './csv-records.ts';
import type { HeaderIndex } from './header-index.ts';
import { acceptRow } from './row-shape.ts';

/**
 * The CSV Exportify writes for a Spotify playlist: one row per track. Its layout changed over the
 * years; all of them read here, columns matched by name, case-insensitively, any of them but
 * `Track Name` possibly missing and unknown ones (audio features, `Artist IDs`, …) ignored:
 * - the original layout (to about 2019): `Spotify URI`, `Track Name`, `Artist Name`, `Album Name`,
 *   `Disc Number`, `Track Number`, `Track Duration (ms)`, `Added By`, `Added At`;
 * - 2020–22: `Spotify ID` (the bare 22-character track ID), `Artist IDs`, `Track Name`,
 *   `Album Name`, `Artist Name(s)`, `Release Date`, `Duration (ms)`, `Popularity`, `Added By`,
 *   `Added At`, `Genres`, audio features;
 * - current: `Track URI`, `Track Name`, `Artist Name(s)`, `Album Name`, `Album Artist Name(s)`,
 *   `Album Release Date` (or `Release Date`), `Album Image URL`, `Disc Number`, `Track Number`,
 *   `Duration (ms)` or `Track Duration (ms)`, `Explicit`, `Popularity`, `ISRC`, `Added By`,
 *   `Added At`, `Genres`, `Record Label`, audio features.
 *
 * - A file is Exportify's when it names `Track Name` and a Spotify identifier column this reader
 *   maps (`URI_COLUMNS`, `ID_COLUMNS`), or Exportify's own `Artist Name(s)`: detection and mapping
 *   use the same lists.
 * - `Artist Name(s)` holds the artists separated by commas; current Exportify escapes a comma inside
 *   a name with a backslash (`Tyler\, The Creator, Kali Uchis`). They become `artists` (the
 *   escape removed), and `artist` is them joined with ", ". Album artists alike. An unescaped
 *   comma inside a name (older versions) cannot be told from a separator and splits.
 * - `spotify:track:…` (or a bare ID) goes to `provider_uris.spotify`; `spotify:episode:…` too, as an
 *   episode that is not migrated; `spotify:local:artist:album:title:seconds` is a local file — a
 *   track with `is_local`, media type `local_file` and an `unsupported_reason`, its URI kept in
 *   metadata (never opened), missing names filled from the URI (`formatKit.sourceReference`, as in
 *   the generic layout); any other URI is kept as metadata too.
 * - The file is one playlist, named after the uploaded file.
 */

/** Columns holding a Spotify URI (`spotify:track:…`, `:episode:`, `:local:`). */
const URI_COLUMNS = ['track uri', 'spotify uri'];
/** Columns holding the bare track ID (2020–22 layout). */
const ID_COLUMNS = ['spotify id'];
const ARTIST_COLUMNS = ['artist name(s)', 'artist names', 'artist name', 'artists'];

export function isExportifyHeader(header: HeaderIndex): boolean {
  return header.has('track name') && (header.find(...URI_COLUMNS, ...ID_COLUMNS) !== undefined || header.has('artist name(s)'));
}

const SPOTIFY_TRACK = /^spotify:track:[A-Za-z0-9]{1,64}$/;
const SPOTIFY_EPISODE = /^spotify:episode:[A-Za-z0-9]{1,64}$/;
/** A Spotify ID: 22 base-62 characters. */
const SPOTIFY_ID = /^[0-9A-Za-z]{22}$/;
export const LOCAL_FILE_REASON = formatKit.LOCAL_FILE_REASON;
export const EPISODE_REASON = 'podcast episode: only music tracks are migrated';

interface Columns {
  readonly uri?: number;
  readonly id?: number;
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
    uri: header.find(...URI_COLUMNS),
    id: header.find(...ID_COLUMNS),
    title: header.find('track name'),
    artists: header.find(...ARTIST_COLUMNS),
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

/**
 * Comma-separated names → trimmed, non-empty, within the model's bounds. A comma escaped with a
 * backslash (`Tyler\, The Creator`) belongs to the name.
 */
export function splitArtists(cell: string): string[] {
  const names: string[] = [];
  for (const part of cell.split(/(?<!\\),/)) {
    const name = part.replaceAll('\\,', ',').trim();
    if (name === '') continue;
    if (names.length === 100) break;
    names.push(formatKit.boundedText(name, 1_000).value);
  }
  return names;
}

/** The URI the row names: its URI column, else its bare Spotify ID as a track URI. */
function rowUri(row: CellReader, columns: Columns): string | null {
  const uri = row.text(columns.uri, 'Track URI', formatKit.LIMITS.providerUri);
  if (uri !== null || columns.id === undefined) return uri;
  const id = row.text(columns.id, 'Spotify ID', formatKit.LIMITS.providerUri);
  if (id === null) return null;
  if (SPOTIFY_ID.test(id)) return `spotify:track:${id}`;
  if (id.startsWith('spotify:')) return id;
  return row.invalid(columns.id, 'Spotify ID', `"${id.slice(0, 40)}" is not a Spotify track ID (22 letters and digits)`);
}

function readTrack(row: CellReader, columns: Columns, position: number): TrackInput | null {
  const uri = rowUri(row, columns);
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
  const reference = uri === null ? null : formatKit.sourceReference(uri);
  if (reference?.kind === 'provider' && SPOTIFY_TRACK.test(reference.uri)) {
    track.provider_uris = { spotify: reference.uri };
  } else if (reference?.kind === 'provider' && SPOTIFY_EPISODE.test(reference.uri)) {
    track.provider_uris = { spotify: reference.uri };
    track.media_type = 'episode';
    track.is_migratable = false;
    track.unsupported_reason = EPISODE_REASON;
  } else if (reference?.kind === 'local_file') {
    // A local file: its names may be only in the URI. The URI is data; nothing is opened.
    title ??= optional(reference.title);
    if (artists.length === 0) artists = splitArtists(reference.artist);
    album ??= optional(reference.album);
    durationSeconds ??= reference.seconds;
    metadata.source_uri = reference.uri;
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
