import type { AlbumInput, ArtistInput } from '@opl/plugin-sdk';
import { idOf, integer, nonEmpty, record, records, text, unixTime } from './json-read.ts';
import { deezerUri } from './deezer-uri.ts';
import { coverOf, releaseDate } from './track-mapper.ts';

/** Deezer album and artist objects (favourites, search, lookups) → universal Album and Artist. */

export function mapAlbum(value: unknown): AlbumInput {
  const album = record(value) ?? {};
  const id = idOf(album['id']);
  const artistNames = [record(album['artist']), ...records(album['contributors'])].flatMap((artist) => (nonEmpty(artist?.['name']) ? [artist!['name'] as string] : []));
  const metadata: Record<string, unknown> = {};
  const recordType = nonEmpty(album['record_type']);
  if (recordType) metadata['record_type'] = recordType;
  const label = nonEmpty(album['label']);
  if (label) metadata['label'] = label;
  const link = nonEmpty(album['link']);
  if (link) metadata['deezer_url'] = link;
  const count = integer(album['nb_tracks']);
  const upc = nonEmpty(album['upc']);
  return {
    id,
    title: text(album['title']) ?? '',
    artists: [...new Set(artistNames)],
    ...releaseDate(album['release_date']),
    upc: upc && /^\d{8,14}$/.test(upc) ? upc : null,
    track_count: count !== null && count >= 0 ? count : null,
    artwork_uri: coverOf(album, 'cover'),
    provider_uris: id ? { deezer: deezerUri('album', id) } : {},
    metadata,
    added_at: unixTime(album['time_add']),
  };
}

export function mapArtist(value: unknown): ArtistInput {
  const artist = record(value) ?? {};
  const id = idOf(artist['id']);
  const metadata: Record<string, unknown> = {};
  const link = nonEmpty(artist['link']);
  if (link) metadata['deezer_url'] = link;
  const fans = integer(artist['nb_fan']);
  if (fans !== null) metadata['fans'] = fans;
  return {
    id,
    name: text(artist['name']) ?? '',
    artwork_uri: coverOf(artist, 'picture'),
    provider_uris: id ? { deezer: deezerUri('artist', id) } : {},
    metadata,
    added_at: unixTime(artist['time_add']),
  };
}
