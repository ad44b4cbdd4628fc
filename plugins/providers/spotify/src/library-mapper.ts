import type { AlbumInput, ArtistInput } from '@opl/plugin-sdk';
import { integer, nonEmpty, record, records, text, timestamp } from './json-read.ts';
import { releaseDate } from './release-date.ts';
import { artworkOf } from './track-mapper.ts';

/** Spotify AlbumObject / SavedAlbumObject and ArtistObject → universal Album and Artist. */

export function mapAlbum(value: unknown): AlbumInput {
  const album = record(value) ?? {};
  const uri = nonEmpty(album['uri']);
  const metadata: Record<string, unknown> = {};
  const albumType = nonEmpty(album['album_type']);
  if (albumType) metadata['album_type'] = albumType;
  const label = nonEmpty(album['label']);
  if (label) metadata['label'] = label;
  const url = nonEmpty(record(album['external_urls'])?.['spotify']);
  if (url) metadata['spotify_url'] = url;
  const total = integer(album['total_tracks']);
  return {
    id: nonEmpty(album['id']),
    title: text(album['name']) ?? '',
    artists: records(album['artists']).flatMap((artist) => (nonEmpty(artist['name']) ? [artist['name'] as string] : [])),
    ...releaseDate(album['release_date'], album['release_date_precision']),
    upc: nonEmpty(record(album['external_ids'])?.['upc']),
    track_count: total !== null && total >= 0 ? total : null,
    artwork_uri: artworkOf(album['images']),
    provider_uris: uri ? { spotify: uri } : {},
    metadata,
  };
}

export function mapSavedAlbum(value: unknown): AlbumInput {
  const saved = record(value) ?? {};
  return { ...mapAlbum(saved['album']), added_at: timestamp(saved['added_at']) };
}

export function mapArtist(value: unknown): ArtistInput {
  const artist = record(value) ?? {};
  const uri = nonEmpty(artist['uri']);
  const metadata: Record<string, unknown> = {};
  const genres = Array.isArray(artist['genres']) ? (artist['genres'] as unknown[]).filter((genre): genre is string => typeof genre === 'string') : [];
  if (genres.length > 0) metadata['genres'] = genres;
  const url = nonEmpty(record(artist['external_urls'])?.['spotify']);
  if (url) metadata['spotify_url'] = url;
  return {
    id: nonEmpty(artist['id']),
    name: text(artist['name']) ?? '',
    artwork_uri: artworkOf(artist['images']),
    provider_uris: uri ? { spotify: uri } : {},
    metadata,
  };
}
