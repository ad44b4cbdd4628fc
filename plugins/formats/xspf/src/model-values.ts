import type { PlaylistKind, Track } from '@opl/plugin-sdk';
import { MAX_JSON_DEPTH, TOO_DEEPLY_NESTED, valueNestsDeeper } from './json-depth.ts';

/**
 * Checks of values read from a file against the model schema the host validates parse results
 * with (one violation there would fail the whole import): each returns the value or a problem
 * that the reader reports as a warning, leaving the field at its default.
 */

/** `code`: the issue code when it is not `invalid_value`. */
export type Checked<T> = { readonly value: T; readonly problem?: undefined } | { readonly value?: undefined; readonly problem: string; readonly code?: string };

export const LIMITS = { text: 10_000, title: 2_000, name: 1_000, isrc: 32, providerKey: 100, providerUri: 2_000, metadataKey: 200, artists: 100, credits: 500, maxDurationSeconds: 1_000_000 } as const;

const MEDIA_TYPES = { track: true, episode: true, video: true, local_file: true, unknown: true } satisfies Record<Track['media_type'], true>;
const PLAYLIST_KINDS = { PLAYLIST: true, LIKED_TRACKS: true } satisfies Record<PlaylistKind, true>;

export function shown(text: string): string {
  return `"${text.length > 40 ? `${text.slice(0, 40)}…` : text}"`;
}

/** A whole number the model accepts: a safe integer (up to 16 digits, as the writer writes 9007199254740991). */
export function integer(text: string): Checked<number> {
  const number = /^\s*-?\d{1,16}\s*$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(number) ? { value: number } : { problem: `${shown(text)} is not a whole number` };
}

/** A whole number of things (`track_count`): the model requires it to be at least 0. */
export function count(text: string): Checked<number> {
  const checked = integer(text);
  if (checked.problem !== undefined) return checked;
  return checked.value < 0 ? { problem: `${shown(text)} is negative, and a count cannot be` } : checked;
}

/**
 * Seconds as JavaScript writes a number (`String(value)`, which the writer uses): decimals with up
 * to 17 significant digits (`0.30000000000000004`), and the exponent form of tiny ones (`1e-7`),
 * so that every duration reads back exactly.
 */
export function durationSeconds(text: string): Checked<number> {
  const seconds = /^\s*\d{1,15}(?:\.\d{1,30})?(?:e-\d{1,3})?\s*$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isNaN(seconds)) return { problem: `${shown(text)} is not a number of seconds` };
  return seconds > LIMITS.maxDurationSeconds ? { problem: `${shown(text)} seconds is longer than the model allows` } : { value: seconds };
}

export function boolean(text: string): Checked<boolean> {
  const trimmed = text.trim();
  return trimmed === 'true' || trimmed === 'false' ? { value: trimmed === 'true' } : { problem: `${shown(text)} is not true or false` };
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** An RFC 3339 timestamp with an explicit offset, on a real calendar date (what the model accepts). */
export function dateTime(text: string): Checked<string> {
  const trimmed = text.trim();
  const match = DATE_TIME.exec(trimmed);
  const month = Number(match?.[2]);
  const day = Number(match?.[3]);
  if (!match || month < 1 || month > 12 || day < 1 || day > daysInMonth(Number(match[1]), month)) {
    return { problem: `${shown(text)} is not a timestamp with a time zone such as 2024-05-01T12:00:00Z` };
  }
  return { value: trimmed };
}

export function releaseDate(text: string): Checked<string> {
  const trimmed = text.trim();
  return /^\d{4}(-\d{2}(-\d{2})?)?$/.test(trimmed) ? { value: trimmed } : { problem: `${shown(text)} is not YYYY, YYYY-MM or YYYY-MM-DD` };
}

export function mediaType(text: string): Checked<Track['media_type']> {
  const trimmed = text.trim();
  return Object.hasOwn(MEDIA_TYPES, trimmed) ? { value: trimmed as Track['media_type'] } : { problem: `${shown(text)} is not one of ${Object.keys(MEDIA_TYPES).join(', ')}` };
}

export function playlistKind(text: string): Checked<PlaylistKind> {
  const trimmed = text.trim();
  return Object.hasOwn(PLAYLIST_KINDS, trimmed) ? { value: trimmed as PlaylistKind } : { problem: `${shown(text)} is not one of ${Object.keys(PLAYLIST_KINDS).join(', ')}` };
}

/**
 * A JSON object (metadata): keys within the model's bound, nested no deeper than the JSON plugin
 * accepts (json-depth.ts). Too deep, only this field is left empty: the track and its neighbours
 * are valid, and one field of free-form extras is no reason to refuse the whole file.
 */
export function metadataObject(value: unknown): Checked<Record<string, unknown>> {
  if (value === TOO_DEEPLY_NESTED || valueNestsDeeper(value)) {
    return { problem: `nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep, more than the engine keeps`, code: 'too_deeply_nested' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { problem: 'is not a JSON object' };
  const long = Object.keys(value).find((key) => key.length > LIMITS.metadataKey);
  return long === undefined ? { value: value as Record<string, unknown> } : { problem: `has a key longer than ${LIMITS.metadataKey} characters` };
}
