import type { PlaylistInput, TrackInput } from '@opl/plugin-sdk';
import { appleUri } from './apple-uris.ts';

/**
 * Apple Music resources → the universal model. Pure. A library playlist's tracks are
 * `library-songs` (or `library-music-videos`) whose `catalog` relationship, when requested, holds
 * the catalog `songs` resource with the ISRC; the catalog resource is preferred for every field it
 * has. Library entries carry no id of their own: the same song twice has the same library id
 * twice, so `source_item_id` stays empty.
 */

/** The artwork size asked for when filling Apple's `{w}x{h}` URL template. */
export const ARTWORK_SIZE = 600;
const RELEASE_DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;
const VIDEO_REASON = 'An Apple Music music video: other services have no equivalent playlist entry, so it is not migrated.';
const UPLOAD_REASON = 'A file uploaded to the iCloud Music Library that matches nothing in the Apple Music catalogue: there is nothing to look up elsewhere but its tags.';

export type Json = Readonly<Record<string, unknown>>;

export function record(value: unknown): Json | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function integer(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/** Fills Apple's artwork template (`…/{w}x{h}bb.jpg`), never asking for more than the image has. */
export function artworkUrl(artwork: unknown, size = ARTWORK_SIZE): string | null {
  const object = record(artwork);
  const url = text(object?.['url']);
  if (!url || !/^https:\/\//.test(url)) return null;
  const width = integer(object?.['width']) ?? size;
  const height = integer(object?.['height']) ?? size;
  const scale = Math.min(1, size / Math.max(width, height, 1));
  return url.replace('{w}', String(Math.max(1, Math.round(width * scale)))).replace('{h}', String(Math.max(1, Math.round(height * scale)))).replace('{f}', 'jpg');
}

/** `YYYY-MM-DD`, `YYYY-MM` or `YYYY` as Apple has it (older catalogue entries know only the year). */
export function releaseDate(value: unknown): { release_date: string | null; release_year: number | null } {
  const date = text(value);
  if (!date || !RELEASE_DATE.test(date)) return { release_date: null, release_year: null };
  return { release_date: date, release_year: Number(date.slice(0, 4)) };
}

/**
 * Apple gives one display string: "A", "A & B", "A, B & C". The names are split on those joiners;
 * a name that itself holds " & " (a duo's name) is split too — Apple's string cannot tell them apart.
 */
export function splitArtists(display: string | null): string[] {
  if (!display) return [];
  return display
    .split(/,\s+|\s+&\s+/)
    .map((name) => name.trim())
    .filter(Boolean);
}

function durationSeconds(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) / 1000 : null;
}

function isoTimestamp(value: unknown): string | null {
  const stamp = text(value);
  return stamp && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(stamp) ? stamp : null;
}

/** The catalog resource a library resource's `catalog` relationship holds, if it was included. */
export function includedCatalog(resource: Json): Json | null {
  const data = record(record(resource['relationships'])?.['catalog'])?.['data'];
  return Array.isArray(data) ? record(data[0]) : null;
}

/** The catalog id a library resource stands for (`playParams.catalogId`, else its included catalog resource). */
export function catalogIdOf(resource: Json): string | null {
  const type = resource['type'];
  if (type === 'songs' || type === 'music-videos') return text(resource['id']);
  const fromPlayParams = text(record(record(resource['attributes'])?.['playParams'])?.['catalogId']);
  return fromPlayParams ?? text(includedCatalog(resource)?.['id']);
}

export interface EntryContext {
  /** 0-based position in the playlist or library, when known. */
  readonly position: number | null;
}

/** A catalog song or music video, or a library song or music video (with its catalog resource when included), as a Track. */
export function mapTrack(resource: Json, entry: EntryContext = { position: null }): TrackInput {
  const type = text(resource['type']) ?? '';
  const isLibrary = type.startsWith('library-');
  const isVideo = type === 'music-videos' || type === 'library-music-videos';
  const catalog = isLibrary ? includedCatalog(resource) : resource;
  const own = record(resource['attributes']) ?? {};
  const attributes = { ...own, ...(record(catalog?.['attributes']) ?? {}) };
  const catalogId = catalogIdOf(resource);
  const libraryId = isLibrary ? text(resource['id']) : null;
  const artist = text(attributes['artistName']) ?? '';
  const isUpload = catalogId === null;
  const kind = isVideo ? 'music-video' : 'song';
  const uri = catalogId ? appleUri(kind, catalogId) : appleUri('library-song', libraryId ?? '');
  const genre = Array.isArray(attributes['genreNames']) ? (attributes['genreNames'] as unknown[]).find((name) => typeof name === 'string' && name !== 'Music') : undefined;
  const rating = attributes['contentRating'];
  return {
    id: catalogId ?? libraryId,
    title: text(attributes['name']) ?? '',
    artist,
    artists: splitArtists(artist),
    album: text(attributes['albumName']),
    duration_s: durationSeconds(attributes['durationInMillis']),
    isrc: text(attributes['isrc']),
    ...releaseDate(attributes['releaseDate']),
    genre: typeof genre === 'string' ? genre : null,
    track_number: integer(attributes['trackNumber']),
    disc_number: integer(attributes['discNumber']),
    // Apple rates explicit recordings and "clean" edits; a catalogue entry without a rating is neither.
    explicit: rating === 'explicit' ? true : rating === 'clean' || !isUpload ? false : null,
    composer: text(attributes['composerName']),
    artwork_uri: artworkUrl(attributes['artwork']),
    provider_uris: { applemusic: uri },
    metadata: { ...(text(attributes['url']) ? { url: attributes['url'] } : {}) },
    media_type: isVideo ? 'video' : isUpload ? 'local_file' : 'track',
    is_local: isUpload && !isVideo,
    position: entry.position,
    source_position: entry.position,
    is_migratable: !isVideo && !isUpload,
    unsupported_reason: isVideo ? VIDEO_REASON : isUpload ? UPLOAD_REASON : null,
    source_item_id: null,
    added_at: isoTimestamp(own['dateAdded']),
    provider_metadata: {
      ...(libraryId ? { library_id: libraryId } : {}),
      ...(typeof attributes['hasLyrics'] === 'boolean' ? { has_lyrics: attributes['hasLyrics'] } : {}),
    },
  };
}

/** A library playlist. `canEdit` is the only ownership signal Apple gives: catalog playlists added to the library are not editable. */
export function mapPlaylist(resource: Json): PlaylistInput {
  const attributes = record(resource['attributes']) ?? {};
  const description = record(attributes['description']);
  const playParams = record(attributes['playParams']);
  const id = text(resource['id']) ?? '';
  const canEdit = typeof attributes['canEdit'] === 'boolean' ? attributes['canEdit'] : null;
  const artwork = artworkUrl(attributes['artwork']);
  const globalId = text(playParams?.['globalId']);
  return {
    id,
    name: text(attributes['name']) ?? '',
    description: text(description?.['standard']) ?? text(description?.['short']),
    photo: artwork,
    artwork_uri: artwork,
    owner_id: null,
    created_at: isoTimestamp(attributes['dateAdded']),
    updated_at: isoTimestamp(attributes['lastModifiedDate']),
    kind: 'PLAYLIST',
    // Apple's lastModifiedDate has one-second precision and moves when delayed appends land: not a safe cache key.
    snapshot_id: null,
    is_owned: canEdit,
    is_followed: canEdit === false ? true : null,
    provider_uris: { applemusic: appleUri('library-playlist', id) },
    metadata: {
      ...(typeof attributes['isPublic'] === 'boolean' ? { is_public: attributes['isPublic'] } : {}),
      ...(globalId ? { global_id: globalId } : {}),
    },
  };
}
