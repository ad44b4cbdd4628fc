import type { AlbumInput, ArtistInput, PlaylistInput, TrackInput } from '@opl/plugin-sdk';
import { isoDurationSeconds } from './iso-duration.ts';
import { related, text, type Document, type Identifier, type Resource } from './json-api-document.ts';
import { tidalUri, tidalWebUrl } from './tidal-uris.ts';

/**
 * TIDAL resources → the universal model. Pure: each function takes the document the resource came
 * in (for its `included` artists, albums and artwork) and returns what the engine validates.
 */

const RELEASE_DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;
const VIDEO_REASON = 'A TIDAL music video: other services have no equivalent playlist entry, so it is not migrated.';

/** The artwork file to show: the largest square-ish image up to 1280 px, else the largest there is. */
export function artworkUrl(artworks: readonly Resource[]): string | null {
  for (const artwork of artworks) {
    const files = Array.isArray(artwork.attributes['files']) ? (artwork.attributes['files'] as unknown[]) : [];
    const candidates = files
      .map((file) => {
        const entry = file as { href?: unknown; meta?: { width?: unknown } } | null;
        return { href: text(entry?.href), width: typeof entry?.meta?.width === 'number' ? entry.meta.width : 0 };
      })
      .filter((file): file is { href: string; width: number } => file.href !== null && /^https:\/\//.test(file.href));
    if (candidates.length === 0) continue;
    const fitting = candidates.filter((file) => file.width <= 1280);
    const pool = fitting.length ? fitting : candidates;
    return pool.reduce((best, file) => (file.width > best.width ? file : best)).href;
  }
  return null;
}

/** TIDAL splits "Song (Live)" into title "Song" and version "Live"; the engine wants the whole name. */
export function fullTitle(title: string, version: string | null): string {
  if (!version) return title;
  return title.toLowerCase().includes(version.toLowerCase()) ? title : `${title} (${version})`;
}

export function releaseDate(value: unknown): { release_date: string | null; release_year: number | null } {
  const date = text(value);
  if (!date) return { release_date: null, release_year: null };
  const day = date.slice(0, 10);
  if (!RELEASE_DATE.test(day)) return { release_date: null, release_year: null };
  return { release_date: day, release_year: Number(day.slice(0, 4)) };
}

function isoTimestamp(value: unknown): string | null {
  const stamp = text(value);
  return stamp && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(stamp) ? stamp : null;
}

export interface EntryContext {
  /** 0-based position in the playlist (or collection), when known. */
  readonly position: number | null;
  /** The playlist entry's own id (`meta.itemId`). */
  readonly itemId: string | null;
  readonly addedAt: string | null;
}

const NO_ENTRY: EntryContext = { position: null, itemId: null, addedAt: null };

/** A track or video resource (with its `artists` and `albums` included) as a Track. */
export function mapTrack(document: Document, resource: Resource, entry: EntryContext = NO_ENTRY): TrackInput {
  const { attributes } = resource;
  const isVideo = resource.type === 'videos';
  const artists = related(document, resource, 'artists')
    .map((artist) => text(artist.attributes['name']))
    .filter((name): name is string => name !== null);
  const album = related(document, resource, 'albums')[0] ?? null;
  const dates = releaseDate(album?.attributes['releaseDate'] ?? attributes['releaseDate']);
  const version = text(attributes['version']);
  const entity = isVideo ? 'video' : 'track';
  const copyright = (attributes['copyright'] as { text?: unknown } | undefined)?.text;
  return {
    id: resource.id,
    title: fullTitle(text(attributes['title']) ?? '', version),
    artist: artists.join(', '),
    artists,
    album: album ? text(album.attributes['title']) : null,
    duration_s: isoDurationSeconds(attributes['duration']),
    isrc: text(attributes['isrc']),
    ...dates,
    explicit: typeof attributes['explicit'] === 'boolean' ? attributes['explicit'] : null,
    artwork_uri: album ? artworkUrl(related(document, album, 'coverArt')) : null,
    provider_uris: { tidal: tidalUri(entity, resource.id) },
    metadata: { url: tidalWebUrl(entity, resource.id), ...(typeof copyright === 'string' ? { copyright } : {}) },
    media_type: isVideo ? 'video' : 'track',
    position: entry.position,
    source_position: entry.position,
    is_migratable: !isVideo,
    unsupported_reason: isVideo ? VIDEO_REASON : null,
    source_item_id: entry.itemId,
    added_at: isoTimestamp(entry.addedAt),
    provider_metadata: {
      ...(version ? { version } : {}),
      ...(Array.isArray(attributes['mediaTags']) ? { media_tags: (attributes['mediaTags'] as unknown[]).filter((tag) => typeof tag === 'string') } : {}),
      ...(typeof attributes['popularity'] === 'number' ? { popularity: attributes['popularity'] } : {}),
    },
  };
}

/** A playlist entry whose track TIDAL did not include (withdrawn from the catalogue, or region-locked). */
export function unavailableEntry(identifier: Identifier, entry: EntryContext): TrackInput {
  const entity = identifier.type === 'videos' ? 'video' : 'track';
  return {
    id: identifier.id,
    title: '',
    artist: '',
    provider_uris: { tidal: tidalUri(entity, identifier.id) },
    media_type: identifier.type === 'videos' ? 'video' : identifier.type === 'tracks' ? 'track' : 'unknown',
    position: entry.position,
    source_position: entry.position,
    is_migratable: false,
    unsupported_reason: 'TIDAL did not return this entry (unavailable in the account\'s country or withdrawn).',
    source_item_id: entry.itemId,
    added_at: isoTimestamp(entry.addedAt),
  };
}

export function entryContext(identifier: Identifier, position: number | null): EntryContext {
  return { position, itemId: text(identifier.meta['itemId']), addedAt: text(identifier.meta['addedAt']) };
}

export interface OwnerView {
  /** The connected account's TIDAL user id, when known. */
  readonly userId: string | null;
}

export function mapPlaylist(document: Document, resource: Resource, view: OwnerView): PlaylistInput {
  const { attributes } = resource;
  const owner = related(document, resource, 'owners')[0] ?? null;
  const ownerId = owner?.id ?? (relationshipOwnerId(resource) || null);
  const artwork = artworkUrl(related(document, resource, 'coverArt'));
  const lastModified = isoTimestamp(attributes['lastModifiedAt']);
  return {
    id: resource.id,
    name: text(attributes['name']) ?? '',
    description: text(attributes['description']),
    photo: artwork,
    artwork_uri: artwork,
    track_count: typeof attributes['numberOfItems'] === 'number' ? attributes['numberOfItems'] : null,
    owner_id: ownerId,
    owner_name: owner ? text(owner.attributes['username']) : null,
    created_at: isoTimestamp(attributes['createdAt']),
    updated_at: lastModified,
    kind: 'PLAYLIST',
    // Every write moves lastModifiedAt: it is the version marker the engine caches by.
    snapshot_id: lastModified,
    is_owned: ownerId !== null && view.userId !== null ? ownerId === view.userId : null,
    provider_uris: { tidal: tidalUri('playlist', resource.id) },
    metadata: {
      url: tidalWebUrl('playlist', resource.id),
      ...(text(attributes['accessType']) ? { access_type: attributes['accessType'] } : {}),
      ...(text(attributes['playlistType']) ? { playlist_type: attributes['playlistType'] } : {}),
    },
  };
}

function relationshipOwnerId(resource: Resource): string {
  const data = (resource.relationships['owners'] as { data?: unknown } | undefined)?.data;
  const first = Array.isArray(data) ? (data[0] as { id?: unknown } | undefined) : undefined;
  return typeof first?.id === 'string' ? first.id : '';
}

export function mapAlbum(document: Document, resource: Resource, addedAt: string | null = null): AlbumInput {
  const { attributes } = resource;
  return {
    id: resource.id,
    title: text(attributes['title']) ?? '',
    artists: related(document, resource, 'artists')
      .map((artist) => text(artist.attributes['name']))
      .filter((name): name is string => name !== null),
    ...releaseDate(attributes['releaseDate']),
    upc: text(attributes['barcodeId']),
    track_count: typeof attributes['numberOfItems'] === 'number' ? attributes['numberOfItems'] : null,
    artwork_uri: artworkUrl(related(document, resource, 'coverArt')),
    provider_uris: { tidal: tidalUri('album', resource.id) },
    metadata: { url: tidalWebUrl('album', resource.id), ...(text(attributes['albumType']) ? { album_type: attributes['albumType'] } : {}) },
    added_at: isoTimestamp(addedAt),
  };
}

export function mapArtist(document: Document, resource: Resource, addedAt: string | null = null): ArtistInput {
  return {
    id: resource.id,
    name: text(resource.attributes['name']) ?? '',
    artwork_uri: artworkUrl(related(document, resource, 'profileArt')),
    provider_uris: { tidal: tidalUri('artist', resource.id) },
    metadata: { url: tidalWebUrl('artist', resource.id) },
    added_at: isoTimestamp(addedAt),
  };
}
