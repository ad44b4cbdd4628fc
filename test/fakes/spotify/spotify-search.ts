import { seedCatalog, type SeedAlbum, type SeedArtist } from '../seed-catalog.ts';
import type { SpotifyCatalog, SpotifyCatalogEntry } from './spotify-catalog.ts';

/**
 * The search query language of `/search`: free words plus field filters (`track:`, `artist:`,
 * `album:`, `isrc:`, `upc:`, `year:`), a filter's value being one word or a quoted phrase. Matching
 * is deliberately simple and deterministic: case- and accent-insensitive substring tests, every
 * free word must appear somewhere in the item, results in catalogue order.
 */

export interface ParsedQuery {
  readonly words: readonly string[];
  readonly filters: ReadonlyMap<string, string>;
}

const FILTERS = new Set(['track', 'artist', 'album', 'isrc', 'upc', 'year', 'genre']);

export function normalize(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

export function parseQuery(q: string): ParsedQuery {
  const words: string[] = [];
  const filters = new Map<string, string>();
  const pattern = /(?:([a-z]+):)?(?:"([^"]*)"|(\S+))/gi;
  for (const match of q.matchAll(pattern)) {
    const field = match[1]?.toLowerCase();
    const value = match[2] ?? match[3] ?? '';
    if (field && FILTERS.has(field)) filters.set(field, value);
    else if (field) words.push(`${field}:${value}`);
    else words.push(value);
  }
  return { words: words.map(normalize).filter(Boolean), filters };
}

function contains(haystack: string, needle: string): boolean {
  return normalize(haystack).includes(normalize(needle));
}

function yearMatches(filter: string, date: string): boolean {
  const year = Number(date.slice(0, 4));
  const range = /^(\d{4})-(\d{4})$/.exec(filter);
  if (range) return year >= Number(range[1]) && year <= Number(range[2]);
  return String(year) === filter;
}

export function searchTracks(catalog: SpotifyCatalog, query: ParsedQuery): SpotifyCatalogEntry[] {
  const { albums } = seedCatalog();
  return catalog.tracks().filter(({ seed }) => {
    const album = albums.get(seed.albumKey)!;
    const artistNames = seed.artistKeys.map((key) => catalog.artistName(key));
    const isrc = query.filters.get('isrc');
    if (isrc !== undefined && (seed.isrc ?? '').toUpperCase() !== isrc.toUpperCase()) return false;
    const track = query.filters.get('track');
    if (track !== undefined && !contains(seed.title, track)) return false;
    const artist = query.filters.get('artist');
    if (artist !== undefined && !artistNames.some((name) => contains(name, artist))) return false;
    const albumFilter = query.filters.get('album');
    if (albumFilter !== undefined && !contains(album.title, albumFilter)) return false;
    const year = query.filters.get('year');
    if (year !== undefined && !yearMatches(year, album.releaseDate)) return false;
    const text = normalize([seed.title, ...artistNames, album.title].join(' '));
    return query.words.every((word) => text.includes(word));
  });
}

export function searchAlbums(catalog: SpotifyCatalog, query: ParsedQuery): SeedAlbum[] {
  return catalog.albums().filter((album) => {
    if (album.title === 'The Long Listen (podcast)') return false;
    const artistNames = album.artistKeys.map((key) => catalog.artistName(key));
    const upc = query.filters.get('upc');
    if (upc !== undefined && album.upc !== upc) return false;
    const title = query.filters.get('album');
    if (title !== undefined && !contains(album.title, title)) return false;
    const artist = query.filters.get('artist');
    if (artist !== undefined && !artistNames.some((name) => contains(name, artist))) return false;
    const year = query.filters.get('year');
    if (year !== undefined && !yearMatches(year, album.releaseDate)) return false;
    const text = normalize([album.title, ...artistNames].join(' '));
    return query.words.every((word) => text.includes(word));
  });
}

export function searchArtists(catalog: SpotifyCatalog, query: ParsedQuery): SeedArtist[] {
  return catalog.artists().filter((artist) => {
    const name = query.filters.get('artist');
    if (name !== undefined && !contains(artist.name, name)) return false;
    const text = normalize(artist.name);
    return query.words.every((word) => text.includes(word));
  });
}
