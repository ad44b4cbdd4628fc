import type { Track } from '@opl/plugin-sdk';
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
 * else its ISRC, else its normalised title, artist and duration.
 */
export function sourceKeyOf(track: Track): string {
  const id = linkableId(track);
  if (id) return `id:${id}`;
  const isrc = normalizeIsrc(track.isrc);
  if (isrc) return `isrc:${isrc}`;
  const words = (text: string | null) => (text ? normalizeText(text).tokens.join(' ') : '');
  const duration = track.duration_s === null ? '' : String(Math.round(track.duration_s));
  return `text:${words(track.title)}|${words(track.artist)}|${duration}`.slice(0, 1_000);
}

export function accountScope(accountId: string): string {
  if (!accountId) throw new Error('an account id is required for an overlay scope');
  return `account:${accountId}`;
}
