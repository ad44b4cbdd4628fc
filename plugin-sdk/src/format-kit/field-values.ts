import type { PlaylistKind } from '../capabilities.ts';
import type { Track } from '../model.schema.ts';

/**
 * Cell → model value conversions for the reader. Each returns `{ value }` or `{ problem }`; the
 * caller turns a problem into a warning and keeps the row with that field empty, because one bad
 * duration or date should not cost the user the track. The bounds mirror the model schema the
 * host validates parse results against: anything looser would fail the whole import there.
 */

export type Conversion<T> = { readonly value: T; readonly problem?: undefined } | { readonly value?: undefined; readonly problem: string };

/** Longest accepted duration, as in the model (about 11.5 days). */
const MAX_DURATION_SECONDS = 1_000_000;

/**
 * The model's enums, spelled out here as records checked against the SDK types: the compiler fails
 * if the model gains or loses a value. (Importing the SDK's runtime constants would also pull zod,
 * which builds schemas next to them, into the bundle.)
 */
const MEDIA_TYPES = { track: true, episode: true, video: true, local_file: true, unknown: true } satisfies Record<Track['media_type'], true>;
const PLAYLIST_KINDS = { PLAYLIST: true, LIKED_TRACKS: true } satisfies Record<PlaylistKind, true>;

export const MEDIA_TYPE_VALUES = Object.keys(MEDIA_TYPES) as Track['media_type'][];
export const PLAYLIST_KIND_VALUES = Object.keys(PLAYLIST_KINDS) as PlaylistKind[];

function quoted(cell: string): string {
  return `"${cell.length > 40 ? `${cell.slice(0, 40)}…` : cell}"`;
}

/** Empty → null; otherwise the text itself (cells are never trimmed: spaces may be content). */
export function optionalText(cell: string): string | null {
  return cell === '' ? null : cell;
}

export function duration(cell: string): Conversion<number | null> {
  const text = cell.trim();
  if (text === '') return { value: null };
  if (!/^\d+(?:\.\d+)?$/.test(text)) return { problem: `duration_seconds ${quoted(cell)} is not a number of seconds` };
  const seconds = Number(text);
  if (seconds > MAX_DURATION_SECONDS) return { problem: `duration_seconds ${quoted(cell)} is longer than ${MAX_DURATION_SECONDS} seconds` };
  return { value: seconds };
}

export function integer(cell: string, column: string): Conversion<number | null> {
  const text = cell.trim();
  if (text === '') return { value: null };
  if (!/^-?\d{1,15}$/.test(text)) return { problem: `${column} ${quoted(cell)} is not a whole number` };
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
    return { problem: `${column} ${quoted(cell)} is not a timestamp such as 2024-05-01T12:00:00Z` };
  }
  return { value: text };
}

export function mediaType(cell: string): Conversion<Track['media_type']> {
  const text = cell.trim();
  if (text === '') return { value: 'track' };
  const known = MEDIA_TYPE_VALUES.find((type) => type === text);
  if (known === undefined) return { problem: `media_type ${quoted(cell)} is not one of ${MEDIA_TYPE_VALUES.join(', ')}; read as "unknown"` };
  return { value: known };
}

export function playlistKind(cell: string): Conversion<PlaylistKind> {
  const text = cell.trim();
  if (text === '') return { value: 'PLAYLIST' };
  const known = PLAYLIST_KIND_VALUES.find((kind) => kind === text);
  if (known === undefined) return { problem: `playlist_kind ${quoted(cell)} is not one of ${PLAYLIST_KIND_VALUES.join(', ')}; read as PLAYLIST` };
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
