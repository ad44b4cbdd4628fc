import type { PlaylistKind } from '../capabilities.ts';
import type { Track } from '../model.schema.ts';
import { classifyLocation } from './locations.ts';
import { LIMITS } from './model-limits.ts';

/**
 * Cell → model value conversions for the CSV and TXT readers. Each returns `{ value }` or
 * `{ problem }`; the caller turns a problem into a warning and keeps the row with that field empty,
 * because one bad duration or date should not cost the user the track. The bounds mirror the model
 * schema the host validates parse results against: anything looser would fail the whole import there.
 * Below them: what a URI cell names (`sourceReference`). The column mapping of foreign track
 * tables built on these is track-table.ts.
 */

export type Conversion<T> = { readonly value: T; readonly problem?: undefined } | { readonly value?: undefined; readonly problem: string };

/** Longest accepted duration, as in the model (about 11.5 days). */
export const MAX_DURATION_SECONDS = 1_000_000;

/**
 * The model's enums, spelled out here as records checked against the SDK types: the compiler fails
 * if the model gains or loses a value. (Importing the SDK's runtime constants would also pull zod,
 * which builds schemas next to them, into the bundle.)
 */
const MEDIA_TYPES = { track: true, episode: true, video: true, local_file: true, unknown: true } satisfies Record<Track['media_type'], true>;
const PLAYLIST_KINDS = { PLAYLIST: true, LIKED_TRACKS: true } satisfies Record<PlaylistKind, true>;

export const MEDIA_TYPE_VALUES = Object.keys(MEDIA_TYPES) as Track['media_type'][];
export const PLAYLIST_KIND_VALUES = Object.keys(PLAYLIST_KINDS) as PlaylistKind[];

/** A cell as messages quote it: bounded, in quotes. */
export function quotedCell(cell: string): string {
  return `"${cell.length > 40 ? `${cell.slice(0, 40)}…` : cell}"`;
}

/** Empty → null; otherwise the text itself (cells are never trimmed: spaces may be content). */
export function optionalText(cell: string): string | null {
  return cell === '' ? null : cell;
}

export function duration(cell: string): Conversion<number | null> {
  const text = cell.trim();
  if (text === '') return { value: null };
  if (!/^\d+(?:\.\d+)?$/.test(text)) return { problem: `duration_seconds ${quotedCell(cell)} is not a number of seconds` };
  const seconds = Number(text);
  if (seconds > MAX_DURATION_SECONDS) return { problem: `duration_seconds ${quotedCell(cell)} is longer than ${MAX_DURATION_SECONDS} seconds` };
  return { value: seconds };
}

/** A plain number as duration cells hold it (seconds or milliseconds, by column). */
export const PLAIN_NUMBER = /^\d{1,12}(?:\.\d+)?$/;
const CLOCK = /^(?:(\d{1,4}):)?(\d{1,4}):([0-5]\d(?:\.\d+)?)$/;

/**
 * Seconds from a number of milliseconds (`Duration (ms)` columns), kept exact. A clock value
 * (`3:45`), which cannot be milliseconds, is read as one.
 */
export function millisecondsDuration(cell: string, column: string): Conversion<number | null> {
  const text = cell.trim();
  if (text === '') return { value: null };
  if (CLOCK.test(text)) return clockDuration(text, column);
  if (!PLAIN_NUMBER.test(text)) return { problem: `${column} ${quotedCell(text)} is not a number of milliseconds` };
  const seconds = Number(text) / 1000;
  return seconds > MAX_DURATION_SECONDS ? { problem: `${column} ${quotedCell(text)} is longer than the model allows` } : { value: seconds };
}

/** Seconds from `225`, `225.5`, `3:45` or `1:02:03`. */
export function clockDuration(cell: string, column: string): Conversion<number | null> {
  const text = cell.trim();
  if (text === '') return { value: null };
  let seconds: number;
  if (PLAIN_NUMBER.test(text)) {
    seconds = Number(text);
  } else {
    const clock = CLOCK.exec(text);
    if (clock === null) return { problem: `${column} ${quotedCell(text)} is not a duration such as 225 or 3:45` };
    seconds = Number(clock[1] ?? 0) * 3600 + Number(clock[2]) * 60 + Number(clock[3]);
  }
  return seconds > MAX_DURATION_SECONDS ? { problem: `${column} ${quotedCell(text)} is longer than the model allows` } : { value: seconds };
}

/** Country, registrant, year, designation: `GBAAN9700044`. */
const ISRC_CODE = /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/;

/**
 * An ISRC in its 12-character uppercase form: `GB-AAN-97-00044`, `gb aan 97 00044` and
 * `usrc17607839` are the codes `GBAAN9700044` and `USRC17607839` (hyphens and spaces are only
 * presentation). Anything that is not an ISRC once compacted is kept as written, unless it is
 * longer than the model allows.
 */
export function isrcCode(cell: string, column: string): Conversion<string | null> {
  const text = cell.trim();
  if (text === '') return { value: null };
  const compact = text.replace(/[\s-]+/g, '').toUpperCase();
  if (ISRC_CODE.test(compact)) return { value: compact };
  if (text.length > LIMITS.isrc) return { problem: `${column} ${quotedCell(text)} is longer than ${LIMITS.isrc} characters and was dropped` };
  return { value: text };
}

/**
 * A whole number the model holds: any safe integer (±9007199254740991, 16 digits), as the writers
 * write them. A larger one would not read back as the number written (JavaScript numbers round
 * above 2^53), so it is refused rather than stored rounded.
 */
