import { providerKit } from '@opl/plugin-sdk';

/**
 * Builds `/search` queries. ISRC lookups use the `isrc:` filter; structured text searches use the
 * `track:`, `artist:` and `album:` filters with quoted values, so words of a title never leak
 * into other fields; free text is passed as typed. Quotes and field-like prefixes are stripped from
 * values because they would change the query's meaning.
 */

/** Spotify answers at most 10 results per type and request. */
export const MAX_SEARCH_LIMIT = 10;

function clean(value: string): string {
  return value.replace(/["\u201c\u201d]/g, ' ').replace(/\s+/g, ' ').trim();
}

function filter(field: string, value: string | null): string | null {
  if (value === null) return null;
  const cleaned = clean(value);
  return cleaned === '' ? null : `${field}:"${cleaned}"`;
}

export function isrcQuery(isrc: string): string | null {
  const normalized = isrc.replace(/[\s-]/g, '').toUpperCase();
  return /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/.test(normalized) ? `isrc:${normalized}` : null;
}

export interface TextSearch {
  readonly text: string | null;
  readonly title: string | null;
  readonly artist: string | null;
  readonly album: string | null;
}

/** The `q` for a text search, or null when there is nothing to search for. */
export function textQuery(query: TextSearch): string | null {
  const parts = [filter('track', query.title), filter('artist', query.artist), filter('album', query.album)].filter((part): part is string => part !== null);
  if (parts.length === 0) {
    const free = query.text === null ? '' : clean(query.text);
    return free === '' ? null : free;
  }
  return parts.join(' ');
}

export function albumQuery(query: { title: string; artist: string | null; upc: string | null }): string | null {
  const upc = query.upc?.replace(/\D/g, '') ?? '';
  if (upc.length >= 12) return `upc:${upc}`;
  const parts = [filter('album', query.title), filter('artist', query.artist)].filter((part): part is string => part !== null);
  return parts.length === 0 ? null : parts.join(' ');
}

export function searchLimit(requested: number): number {
  return providerKit.clampPageSize(requested, MAX_SEARCH_LIMIT);
}
