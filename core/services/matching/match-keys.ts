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
 * artist, by its first provider URI.
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
    const uri = formatKit.pickSourceUri(track.provider_uris, null);
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
