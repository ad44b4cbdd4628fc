import { escapeXmlAttribute, escapeXmlText, formatKit } from '@opl/plugin-sdk';
import { boolean, count, dateTime, durationSeconds, integer, LIMITS, mediaType, metadataObject, playlistKind, releaseDate, type Checked } from './model-values.ts';
import { textParts, XML_LIMITS } from './xml-limits.ts';

/**
 * The Open Playlist v1 extension: the model fields XSPF's own elements cannot carry, one element
 * each, named as the model field (`<opl:isrc>`), inside `<extension application="…">`. A field
 * at its default (null, false for `is_local`, …) is left out. When a track or playlist has this
 * extension, it is authoritative for every field it covers (a missing element means the default);
 * the standard elements carry the rest (title, creator, album, image, duration, trackNum,
 * annotation, date). Where a standard element cannot carry a value exactly — a title that begins
 * or ends with white space holding a line break (which the reader takes for layout), an
 * artwork URI with spaces around it, empty or no URI — the extension repeats it (`opl:title`,
 * `opl:artist`, `opl:album`, `opl:artwork_uri`; a playlist's `opl:name`, `opl:owner_name`,
 * `opl:description`, `opl:artwork_uri`) and wins over the element.
 *
 * Value forms: text as is; numbers in decimal (`count`: a whole number of at least 0, as the
 * model's `track_count` must be — a negative one is reported and left empty, not fatal); booleans `true`/`false`; `artists` as
 * `<opl:artist>` children; `credits` as `<opl:credit role name instrument? uri?/>` children;
 * `provider_uris` as `<opl:uri provider="key">uri</opl:uri>` children; `metadata` and
 * `provider_metadata` as JSON text. A text longer than the reader accepts in one element (the
 * model does not bound `metadata`, nor a date-time's fractional digits) is written as consecutive
 * `<opl:part>` children, joined when read (xml-limits.ts). JSPF carries the same fields as JSON
 * values under `extension[<namespace>][0]`.
 */

export type FieldKind = 'text' | 'int' | 'count' | 'seconds' | 'bool' | 'datetime' | 'date' | 'media_type' | 'playlist_kind' | 'json' | 'artists' | 'credits' | 'uris';

export interface FieldSpec {
  readonly field: string;
  readonly kind: FieldKind;
  /** Longest text (for `text`). */
  readonly max?: number;
  /** The model default when not null. */
  readonly fallback?: unknown;
}

export const TRACK_FIELDS: readonly FieldSpec[] = [
  /** These four only when the standard element cannot carry them exactly (see xspf-writer.ts). */
  { field: 'title', kind: 'text', max: LIMITS.title },
  { field: 'artist', kind: 'text', max: LIMITS.title },
  { field: 'album', kind: 'text' },
  { field: 'artwork_uri', kind: 'text' },
  { field: 'id', kind: 'text' },
  { field: 'artists', kind: 'artists' },
  { field: 'duration_s', kind: 'seconds' },
  { field: 'isrc', kind: 'text', max: LIMITS.isrc },
  { field: 'release_date', kind: 'date' },
  { field: 'release_year', kind: 'int' },
  { field: 'genre', kind: 'text' },
  { field: 'track_number', kind: 'int' },
  { field: 'disc_number', kind: 'int' },
  { field: 'explicit', kind: 'bool' },
  { field: 'composer', kind: 'text' },
  { field: 'credits', kind: 'credits' },
  { field: 'label', kind: 'text' },
  { field: 'provider_uris', kind: 'uris' },
  { field: 'metadata', kind: 'json' },
  { field: 'media_type', kind: 'media_type', fallback: 'track' },
  { field: 'is_local', kind: 'bool', fallback: false },
  { field: 'is_migratable', kind: 'bool', fallback: true },
  { field: 'unsupported_reason', kind: 'text' },
  { field: 'source_item_id', kind: 'text' },
  { field: 'added_at', kind: 'datetime' },
  { field: 'source_position', kind: 'int' },
  { field: 'provider_metadata', kind: 'json' },
];

