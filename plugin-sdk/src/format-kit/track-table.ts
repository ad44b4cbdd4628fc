import type { TrackInput } from '../model.schema.ts';
import { songLinkService } from './song-links.ts';
import { boundedText, clockDuration, type Conversion, isrcCode, LOCAL_FILE_REASON, MAX_DURATION_SECONDS, millisecondsDuration, ordinalNumber, PLAIN_NUMBER, quotedCell, sourceReference, yearNumber } from './field-values.ts';
import type { IssueCollector } from './issue-collector.ts';
import { unsupportedKind } from './media-kind.ts';
import { LIMITS } from './model-limits.ts';

/**
 * Track tables: the generic layout of CSV and the tabular form of TXT (a header row naming columns,
 * then one track per row). Both read through this one column mapping and row reader.
 *
 * Columns are found by header name, case-insensitively with spaces collapsed; the first column of
 * a name wins. A title column or a link column is required (a list of links, such as
 * `Artist, Album, URL` or `Spotify URI, Artist Name`, gives tracks by link, their titles unknown);
 * artist, album, ISRC, duration, link, genre, composer, year, track and disc number and kind columns
 * are optional (iTunes' "Export Playlist…" text file names them all: `Name`, `Artist`, `Composer`,
 * `Album`, `Genre`, `Time`, `Disc Number`, `Track Number`, `Year`, `Kind`, `Location`, …). The artist cell is kept as written: separators between several artists differ from
 * tool to tool. A `Kind` naming a podcast, an audiobook, a video, a stream or a document
 * (media-kind.ts) keeps the row, not migrated, with the reason.
 *
 * Durations: a milliseconds column (`Duration (ms)`, …) is milliseconds; a duration column holds
 * `225`, `225.5`, `3:45` or `1:02:03`. Its plain numbers are seconds, unless the column shows it
 * holds milliseconds: the median of its non-zero plain numbers is above 36,000 (over 10 hours as
 * seconds: no real list has a typical track that long, while millisecond lists of songs have
 * medians around 200,000). Zeros never decide (an unknown length is often written `0`), and one
 * odd value cannot flip the column either way: a 500 ms jingle in a millisecond list, or a few
 * 10-hour mixes in a list of seconds. Then all of its plain numbers are read as milliseconds, with
 * one `duration_in_milliseconds` warning. The decision is made once for the whole column, so a
 * 25-second intro (`25000`) in a milliseconds column is read right too.
 */
const TABLE_COLUMNS = {
  title: ['title', 'titel', 'titre', 'título', 'titolo', 'track', 'track name', 'track title', 'song', 'song name', 'song title', 'name'],
  artist: ['artist', 'künstler', 'interpret', 'artiste', 'artista', 'artists', 'artist name', 'artist name(s)', 'artist names', 'performer', 'band'],
  album: ['album', 'álbum', 'album name', 'album title'],
  isrc: ['isrc'],
  durationMs: ['duration (ms)', 'duration_ms', 'duration ms', 'length (ms)', 'milliseconds', 'track duration (ms)'],
  // The localized names are those a spreadsheet in that language heads the column with, as for
  // title and artist above (German, French, Spanish, Portuguese, Italian, Dutch).
  duration: ['duration', 'duration (s)', 'duration_s', 'duration_seconds', 'length', 'time', 'seconds', 'dauer', 'länge', 'spieldauer', 'durée', 'duración', 'duração', 'durata', 'duur'],
  link: ['uri', 'url', 'link', 'spotify uri', 'track uri', 'source_uri', 'location'],
  genre: ['genre', 'género', 'genere', 'gênero'],
  composer: ['composer', 'komponist', 'compositeur', 'compositor', 'compositore', 'componist'],
  year: ['year', 'release year', 'jahr', 'année', 'año', 'ano', 'anno', 'jaar'],
  trackNumber: ['track number', 'track no', 'track no.', 'track #', 'track_number', 'tracknumber', 'titelnummer'],
  discNumber: ['disc number', 'disc no', 'disc no.', 'disc #', 'disc_number', 'disk number', 'disc'],
  kind: ['kind'],
} as const;

/** A column whose typical (median) plain number is above this many seconds (10 hours) holds milliseconds. */
const IMPLAUSIBLE_SECONDS = 36_000;