export function integer(cell: string, column: string): Conversion<number | null> {
  const text = cell.trim();
  if (text === '') return { value: null };
  if (!/^-?\d{1,16}$/.test(text)) return { problem: `${column} ${quotedCell(cell)} is not a whole number` };
  const value = Number(text);
  if (!Number.isSafeInteger(value)) return { problem: `${column} ${quotedCell(cell)} is larger than ${Number.MAX_SAFE_INTEGER} in magnitude, the largest whole number kept exactly` };
  return { value };
}

/**
 * A track or disc number as players write it: `3`, or `3/12` (number of count, ID3 style); `0`
 * is how some tools write "unknown" and reads as empty.
 */
export function ordinalNumber(cell: string, column: string): Conversion<number | null> {
  const text = cell.trim();
  if (text === '') return { value: null };
  const match = /^(\d{1,9})(?:\s*\/\s*\d{1,9})?$/.exec(text);
  if (match === null) return { problem: `${column} ${quotedCell(cell)} is not a number such as 3 or 3/12` };
  const value = Number(match[1]);
  return { value: value === 0 ? null : value };
}

/** A four-digit year (`1997`); `0`, some tools' "unknown", reads as empty. */
export function yearNumber(cell: string, column: string): Conversion<number | null> {
  const text = cell.trim();
  if (text === '' || /^0+$/.test(text)) return { value: null };
  if (!/^\d{4}$/.test(text)) return { problem: `${column} ${quotedCell(cell)} is not a four-digit year` };
  return { value: Number(text) };
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** An RFC 3339 timestamp with seconds and an explicit offset (`Z` or `±hh:mm`), a real calendar date. */
export function dateTime(cell: string, column: string): Conversion<string | null> {
  const text = cell.trim();
  if (text === '') return { value: null };
  const match = DATE_TIME.exec(text);
  const year = Number(match?.[1]);
  const month = Number(match?.[2]);
  const day = Number(match?.[3]);
  if (!match || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return { problem: `${column} ${quotedCell(cell)} is not a timestamp such as 2024-05-01T12:00:00Z` };
  }
  return { value: text };
}

export function mediaType(cell: string): Conversion<Track['media_type']> {
  const text = cell.trim();
  if (text === '') return { value: 'track' };
  const known = MEDIA_TYPE_VALUES.find((type) => type === text);
  if (known === undefined) return { problem: `media_type ${quotedCell(cell)} is not one of ${MEDIA_TYPE_VALUES.join(', ')}; read as "unknown"` };
  return { value: known };
}

export function playlistKind(cell: string): Conversion<PlaylistKind> {
  const text = cell.trim();
  if (text === '') return { value: 'PLAYLIST' };
  const known = PLAYLIST_KIND_VALUES.find((kind) => kind === text);
  if (known === undefined) return { problem: `playlist_kind ${quotedCell(cell)} is not one of ${PLAYLIST_KIND_VALUES.join(', ')}; read as PLAYLIST` };
  return { value: known };
}

/**
 * Bounded text: over-long values are cut (at a code point boundary) and reported, instead of
 * failing the import.
 */
export function boundedText(text: string, max: number): { readonly value: string; readonly truncated: boolean } {
  if (text.length <= max) return { value: text, truncated: false };
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { value: text.slice(0, end), truncated: true };
}

/**
 * What a `source_uri`, URI or link cell names (CSV and TXT readers; the text is trimmed by the caller):
 * - `provider`: a provider-style URI as written (`spotify:track:…`, `deezer:track:…`), or a Spotify
 *   or TIDAL track web link as its URI (`https://open.spotify.com/intl-de/track/<id>?si=…` ⇒
 *   `spotify:track:<id>`, `https://listen.tidal.com/album/<a>/track/<id>` ⇒ `tidal:track:<id>`):
 *   the recognition M3U, PLS, WPL and XSPF use (`classifyLocation`). It goes to `provider_uris`.
 * - `local_file`: a Spotify local-file URI `spotify:local:<artist>:<album>:<title>:<seconds>`
 *   (form-encoded parts): a file on the device that added it, not a catalogue entry, so it names no
 *   provider URI; the names and seconds are decoded from it (empty / null when absent). Never opened.
 * - `other`: anything else (a web page, a stream, a path, a provider URI of an album, playlist or
 *   artist), which readers keep as `metadata.source_uri`.
 */
export type SourceReference =
  | { readonly kind: 'provider'; readonly provider: string; readonly uri: string }
  | { readonly kind: 'local_file'; readonly uri: string; readonly artist: string; readonly album: string; readonly title: string; readonly seconds: number | null }
  | { readonly kind: 'other'; readonly uri: string };

/** Why a local-file track is not migrated (Exportify and the generic layouts). */
export const LOCAL_FILE_REASON = 'local file: it exists only on the device that added it, not on the streaming service';

export function sourceReference(uri: string): SourceReference {
  // One reading of every location form, shared with the playlist readers (locations.ts).
  const location = classifyLocation(uri);
  if (location.kind === 'local_file') {
    const { artist, album, title, seconds } = location;
    return { kind: 'local_file', uri, artist, album, title, seconds };
  }
  // A link to an album, a playlist, an artist… names no track: kept as a reference, never a provider URI.
  const names = location.kind === 'provider' && (location.item === 'track' || location.item === 'episode');
  return names ? { kind: 'provider', provider: location.provider, uri: location.uri } : { kind: 'other', uri };
}
