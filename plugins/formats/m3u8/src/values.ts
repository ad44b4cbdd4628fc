import { formatKit, type Track } from '@opl/plugin-sdk';

/**
 * Text ⇄ model value codecs for `#OPL-*` directives. A reader returns `{ value }` or
 * `{ problem }`; the caller reports a problem as a warning and leaves the field at its default,
 * because one bad value must not cost the track. The bounds are the model schema's (the host
 * rejects a whole parse result on one violation).
 */

export type Read<T> = { readonly value: T; readonly problem?: undefined } | { readonly value?: undefined; readonly problem: string };

export interface Codec<T> {
  write(value: T): string;
  read(text: string): Read<T>;
}

const MEDIA_TYPES = { track: true, episode: true, video: true, local_file: true, unknown: true } satisfies Record<Track['media_type'], true>;

export function textCodec(max: number): Codec<string> {
  return {
    write: (value) => value,
    read: (text) => (text.length > max ? { problem: `is longer than ${max} characters` } : { value: text }),
  };
}

/**
 * Any safe integer (±9007199254740991, 16 digits), as the model allows and `String` writes them. A
 * larger one would not read back as the number written (numbers round above 2^53): refused.
 */
function safeInteger(text: string, pattern: RegExp, notANumber: string): Read<number> {
  if (!pattern.test(text)) return { problem: notANumber };
  const value = Number(text);
  return Number.isSafeInteger(value) ? { value } : { problem: `is larger than ${Number.MAX_SAFE_INTEGER} in magnitude, the largest whole number kept exactly` };
}

export const integerCodec: Codec<number> = {
  write: (value) => String(value),
  read: (text) => safeInteger(text, /^-?\d{1,16}$/, 'is not a whole number'),
};

export const countCodec: Codec<number> = {
  write: (value) => String(value),
  read: (text) => safeInteger(text, /^\d{1,16}$/, 'is not a count'),
};

export const durationCodec: Codec<number> = {
  write: (value) => String(value),
  read: (text) => {
    if (!/^\d{1,7}(?:\.\d{1,40})?(?:e[+-]?\d{1,3})?$/i.test(text)) return { problem: 'is not a number of seconds' };
    const seconds = Number(text);
    return Number.isFinite(seconds) && seconds <= 1_000_000 ? { value: seconds } : { problem: 'is longer than 1000000 seconds' };
  },
};

export const booleanCodec: Codec<boolean> = {
  write: (value) => (value ? 'true' : 'false'),
  read: (text) => (text === 'true' ? { value: true } : text === 'false' ? { value: false } : { problem: 'is neither true nor false' }),
};

/**
 * RFC 3339 with seconds and an explicit offset (`Z` or `±hh:mm`) on a real calendar date, as the
 * model requires (`Date.parse` is no check: it rolls 2023-02-29 over to March 1st).
 */
export const dateTimeCodec: Codec<string> = {
  write: (value) => value,
  read: (text) => {
    // The SDK's check trims; a value with spaces around it would still fail the host's validation.
    const valid = text === text.trim() && formatKit.dateTime(text, 'the value').problem === undefined;
    return valid ? { value: text } : { problem: 'is not an ISO 8601 timestamp with an offset' };
  },
};

export const releaseDateCodec: Codec<string> = {
  write: (value) => value,
  read: (text) => (/^\d{4}(-\d{2}(-\d{2})?)?$/.test(text) ? { value: text } : { problem: 'is not YYYY, YYYY-MM or YYYY-MM-DD' }),
};

export const mediaTypeCodec: Codec<Track['media_type']> = {
  write: (value) => value,
  read: (text) => (Object.hasOwn(MEDIA_TYPES, text) ? { value: text as Track['media_type'] } : { problem: 'is not a known media type' }),
};

export const playlistKindCodec: Codec<'PLAYLIST' | 'LIKED_TRACKS'> = {
  write: (value) => value,
  read: (text) => (text === 'PLAYLIST' || text === 'LIKED_TRACKS' ? { value: text } : { problem: 'is not a known playlist kind' }),
};

function parseJson(text: string): Read<unknown> {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { problem: 'is not valid JSON' };
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `metadata` / `provider_metadata`: a JSON object with keys of at most 200 characters. */
export const metadataCodec: Codec<Record<string, unknown>> = {
  write: (value) => JSON.stringify(value),
  read: (text) => {
    const json = parseJson(text);
    if (json.problem !== undefined) return json;
    if (!isObject(json.value) || Object.keys(json.value).some((key) => key.length > 200)) return { problem: 'is not a JSON object with keys of at most 200 characters' };
    return { value: json.value };
  },
};

/** `provider_uris`: a JSON object of strings (keys ≤ 100, URIs ≤ 2,000 characters). */
export const providerUrisCodec: Codec<Record<string, string>> = {
  write: (value) => JSON.stringify(value),
  read: (text) => {
    const json = parseJson(text);
    if (json.problem !== undefined) return json;
    const value = json.value;
    if (!isObject(value) || Object.entries(value).some(([key, uri]) => key.length > 100 || typeof uri !== 'string' || uri.length > 2_000)) return { problem: 'is not a JSON object of provider URIs' };
    return { value: value as Record<string, string> };
  },
};

export const artistsCodec: Codec<string[]> = {
  write: (value) => JSON.stringify(value),
  read: (text) => {
    const json = parseJson(text);
    if (json.problem !== undefined) return json;
    const value = json.value;
    if (!Array.isArray(value) || value.length > 100 || value.some((name) => typeof name !== 'string' || name.length > 1_000)) return { problem: 'is not a JSON array of at most 100 names' };
    return { value: value as string[] };
  },
};

const optionalText = (value: unknown, max: number): boolean => value === undefined || value === null || (typeof value === 'string' && value.length <= max);

export const creditsCodec: Codec<Track['credits']> = {
  write: (value) => JSON.stringify(value),
  read: (text) => {
    const json = parseJson(text);
    if (json.problem !== undefined) return json;
    const value = json.value;
    const valid =
      Array.isArray(value) &&
      value.length <= 500 &&
      value.every(
        (credit) =>
          isObject(credit) &&
          typeof credit.role === 'string' && credit.role.length >= 1 && credit.role.length <= 200 &&
          typeof credit.name === 'string' && credit.name.length >= 1 && credit.name.length <= 1_000 &&
          optionalText(credit.instrument, 10_000) && optionalText(credit.uri, 10_000),
      );
    if (!valid) return { problem: 'is not a JSON array of credits ({role, name, instrument, uri})' };
    return { value: (value as Track['credits']).map((credit) => ({ role: credit.role, name: credit.name, instrument: credit.instrument ?? null, uri: credit.uri ?? null })) };
  },
};
