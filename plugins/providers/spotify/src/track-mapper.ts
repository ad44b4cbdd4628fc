import type { TrackInput } from '@opl/plugin-sdk';
import { finite, flag, integer, nonEmpty, record, records, text, timestamp, type JsonRecord } from './json-read.ts';
import { releaseDate } from './release-date.ts';
import { isLocalFileUri } from './spotify-uri.ts';

/**
 * Spotify TrackObject / EpisodeObject / PlaylistTrackObject → universal Track. Music tracks keep
 * ISRC, album, every artist, precision-true release dates, disc and track numbers, the explicit
 * flag and artwork; podcast episodes and local files are read faithfully but marked as not
 * migratable, with the reason a user sees.
 */

export const EPISODE_REASON = 'Podcast episode: only music tracks can be migrated to another service.';
export const LOCAL_FILE_REASON = 'Spotify local file: it exists only on the owner’s devices, not in any catalogue, so it cannot be migrated.';
export const UNAVAILABLE_REASON = 'This item is no longer available on Spotify, so nothing is known about it beyond its place in the playlist.';
export const UNKNOWN_REASON = 'This Spotify item is neither a music track nor a podcast episode, so it cannot be migrated.';

/** The widest image: Spotify lists images widest first, but do not rely on the order. */
export function artworkOf(imagesValue: unknown): string | null {
  const images = records(imagesValue);
  let best: { url: string; width: number } | null = null;
  for (const image of images) {
    const url = nonEmpty(image['url']);
    if (!url) continue;
    const width = integer(image['width']) ?? 0;
    if (!best || width > best.width) best = { url, width };
  }
  return best?.url ?? null;
}

function durationSeconds(value: unknown): number | null {
  const ms = finite(value);
  return ms === null || ms < 0 ? null : ms / 1000;
}

function spotifyUrl(item: JsonRecord): string | null {
  return nonEmpty(record(item['external_urls'])?.['spotify']);
}

function musicTrack(item: JsonRecord, isLocal: boolean): TrackInput {
  const album = record(item['album']);
  const artistRecords = records(item['artists']);
  const artists = artistRecords.flatMap((artist) => {
    const name = nonEmpty(artist['name']);
    return name ? [name] : [];
  });
  const uri = nonEmpty(item['uri']);
  const isrc = nonEmpty(record(item['external_ids'])?.['isrc']);
  const metadata: Record<string, unknown> = {};
  const url = spotifyUrl(item);
  if (url) metadata['spotify_url'] = url;
  const albumUri = nonEmpty(album?.['uri']);
  if (albumUri) metadata['spotify_album_uri'] = albumUri;
  const artistUris = artistRecords.flatMap((artist) => (nonEmpty(artist['uri']) ? [artist['uri'] as string] : []));
  if (artistUris.length > 0) metadata['spotify_artist_uris'] = artistUris;
  const albumType = nonEmpty(album?.['album_type']);
  if (albumType) metadata['album_type'] = albumType;
  const providerMetadata: Record<string, unknown> = {};
  const playable = flag(item['is_playable']);
  if (playable !== null) providerMetadata['is_playable'] = playable;
  const restriction = nonEmpty(record(item['restrictions'])?.['reason']);
  if (restriction) providerMetadata['restriction'] = restriction;
  const track: TrackInput = {
    id: isLocal ? null : nonEmpty(item['id']),
    title: text(item['name']) ?? '',
    artist: artists.join(', '),
    artists,
    album: nonEmpty(album?.['name']),
    duration_s: durationSeconds(item['duration_ms']),
    isrc: isrc ? isrc.toUpperCase() : null,
    ...releaseDate(album?.['release_date'], album?.['release_date_precision']),
    // Local files report 0 for unknown numbers.
    track_number: isLocal ? null : integer(item['track_number']),
    disc_number: isLocal ? null : integer(item['disc_number']),
    explicit: isLocal ? null : flag(item['explicit']),
    artwork_uri: artworkOf(album?.['images']),
    provider_uris: uri ? { spotify: uri } : {},
    metadata,
    provider_metadata: providerMetadata,
    media_type: isLocal ? 'local_file' : 'track',
    is_local: isLocal,
  };
  if (isLocal) return { ...track, is_migratable: false, unsupported_reason: LOCAL_FILE_REASON };
  return track;
}

function episode(item: JsonRecord): TrackInput {
  const show = record(item['show']);
  const showName = nonEmpty(show?.['name']);
  const publisher = nonEmpty(show?.['publisher']) ?? showName;
  const uri = nonEmpty(item['uri']);
  const metadata: Record<string, unknown> = {};
  const url = spotifyUrl(item);
  if (url) metadata['spotify_url'] = url;
  const showUri = nonEmpty(show?.['uri']);
  if (showUri) metadata['spotify_show_uri'] = showUri;
  return {
    id: nonEmpty(item['id']),
    title: text(item['name']) ?? '',
    artist: publisher ?? '',
    artists: publisher ? [publisher] : [],
    album: showName,
    duration_s: durationSeconds(item['duration_ms']),
    ...releaseDate(item['release_date'], item['release_date_precision']),
    explicit: flag(item['explicit']),
    artwork_uri: artworkOf(item['images']) ?? artworkOf(show?.['images']),
    provider_uris: uri ? { spotify: uri } : {},
    metadata,
    media_type: 'episode',
    is_migratable: false,
    unsupported_reason: EPISODE_REASON,
  };
}

/** A catalogue item (search hit, saved track, playlist entry's `item`). */
export function mapItem(value: unknown): TrackInput {
  const item = record(value);
  if (!item) return { title: '', artist: '', media_type: 'unknown', is_migratable: false, unsupported_reason: UNAVAILABLE_REASON };
  const uri = text(item['uri']) ?? '';
  const isLocal = item['is_local'] === true || isLocalFileUri(uri);
  if (item['type'] === 'episode') return episode(item);
  if (item['type'] === 'track' || isLocal) return musicTrack(item, isLocal);
  return {
    id: nonEmpty(item['id']),
    title: text(item['name']) ?? '',
    artist: '',
    provider_uris: uri ? { spotify: uri } : {},
    media_type: 'unknown',
    is_migratable: false,
    unsupported_reason: UNKNOWN_REASON,
  };
}

/**
 * A PlaylistTrackObject at `position`. The current API names the entry's content `item` (the
 * older `track` is read when `item` is absent). Spotify has no per-entry id, so duplicates are
 * told apart by position only.
 */
export function mapPlaylistEntry(value: unknown, position: number): TrackInput {
  const entry = record(value) ?? {};
  const content = 'item' in entry ? entry['item'] : entry['track'];
  let track = mapItem(content);
  if (entry['is_local'] === true && track.media_type !== 'local_file') {
    track = { ...track, id: null, media_type: 'local_file', is_local: true, is_migratable: false, unsupported_reason: LOCAL_FILE_REASON };
  }
  const addedBy = nonEmpty(record(entry['added_by'])?.['id']);
  return {
    ...track,
    position,
    source_position: position,
    added_at: timestamp(entry['added_at']),
    ...(addedBy ? { provider_metadata: { ...track.provider_metadata, added_by: addedBy } } : {}),
  };
}

/** A SavedTrackObject (liked tracks) at `position`. */
export function mapSavedTrack(value: unknown, position: number): TrackInput {
  const saved = record(value) ?? {};
  return { ...mapItem(saved['track']), position, source_position: position, added_at: timestamp(saved['added_at']) };
}