/** The median of the non-zero values, or null when there are none. */
function nonZeroMedian(values: readonly number[]): number | null {
  const sorted = values.filter((value) => value !== 0).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface TrackTableColumns {
  /** Cells the header names. */
  readonly width: number;
  readonly title: number | undefined;
  readonly artist: number | undefined;
  readonly album: number | undefined;
  readonly isrc: number | undefined;
  readonly durationMs: number | undefined;
  readonly duration: number | undefined;
  readonly link: number | undefined;
  readonly genre: number | undefined;
  readonly composer: number | undefined;
  readonly year: number | undefined;
  readonly trackNumber: number | undefined;
  readonly discNumber: number | undefined;
  readonly kind: number | undefined;
}

function columnKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

const KNOWN_NAMES: ReadonlySet<string> = new Set(Object.values(TABLE_COLUMNS).flat());

/** How many of the header's cells name a column the mapping knows (any field): how a line shows it is a header. */
export function knownTrackTableColumns(names: readonly string[]): number {
  return names.filter((name) => KNOWN_NAMES.has(columnKey(name))).length;
}

/** The columns of a track table from its header row, or null when no column holds titles or track links. */
export function trackTableColumns(names: readonly string[]): TrackTableColumns | null {
  const positions = new Map<string, number>();
  for (const [position, name] of names.entries()) {
    const key = columnKey(name);
    if (key !== '' && !positions.has(key)) positions.set(key, position);
  }
  const find = (candidates: readonly string[]): number | undefined => {
    for (const candidate of candidates) {
      const position = positions.get(candidate);
      if (position !== undefined) return position;
    }
    return undefined;
  };
  const title = find(TABLE_COLUMNS.title);
  const link = find(TABLE_COLUMNS.link);
  if (title === undefined && link === undefined) return null;
  const durationMs = find(TABLE_COLUMNS.durationMs);
  return {
    width: names.length,
    title,
    artist: find(TABLE_COLUMNS.artist),
    album: find(TABLE_COLUMNS.album),
    isrc: find(TABLE_COLUMNS.isrc),
    durationMs,
    duration: durationMs === undefined ? find(TABLE_COLUMNS.duration) : undefined,
    link,
    genre: find(TABLE_COLUMNS.genre),
    composer: find(TABLE_COLUMNS.composer),
    year: find(TABLE_COLUMNS.year),
    trackNumber: find(TABLE_COLUMNS.trackNumber),
    discNumber: find(TABLE_COLUMNS.discNumber),
    kind: find(TABLE_COLUMNS.kind),
  };
}

interface PlainDuration {
  readonly track: TrackInput;
  readonly value: number;
  readonly line: number;
}

/**
 * Rows of a track table → tracks, one row at a time (the caller checks the row's shape first).
 * A value the model cannot hold is an `invalid_value` warning with that field left empty; a row
 * without title, artist or a track link is skipped with an `empty_row` warning.
 * A link cell is read with `sourceReference`: a provider URI or Spotify/TIDAL link goes to
 * `provider_uris` (a row holding only a link is kept, its title unknown), a Spotify local-file
 * URI makes the row a local file, anything else is kept as `metadata.source_uri` — and a row
 * holding only a song page of another service (`songLinkService`: a Deezer, YouTube, YouTube
 * Music or Apple Music song link) is kept too, as the TXT plain list keeps such a line.
 */
export class TrackTableReader {
  readonly #columns: TrackTableColumns;
  readonly #issues: IssueCollector;
  readonly #tracks: TrackInput[] = [];
  /** The duration column's plain numbers, read as seconds or milliseconds once the column is known. */
  readonly #plain: PlainDuration[] = [];

  constructor(columns: TrackTableColumns, issues: IssueCollector) {
    this.#columns = columns;
    this.#issues = issues;
  }

  add(line: number, cells: readonly string[]): void {
    const columns = this.#columns;
    const issues = this.#issues;
    const cell = (position: number | undefined): string => (position === undefined ? '' : (cells[position] ?? ''));
    const columnNumber = (position: number | undefined): number | null => (position === undefined ? null : position + 1);
    const text = (position: number | undefined, field: string, max: number): string | null => {
      const value = cell(position).trim();
      if (value === '') return null;
      const result = boundedText(value, max);
      if (result.truncated) issues.warn(line, 'value_truncated', `${field} is longer than ${max} characters and was cut`, columnNumber(position));
      return result.value;
    };
    const convert = <T>(position: number | undefined, conversion: Conversion<T>, fallback: T): T => {
      if (conversion.problem === undefined) return conversion.value;
      issues.warn(line, 'invalid_value', conversion.problem, columnNumber(position));
      return fallback;
    };

    const track: TrackInput = {
      title: text(columns.title, 'title', LIMITS.title) ?? '',
      artist: text(columns.artist, 'artist', LIMITS.artist) ?? '',
      album: text(columns.album, 'album', LIMITS.text),
      isrc: convert(columns.isrc, isrcCode(cell(columns.isrc), 'isrc'), null),
      duration_s: null,
      position: this.#tracks.length,
    };
    // Only the fields the table has columns for, so a table without them reads as before.
    if (columns.genre !== undefined) track.genre = text(columns.genre, 'genre', LIMITS.text);
    if (columns.composer !== undefined) track.composer = text(columns.composer, 'composer', LIMITS.text);
    if (columns.year !== undefined) track.release_year = convert(columns.year, yearNumber(cell(columns.year), 'year'), null);
    if (columns.trackNumber !== undefined) track.track_number = convert(columns.trackNumber, ordinalNumber(cell(columns.trackNumber), 'track number'), null);
    if (columns.discNumber !== undefined) track.disc_number = convert(columns.discNumber, ordinalNumber(cell(columns.discNumber), 'disc number'), null);
    let plain: number | null = null;
    if (columns.durationMs !== undefined) {
      track.duration_s = convert(columns.durationMs, millisecondsDuration(cell(columns.durationMs), 'duration'), null);
    } else if (columns.duration !== undefined) {
      const value = cell(columns.duration).trim();
      // Plain numbers wait for the column's unit (see finish); beyond the model even as milliseconds, they are invalid now.
      if (PLAIN_NUMBER.test(value) && Number(value) / 1000 <= MAX_DURATION_SECONDS) plain = Number(value);
      else track.duration_s = convert(columns.duration, clockDuration(value, 'duration'), null);
    }
    const link = text(columns.link, 'uri', LIMITS.providerUri);
    const reference = link === null ? null : sourceReference(link);
    if (reference?.kind === 'provider') {
      track.provider_uris = { [reference.provider]: reference.uri };
    } else if (reference?.kind === 'local_file') {
      // A local file: its names may be only in the URI (never opened).
      if (track.title === '') track.title = reference.title;
      if (track.artist === '') track.artist = reference.artist;
      track.album ??= reference.album === '' ? null : reference.album;
      track.duration_s ??= reference.seconds;
      track.media_type = 'local_file';
      track.is_local = true;
      track.is_migratable = false;
      track.unsupported_reason = LOCAL_FILE_REASON;
      track.metadata = { source_uri: reference.uri };
    } else if (reference !== null) {
      track.metadata = { source_uri: reference.uri };
    }
    const kind = columns.kind === undefined ? null : unsupportedKind(cell(columns.kind));
    // A local file's reason stays: it says more about why the row cannot move than its kind does.
    if (kind !== null && track.is_local !== true) Object.assign(track, { media_type: kind.mediaType, is_migratable: false, unsupported_reason: kind.reason });
    if (track.title === '' && track.artist === '' && (reference === null || (reference.kind === 'other' && songLinkService(reference.uri) === null))) {
      issues.warn(line, 'empty_row', 'the row has neither a title, an artist nor a track link; the row was skipped');
      return;
    }
    if (plain !== null) this.#plain.push({ track, value: plain, line });
    this.#tracks.push(track);
  }

  /** The tracks read, in row order, with the duration column's unit applied. */
  finish(): TrackInput[] {
    const plain = this.#plain;
    const median = nonZeroMedian(plain.map((entry) => entry.value));
    const milliseconds = median !== null && median > IMPLAUSIBLE_SECONDS;
    if (milliseconds) {
      // Reported at the column's first value above the threshold, the first that cannot be seconds.
      const first = plain.find((entry) => entry.value > IMPLAUSIBLE_SECONDS)!;
      this.#issues.warn(
        first.line,
        'duration_in_milliseconds',
        `the duration column holds milliseconds (its typical value, ${median}, would be over 10 hours as seconds), so its plain numbers were read as milliseconds`,
        this.#columns.duration === undefined ? null : this.#columns.duration + 1,
      );
    }
    for (const entry of plain) {
      const seconds = milliseconds ? entry.value / 1000 : entry.value;
      if (seconds <= MAX_DURATION_SECONDS) entry.track.duration_s = seconds;
      else this.#issues.warn(entry.line, 'invalid_value', `duration ${quotedCell(String(entry.value))} is longer than the model allows`, this.#columns.duration === undefined ? null : this.#columns.duration + 1);
    }
    plain.length = 0;
    return this.#tracks;
  }
}

/** A header row as messages quote it: its first 8 cells, each cut at 40 characters, `, …` when there are more. */
export function shownHeaderCells(cells: readonly string[]): string {
  const shown = cells
    .slice(0, 8)
    .map((cell) => `"${cell.length > 40 ? `${cell.slice(0, 40)}…` : cell}"`)
    .join(', ');
  return cells.length > 8 ? `${shown}, …` : shown;
}
