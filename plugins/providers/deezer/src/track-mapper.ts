import type { TrackInput } from '@opl/plugin-sdk';
import { flag, idOf, integer, nonEmpty, record, records, text, unixTime, type JsonRecord } from './json-read.ts';
import { deezerUri } from './deezer-uri.ts';

/**
 * Deezer track objects → universal Track. Three forms reach here: the full track (`/track/…`:
 * ISRC, track and disc numbers, release date, contributors), the listed form of playlists and
 * favourites (ISRC, no numbers or contributors) and search hits (no ISRC). Each maps what it has;
 * nothing is invented. Episodes (which Deezer lets users put in playlists) are read, not migrated.
 */

export const EPISODE_REASON = 'Podcast episode: only music tracks can be migrated to another service.';
export const UNKNOWN_REASON = 'This Deezer item is not a music track, so it cannot be migrated.';

/** The largest cover Deezer lists. */
export function coverOf(value: JsonRecord | null, prefix: 'cover' | 'picture'): string | null {
  if (!value) return null;
  return nonEmpty(value[`${prefix}_xl`]) ?? nonEmpty(value[`${prefix}_big`]) ?? nonEmpty(value[`${prefix}_medium`]) ?? nonEmpty(value[`${prefix}_small`]) ?? null;
}

/** `YYYY-MM-DD` (Deezer's only precision); `0000-00-00` is unknown. */
export function releaseDate(value: unknown): { release_date: string | null; release_year: number | null } {
  const date = text(value)?.trim() ?? '';
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match || match[1] === '0000') return { release_date: null, release_year: null };
  if (match[2] === '00') return { release_date: match[1]!, release_year: Number(match[1]) };
  if (match[3] === '00') return { release_date: `${match[1]}-${match[2]}`, release_year: Number(match[1]) };
  return { release_date: date, release_year: Number(match[1]) };
}

function names(track: JsonRecord): { artists: string[]; artistIds: string[] } {
  const contributors = records(track['contributors']);
  const people = contributors.length > 0 ? contributors : [record(track['artist']) ?? {}];
  const artists: string[] = [];
  const artistIds: string[] = [];
  for (const person of people) {
    const name = nonEmpty(person['name']);
    if (name && !artists.includes(name)) artists.push(name);
    const id = idOf(person['id']);
    if (id && !artistIds.includes(id)) artistIds.push(id);
  }
  return { artists, artistIds };
}

export function mapTrack(value: unknown): TrackInput {
  const track = record(value);
  if (!track) return { title: '', artist: '', media_type: 'unknown', is_migratable: false, unsupported_reason: UNKNOWN_REASON };
  const id = idOf(track['id']);
  const type = text(track['type']) ?? 'track';
  const album = record(track['album']);
  const { artists, artistIds } = names(track);
  const metadata: Record<string, unknown> = {};
  const link = nonEmpty(track['link']);
  if (link) metadata['deezer_url'] = link;
  const albumId = idOf(album?.['id']);
  if (albumId) metadata['deezer_album_uri'] = deezerUri('album', albumId);
  if (artistIds.length > 0) metadata['deezer_artist_uris'] = artistIds.map((artistId) => deezerUri('artist', artistId));
  const version = nonEmpty(track['title_version']);
  if (version) metadata['title_version'] = version;
  const providerMetadata: Record<string, unknown> = {};
  const readable = flag(track['readable']);
  if (readable !== null) providerMetadata['readable'] = readable;
  const isrc = nonEmpty(track['isrc']);
  const duration = integer(track['duration']);
  const base: TrackInput = {
    id,
    title: text(track['title']) ?? '',
    artist: artists.join(', '),
    artists,
    album: nonEmpty(album?.['title']),
    duration_s: duration !== null && duration >= 0 ? duration : null,
    isrc: isrc ? isrc.toUpperCase() : null,
    ...releaseDate(track['release_date'] ?? album?.['release_date']),
    track_number: integer(track['track_position']),
    disc_number: integer(track['disk_number']),
    explicit: flag(track['explicit_lyrics']),
    artwork_uri: coverOf(album, 'cover'),
    provider_uris: id ? { deezer: deezerUri('track', id) } : {},
    metadata,
    provider_metadata: providerMetadata,
    media_type: 'track',
  };
  if (type === 'episode') return { ...base, provider_uris: {}, media_type: 'episode', is_migratable: false, unsupported_reason: EPISODE_REASON };
  if (type !== 'track') return { ...base, provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: UNKNOWN_REASON };
  return base;
}

/** A playlist or favourites entry at `position`, with the time it was added. */
export function mapListedTrack(value: unknown, position: number): TrackInput {
  return { ...mapTrack(value), position, source_position: position, added_at: unixTime(record(value)?.['time_add']) };
}
