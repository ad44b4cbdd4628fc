import { formatKit, type Track } from '@opl/plugin-sdk';
import { normalizeText } from '../../matching/index.ts';

/** ISRCs compare without case, spaces or hyphens; anything that is not 12 characters is not one. */
export function normalizeIsrc(isrc: string | null | undefined): string | null {
  if (!isrc) return null;
  const compact = isrc.replace(/[\s-]/g, '').toUpperCase();
  return /^[A-Z0-9]{12}$/.test(compact) ? compact : null;
}

/**
 * Whether a track's provider id may enter the global graph: local files (their ids can be file
 * paths, i.e. personal data) and entries without an id never do.
 */
export function linkableId(track: Track): string | null {
  return track.is_local || !track.id ? null : track.id;
}

/**
 * The key a source track is remembered by in the no-match cache and in denials: its provider id,
 * else its ISRC, else its normalised title, artist and duration; a track with neither title nor
 * artist, by its first provider URI, else by the web link a file kept for it (`keptLinks`).
 */
export function sourceKeyOf(track: Track): string {
  const id = linkableId(track);
  if (id) return `id:${id}`;
  const isrc = normalizeIsrc(track.isrc);
  if (isrc) return `isrc:${isrc}`;
  const words = (text: string | null) => (text ? normalizeText(text).tokens.join(' ') : '');
  const title = words(track.title);
  const artist = words(track.artist);
  // A pasted link alone on its line has no words: each link is its own song, not one shared
  // empty key (a skip or a denial for one would otherwise apply to every such entry).
  if (title === '' && artist === '') {
    // The first provider key in code-unit order: stable whatever order the file had.
    const uri = formatKit.pickSourceUri(track.provider_uris, null) ?? keptLinks(track)[0] ?? null;
    if (uri !== null) return `uri:${uri}`.slice(0, 1_000);
  }
  const duration = track.duration_s === null ? '' : String(Math.round(track.duration_s));
  return `text:${title}|${artist}|${duration}`.slice(0, 1_000);
}

export function accountScope(accountId: string): string {
  if (!accountId) throw new Error('an account id is required for an overlay scope');
  return `account:${accountId}`;
}

/** Whether a text search has anything to go by: a title, an artist or an album. */
export function hasSearchText(track: Pick<Track, 'title' | 'artist' | 'album'>): boolean {
  return [track.title, track.artist, track.album].some((value) => typeof value === 'string' && value.trim() !== '');
}

/** Longest web link offered to a target's `validateUri` (the operation's own bound). */
const MAX_LINK_LENGTH = 2_000;

/**
 * The web links a file kept for a source track: `metadata.source_uri` (a CSV's source column),
 * then `metadata.location` (a playlist entry's address), each only when it is an `http(s)` link
 * the operation bounds allow. Paths and other addresses are never links.
 */
export function keptLinks(track: Pick<Track, 'metadata'>): string[] {
  const links: string[] = [];
  for (const key of ['source_uri', 'location']) {
    const kept = (track.metadata as Readonly<Record<string, unknown>> | undefined)?.[key];
    if (typeof kept === 'string' && kept.length <= MAX_LINK_LENGTH && /^https?:\/\/\S+$/i.test(kept) && !links.includes(kept)) links.push(kept);
  }
  return links;
}

/**
 * The links a source track names itself by, for the target to recognise as one of its tracks: its
 * URI under the target's key first, then the web links a file kept for it (`keptLinks`). Only the
 * target's plugin knows its own links (a YouTube Music song is `https://music.youtube.com/watch?v=…`,
 * a Deezer one `https://www.deezer.com/track/…`), so readers keep such links as addresses and the
 * target's `validateUri` decides.
 */
export function linksOf(track: Pick<Track, 'provider_uris' | 'metadata'>, targetProvider: string): string[] {
  const own = track.provider_uris[targetProvider];
  const links = typeof own === 'string' && own !== '' ? [own] : [];
  for (const link of keptLinks(track)) if (!links.includes(link)) links.push(link);
  return links;
}

/**
 * A source track with nothing a search could use: no title, artist or album, and no ISRC the
 * target searches by. Only a link the target takes as its own track can migrate it.
 */
export function isLinkOnly(track: Pick<Track, 'title' | 'artist' | 'album' | 'isrc'>, targetSearchesIsrc: boolean): boolean {
  return !hasSearchText(track) && !(targetSearchesIsrc && normalizeIsrc(track.isrc) !== null);
}

/**
 * Every link a track names itself by, with the service each belongs to: its provider URIs (in
 * `formatKit.orderedProviders` order, by their key), then the web links a file kept for it
 * (`keptLinks`, by `formatKit.songLinkService`; null for an address of no known service).
 */
export function namedLinks(track: Pick<Track, 'provider_uris' | 'metadata'>): { service: string | null; link: string }[] {
  const links: { service: string | null; link: string }[] = [];
  for (const key of formatKit.orderedProviders(track.provider_uris, null)) {
    const uri = track.provider_uris[key];
    if (uri !== undefined && uri !== '') links.push({ service: key, link: uri });
  }
  for (const kept of keptLinks(track)) links.push({ service: formatKit.songLinkService(kept), link: kept });
  return links;
}
