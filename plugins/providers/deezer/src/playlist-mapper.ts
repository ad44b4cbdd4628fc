import type { PlaylistInput } from '@opl/plugin-sdk';
import { flag, idOf, integer, nonEmpty, record, text, unixTime } from './json-read.ts';
import { deezerUri } from './deezer-uri.ts';
import { coverOf } from './track-mapper.ts';

/**
 * Deezer playlist objects (library listing and full playlist) → universal Playlist without tracks
 * (those are paged separately). `checksum` changes with the track list, so it is the snapshot id.
 * The "Loved tracks" playlist (`is_loved_track`) is the favourites collection, not an ordinary
 * playlist: it is marked `LIKED_TRACKS`.
 */

export function mapPlaylist(value: unknown, currentUserId: string | null): PlaylistInput {
  const playlist = record(value) ?? {};
  const id = idOf(playlist['id']);
  const creator = record(playlist['creator']) ?? record(playlist['user']);
  const ownerId = idOf(creator?.['id']);
  const isOwned = currentUserId !== null && ownerId !== null ? ownerId === currentUserId : null;
  const artwork = coverOf(playlist, 'picture');
  const metadata: Record<string, unknown> = {};
  const isPublic = flag(playlist['public']);
  if (isPublic !== null) metadata['public'] = isPublic;
  const link = nonEmpty(playlist['link']);
  if (link) metadata['deezer_url'] = link;
  const created = nonEmpty(playlist['creation_date']);
  if (created) metadata['creation_date'] = created;
  const fans = integer(playlist['fans']);
  if (fans !== null) metadata['fans'] = fans;
  const count = integer(playlist['nb_tracks']);
  return {
    id,
    name: text(playlist['title']) ?? '',
    description: nonEmpty(playlist['description']),
    photo: artwork,
    artwork_uri: artwork,
    track_count: count !== null && count >= 0 ? count : null,
    owner_id: ownerId,
    owner_name: nonEmpty(creator?.['name']),
    updated_at: unixTime(playlist['time_mod']),
    kind: playlist['is_loved_track'] === true ? 'LIKED_TRACKS' : 'PLAYLIST',
    snapshot_id: nonEmpty(playlist['checksum']) ?? nonEmpty(record(playlist['tracks'])?.['checksum']),
    is_owned: isOwned,
    // Everything the library lists is in it; "followed" means in it without owning it.
    is_followed: isOwned === null ? null : !isOwned,
    collaborative: flag(playlist['collaborative']),
    provider_uris: id ? { deezer: deezerUri('playlist', id) } : {},
    metadata,
  };
}
