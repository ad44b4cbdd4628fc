import { formatKit, PLAYLIST_KINDS } from '@opl/plugin-sdk';

/**
 * The universal Track and Playlist fields as compact checks, for reading bundles without zod
 * (which would make the plugin bundle many times larger). Each mirrors its zod counterpart in
 * plugin-sdk/src/model.schema.ts, never looser: what passes here passes the host's validation of
 * the parse result. A test holds the field lists equal to the zod shapes.
 */

/** What is wrong with a present value, or null when it is fine. */
export type Check = (value: unknown) => string | null;

export interface FieldSpec {
  readonly check: Check;
  /** Absent optional fields are left absent: the host's validation fills in the model's defaults. */
  readonly required?: true;
}

export type FieldTable = ReadonlyMap<string, FieldSpec>;

/** As the model's datetime: RFC 3339 with seconds and a `Z` or `±hh:mm` offset, and a real calendar date. */
const DATE_TIME =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8])))T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;
const RELEASE_DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const text =
  (max: number, min = 0): Check =>
  (value) =>
    typeof value !== 'string' ? 'must be a string' : value.length > max ? `must be at most ${max} characters` : value.length < min ? 'must not be empty' : null;
const nullable =
  (check: Check): Check =>
  (value) =>
    value === null ? null : check(value);
const integer: Check = (value) => (typeof value === 'number' && Number.isSafeInteger(value) ? null : 'must be an integer');
const count: Check = (value) => integer(value) ?? ((value as number) < 0 ? 'must not be negative' : null);
const boolean: Check = (value) => (typeof value === 'boolean' ? null : 'must be true or false');
const duration: Check = (value) =>
  typeof value !== 'number' || !Number.isFinite(value) ? 'must be a number' : value < 0 || value > 1_000_000 ? 'must be between 0 and 1000000 seconds' : null;
const matching =
  (pattern: RegExp, what: string): Check =>
  (value) =>
    typeof value === 'string' && pattern.test(value) ? null : `must be ${what}`;
const oneOf =
  (values: readonly string[]): Check =>
  (value) =>
    typeof value === 'string' && values.includes(value) ? null : `must be one of ${values.join(', ')}`;
const arrayOf =
  (item: Check, max: number): Check =>
  (value) => {
    if (!Array.isArray(value)) return 'must be an array';
    if (value.length > max) return `must have at most ${max} items`;
    for (const [index, entry] of value.entries()) {
      const problem = item(entry);
      if (problem !== null) return `item ${index} ${problem}`;
    }
    return null;
  };
const recordOf =
  (keyMax: number, item: Check | null): Check =>
  (value) => {
    if (!isRecord(value)) return 'must be an object';
    for (const key of Object.keys(value)) {
      if (key.length > keyMax) return `has a key longer than ${keyMax} characters`;
      const problem = item === null ? null : item(value[key]);
      if (problem !== null) return `key ${JSON.stringify(key.slice(0, 100))} ${problem}`;
    }
    return null;
  };

const creditFields: readonly (readonly [string, Check, boolean])[] = [
  ['role', text(200, 1), true],
  ['name', text(1_000, 1), true],
  ['instrument', nullable(text(10_000)), false],
  ['uri', nullable(text(10_000)), false],
];
const credit: Check = (value) => {
  if (!isRecord(value)) return 'must be an object';
  for (const [key, check, required] of creditFields) {
    const field = Object.hasOwn(value, key) ? value[key] : undefined;
    if (field === undefined) {
      if (required) return `needs a ${key}`;
      continue;
    }
    const problem = check(field);
    if (problem !== null) return `${key} ${problem}`;
  }
  return null;
};

const nullableText: FieldSpec = { check: nullable(text(10_000)) };
const nullableInteger: FieldSpec = { check: nullable(integer) };
const nullableBoolean: FieldSpec = { check: nullable(boolean) };
const dateTime: FieldSpec = { check: nullable(matching(DATE_TIME, 'an RFC 3339 date-time with seconds and an offset')) };
const providerUris: FieldSpec = { check: recordOf(100, text(2_000)) };
const metadata: FieldSpec = { check: recordOf(200, null) };

export const TRACK_FIELDS: FieldTable = new Map<string, FieldSpec>([
  ['id', nullableText],
  ['title', { check: text(2_000), required: true }],
  ['artist', { check: text(2_000), required: true }],
  ['artists', { check: arrayOf(text(1_000), 100) }],
  ['album', nullableText],
  ['duration_s', { check: nullable(duration) }],
  ['isrc', { check: nullable(text(32)) }],
  ['release_date', { check: nullable(matching(RELEASE_DATE, 'YYYY, YYYY-MM or YYYY-MM-DD')) }],
  ['release_year', nullableInteger],
  ['genre', nullableText],
  ['track_number', nullableInteger],
  ['disc_number', nullableInteger],
  ['explicit', nullableBoolean],
  ['composer', nullableText],
  ['credits', { check: arrayOf(credit, 500) }],
  ['label', nullableText],
  ['artwork_uri', nullableText],
  ['provider_uris', providerUris],
  ['metadata', metadata],
  ['media_type', { check: oneOf(formatKit.MEDIA_TYPE_VALUES) }],
  ['is_local', { check: boolean }],
  ['position', nullableInteger],
  ['is_migratable', { check: boolean }],
  ['unsupported_reason', nullableText],
  ['source_item_id', nullableText],
  ['added_at', dateTime],
  ['source_position', nullableInteger],
  ['provider_metadata', metadata],
]);

/** Every Playlist field except `tracks`, which the reader walks track by track. */
export const PLAYLIST_FIELDS: FieldTable = new Map<string, FieldSpec>([
  ['id', nullableText],
  ['name', { check: text(1_000), required: true }],
  ['description', nullableText],
  ['photo', nullableText],
  ['track_count', { check: nullable(count) }],
  ['owner_id', nullableText],
  ['owner_name', nullableText],
  ['created_at', dateTime],
  ['updated_at', dateTime],
  ['kind', { check: oneOf(PLAYLIST_KINDS) }],
  ['artwork_uri', nullableText],
  ['snapshot_id', nullableText],
  ['is_owned', nullableBoolean],
  ['is_followed', nullableBoolean],
  ['collaborative', nullableBoolean],
  ['provider_uris', providerUris],
  ['metadata', metadata],
]);