export const PLAYLIST_FIELDS: readonly FieldSpec[] = [
  /** These four only when the standard element cannot carry them exactly (see xspf-writer.ts). */
  { field: 'name', kind: 'text', max: LIMITS.name },
  { field: 'owner_name', kind: 'text' },
  { field: 'description', kind: 'text' },
  { field: 'artwork_uri', kind: 'text' },
  { field: 'id', kind: 'text' },
  { field: 'photo', kind: 'text' },
  { field: 'track_count', kind: 'count' },
  { field: 'owner_id', kind: 'text' },
  /** Only when `<date>` cannot carry it (longer than a text the reader accepts); see xspf-writer.ts. */
  { field: 'created_at', kind: 'datetime' },
  { field: 'updated_at', kind: 'datetime' },
  { field: 'kind', kind: 'playlist_kind', fallback: 'PLAYLIST' },
  { field: 'snapshot_id', kind: 'text' },
  { field: 'is_owned', kind: 'bool' },
  { field: 'is_followed', kind: 'bool' },
  { field: 'collaborative', kind: 'bool' },
  { field: 'provider_uris', kind: 'uris' },
  { field: 'metadata', kind: 'json' },
];

/** True when `value` is the field's default, which the extension leaves out. */
export function isDefault(spec: FieldSpec, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (spec.fallback !== undefined) return value === spec.fallback;
  if (spec.kind === 'artists' || spec.kind === 'credits') return Array.isArray(value) && value.length === 0;
  if (spec.kind === 'uris' || spec.kind === 'json') return typeof value === 'object' && Object.keys(value).length === 0;
  return false;
}

interface Credit {
  readonly role: string;
  readonly name: string;
  readonly instrument: string | null;
  readonly uri: string | null;
}

/** A text field's element: the text itself, or its `<opl:part>` pieces when one element could not hold it. */
function textXml(indent: string, tag: string, text: string): string {
  if (text.length <= XML_LIMITS.maxTextLength) return `${indent}<${tag}>${escapeXmlText(text)}</${tag}>\n`;
  return `${indent}<${tag}>\n${textParts(text).map((part) => `${indent}  <opl:part>${escapeXmlText(part)}</opl:part>\n`).join('')}${indent}</${tag}>\n`;
}

/**
 * JSON text XML can carry whole: `JSON.stringify` leaves U+FFFE and U+FFFF as they are, which XML
 * cannot hold (the writer would strip them), so they are written as JSON escapes. They can only
 * stand inside JSON strings, where `\ufffe` means the same.
 */
function jsonText(value: unknown): string {
  return JSON.stringify(value).replace(/[\uFFFE\uFFFF]/g, (char) => `\\u${char.charCodeAt(0).toString(16)}`);
}

/** One extension element (two-space indent levels given by `indent`), or '' for a default value. */
export function fieldXml(spec: FieldSpec, value: unknown, indent: string): string {
  if (isDefault(spec, value)) return '';
  const tag = `opl:${spec.field}`;
  const inner = `${indent}  `;
  switch (spec.kind) {
    case 'artists':
      return `${indent}<${tag}>\n${(value as string[]).map((name) => `${inner}<opl:artist>${escapeXmlText(name)}</opl:artist>\n`).join('')}${indent}</${tag}>\n`;
    case 'credits':
      return `${indent}<${tag}>\n${(value as Credit[])
        .map((credit) => {
          const optional = (credit.instrument === null ? '' : ` instrument="${escapeXmlAttribute(credit.instrument)}"`) + (credit.uri === null ? '' : ` uri="${escapeXmlAttribute(credit.uri)}"`);
          return `${inner}<opl:credit role="${escapeXmlAttribute(credit.role)}" name="${escapeXmlAttribute(credit.name)}"${optional}/>\n`;
        })
        .join('')}${indent}</${tag}>\n`;
    case 'uris': {
      const uris = value as Record<string, string>;
      const keys = Object.keys(uris).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return `${indent}<${tag}>\n${keys.map((key) => `${inner}<opl:uri provider="${escapeXmlAttribute(key)}">${escapeXmlText(uris[key]!)}</opl:uri>\n`).join('')}${indent}</${tag}>\n`;
    }
    case 'json':
      return textXml(indent, tag, jsonText(value));
    case 'bool':
      return `${indent}<${tag}>${value === true ? 'true' : 'false'}</${tag}>\n`;
    default:
      return textXml(indent, tag, String(value));
  }
}

