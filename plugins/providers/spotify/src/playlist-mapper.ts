import type { PlaylistInput } from '@opl/plugin-sdk';
import { flag, integer, nonEmpty, record, text } from './json-read.ts';
import { artworkOf } from './track-mapper.ts';

/**
 * Spotify PlaylistObject / SimplifiedPlaylistObject → universal Playlist (without tracks: items
 * are paged separately). Ownership needs the current user's id, which the caller reads from `/me`.
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Spotify returns playlist descriptions HTML-escaped (`&#x27;`, `&amp;`); the model wants text. */
export function decodeDescription(value: string): string {
  return value.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) {
      const code = Number.parseInt(name.slice(2), 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    if (name.startsWith('#')) {
      const code = Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The item count: `items.total` (current), else the deprecated `tracks.total`. */
function itemCount(playlist: Record<string, unknown>): number | null {
  const count = integer(record(playlist['items'])?.['total']) ?? integer(record(playlist['tracks'])?.['total']);
  return count !== null && count >= 0 ? count : null;
}

export function mapPlaylist(value: unknown, currentUserId: string | null): PlaylistInput {
  const playlist = record(value) ?? {};
  const owner = record(playlist['owner']);
  const ownerId = nonEmpty(owner?.['id']);
  const description = nonEmpty(playlist['description']);
  const artwork = artworkOf(playlist['images']);
  const uri = nonEmpty(playlist['uri']);
  const isOwned = currentUserId !== null && ownerId !== null ? ownerId === currentUserId : null;
  const metadata: Record<string, unknown> = {};
  const isPublic = flag(playlist['public']);
  if (isPublic !== null) metadata['public'] = isPublic;
  const url = nonEmpty(record(playlist['external_urls'])?.['spotify']);
  if (url) metadata['spotify_url'] = url;
  const followers = integer(record(playlist['followers'])?.['total']);
  if (followers !== null) metadata['followers'] = followers;
  return {
    id: nonEmpty(playlist['id']),
    name: text(playlist['name']) ?? '',
    description: description ? decodeDescription(description) : null,
    photo: artwork,
    artwork_uri: artwork,
    track_count: itemCount(playlist),
    owner_id: ownerId,
    owner_name: nonEmpty(owner?.['display_name']),
    kind: 'PLAYLIST',
    snapshot_id: nonEmpty(playlist['snapshot_id']),
    is_owned: isOwned,
    // Everything `/me/playlists` lists is in the library; "followed" means in it without owning it.
    is_followed: isOwned === null ? null : !isOwned,
    collaborative: flag(playlist['collaborative']),
    provider_uris: uri ? { spotify: uri } : {},
    metadata,
  };
}
