import { providerKit } from '@opl/plugin-sdk';

/**
 * Builds Deezer search queries. ISRCs are looked up directly (`/track/isrc:…`); structured text
 * searches use Deezer's advanced syntax (`artist:"…" track:"…" album:"…"`) so words of a title
 * never match in another field; free text is passed as typed. Quotes are stripped from values
 * because they would end the quoted field early.
 */

/** At most this many candidates are asked for. */
export const MAX_SEARCH_LIMIT = 25;

function clean(value: string): string {
  return value.replace(/["\u201c\u201d]/g, ' ').replace(/\s+/g, ' ').trim();
}

function field(name: string, value: string | null): string | null {
  if (value === null) return null;
  const cleaned = clean(value);
  return cleaned === '' ? null : `${name}:"${cleaned}"`;
}

/** The normalized ISRC, or null when it cannot be one. */
export function normalizeIsrc(isrc: string): string | null {
  const normalized = isrc.replace(/[\s-]/g, '').toUpperCase();
  return /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/.test(normalized) ? normalized : null;
}

export interface TextSearch {
  readonly text: string | null;
  readonly title: string | null;
  readonly artist: string | null;
  readonly album: string | null;
}

/** The `q` for a track search, or null when there is nothing to search for. */
export function trackQuery(query: TextSearch): string | null {
  const parts = [field('artist', query.artist), field('track', query.title), field('album', query.album)].filter((part): part is string => part !== null);
  if (parts.length > 0) return parts.join(' ');
  const free = query.text === null ? '' : clean(query.text);
  return free === '' ? null : free;
}

export function albumQuery(query: { title: string; artist: string | null }): string | null {
  const parts = [field('artist', query.artist), field('album', query.title)].filter((part): part is string => part !== null);
  return parts.length === 0 ? null : parts.join(' ');
}

export function searchLimit(requested: number): number {
  return providerKit.clampPageSize(requested, MAX_SEARCH_LIMIT);
}