/**
 * A field's value as a reader found it: scalars as text, `json` as a parsed value, `artists` as
 * names, `credits` as attribute records, `uris` as [provider, uri] pairs.
 */
export type RawField = unknown;

function optionalText(value: unknown, max: number): string | null | undefined {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' && value.length <= max ? value : undefined;
}

function decodeCredits(raw: unknown): Checked<Credit[]> {
  if (!Array.isArray(raw) || raw.length > LIMITS.credits) return { problem: `is not a list of at most ${LIMITS.credits} credits` };
  const credits: Credit[] = [];
  for (const item of raw as unknown[]) {
    const record = (item ?? {}) as Record<string, unknown>;
    const { role, name } = record;
    const instrument = optionalText(record.instrument, LIMITS.text);
    const uri = optionalText(record.uri, LIMITS.text);
    if (typeof role !== 'string' || role === '' || role.length > 200 || typeof name !== 'string' || name === '' || name.length > 1_000 || instrument === undefined || uri === undefined) {
      return { problem: 'has a credit without a role and a name (or with values too long)' };
    }
    credits.push({ role, name, instrument, uri });
  }
  return { value: credits };
}

function decodeUris(raw: unknown): Checked<Record<string, string>> {
  if (!Array.isArray(raw)) return { problem: 'is not a list of provider URIs' };
  const uris: Record<string, string> = {};
  for (const entry of raw as unknown[]) {
    const [key, uri] = Array.isArray(entry) ? (entry as unknown[]) : [];
    // An empty provider key is one the model allows (and our writer writes as `provider=""`).
    if (typeof key !== 'string' || key.length > LIMITS.providerKey || typeof uri !== 'string' || uri.length > LIMITS.providerUri) {
      return { problem: `has a provider URI without a provider (or longer than ${LIMITS.providerUri} characters)` };
    }
    uris[key] = uri;
  }
  return { value: uris };
}

/** The model value of one field, or the problem with what the file holds. */
export function decodeField(spec: FieldSpec, raw: RawField): Checked<unknown> & { readonly truncated?: boolean } {
  if (spec.kind === 'json') return metadataObject(raw);
  if (spec.kind === 'credits') return decodeCredits(raw);
  if (spec.kind === 'uris') return decodeUris(raw);
  if (spec.kind === 'artists') {
    const ok = Array.isArray(raw) && raw.length <= LIMITS.artists && (raw as unknown[]).every((name) => typeof name === 'string' && name.length <= 1_000);
    return ok ? { value: raw } : { problem: `is not a list of at most ${LIMITS.artists} artist names` };
  }
  if (typeof raw !== 'string') return { problem: 'is not a single value' };
  switch (spec.kind) {
    case 'int':
      return integer(raw);
    case 'count':
      return count(raw);
    case 'seconds':
      return durationSeconds(raw);
    case 'bool':
      return boolean(raw);
    case 'datetime':
      return dateTime(raw);
    case 'date':
      return releaseDate(raw);
    case 'media_type':
      return mediaType(raw);
    case 'playlist_kind':
      return playlistKind(raw);
    default: {
      const { value, truncated } = formatKit.boundedText(raw, spec.max ?? LIMITS.text);
      return { value, truncated };
    }
  }
}
