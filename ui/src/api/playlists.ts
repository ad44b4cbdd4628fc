/**
 * `GET /api/playlists` and `GET /api/playlists/{id}`: a connected account's playlists as the engine
 * read (or cached) them, parsed into camelCase. Pure: no I/O.
 */

import { isRecord, isString, listOf, nullableString } from './answer-parsing.ts';

export const PLAYLISTS_PATH = '/api/playlists';

/** `refresh` asks the engine to read the service again instead of answering from its cache. */
export function playlistsPath(accountId: string, refresh = false): string {
  const query = new URLSearchParams({ account_id: accountId });
  if (refresh) query.set('refresh', 'true');
  return `${PLAYLISTS_PATH}?${query.toString()}`;
}

export function playlistPath(playlistId: string, accountId: string, refresh = false): string {
  const query = new URLSearchParams({ account_id: accountId });
  if (refresh) query.set('refresh', 'true');
  return `${PLAYLISTS_PATH}/${encodeURIComponent(playlistId)}?${query.toString()}`;
}

export interface PlaylistSummary {
  /** Null for a collection the service gives no id (liked songs, on some services). */
  readonly id: string | null;
  readonly name: string;
  readonly description: string | null;
  readonly trackCount: number | null;
  readonly ownerName: string | null;
  readonly isOwned: boolean | null;
  readonly isFollowed: boolean | null;
  readonly collaborative: boolean | null;
  readonly snapshotId: string | null;
  /** `PLAYLIST` or `LIKED_TRACKS` (the service's liked-songs collection). */
  readonly kind: string;
  readonly artworkUri: string | null;
}

export interface PlaylistTrack {
  readonly title: string;
  readonly artist: string;
  readonly album: string | null;
  readonly durationS: number | null;
  readonly isrc: string | null;
  readonly explicit: boolean | null;
  readonly mediaType: string;
  readonly isMigratable: boolean;
  readonly unsupportedReason: string | null;
  readonly position: number | null;
}

export interface PlaylistListing {
  readonly accountId: string;
  readonly provider: string;
  /** Answered from the engine's cache rather than read from the service just now. */
  readonly cached: boolean;
  readonly fetchedAt: string;
  readonly playlists: readonly PlaylistSummary[];
}

export interface PlaylistDetail {
  readonly accountId: string;
  readonly provider: string;
  readonly cached: boolean;
  readonly fetchedAt: string;
  readonly playlist: PlaylistSummary & { readonly tracks: readonly PlaylistTrack[] };
}

const nullableBoolean = (value: unknown): boolean | null | undefined => (value === undefined || value === null ? null : typeof value === 'boolean' ? value : undefined);
const nullableCount = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);
const nullableNumber = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null);

export function parsePlaylistSummary(value: unknown): PlaylistSummary | undefined {
  if (!isRecord(value)) return undefined;
  const { name, kind = 'PLAYLIST' } = value;
  const id = nullableString(value['id']);
  const description = nullableString(value['description']);
  const ownerName = nullableString(value['owner_name']);
  const snapshotId = nullableString(value['snapshot_id']);
  const artworkUri = nullableString(value['artwork_uri']);
  const isOwned = nullableBoolean(value['is_owned']);
  const isFollowed = nullableBoolean(value['is_followed']);
  const collaborative = nullableBoolean(value['collaborative']);
  if (id === undefined || !isString(name) || !isString(kind)) return undefined;
  if (description === undefined || ownerName === undefined || snapshotId === undefined || artworkUri === undefined) return undefined;
  if (isOwned === undefined || isFollowed === undefined || collaborative === undefined) return undefined;
  return {
    id,
    name,
    description,
    trackCount: nullableCount(value['track_count']),
    ownerName,
    isOwned,
    isFollowed,
    collaborative,
    snapshotId,
    kind,
    artworkUri,
  };
}

export function parsePlaylistTrack(value: unknown): PlaylistTrack | undefined {
  if (!isRecord(value)) return undefined;
  const { title, artist, media_type: mediaType = 'track', is_migratable: isMigratable = true } = value;
  const album = nullableString(value['album']);
  const isrc = nullableString(value['isrc']);
  const explicit = nullableBoolean(value['explicit']);
  const unsupportedReason = nullableString(value['unsupported_reason']);
  if (!isString(title) || !isString(artist) || !isString(mediaType) || typeof isMigratable !== 'boolean') return undefined;
  if (album === undefined || isrc === undefined || explicit === undefined || unsupportedReason === undefined) return undefined;
  return {
    title,
    artist,
    album,
    durationS: nullableNumber(value['duration_s']),
    isrc,
    explicit,
    mediaType,
    isMigratable,
    unsupportedReason,
    position: nullableCount(value['position']),
  };
}

function parseEnvelope(body: Record<string, unknown>): Omit<PlaylistListing, 'playlists'> | undefined {
  const { account_id: accountId, provider, cached, fetched_at: fetchedAt } = body;
  if (!isString(accountId) || !isString(provider) || typeof cached !== 'boolean' || !isString(fetchedAt)) return undefined;
  return { accountId, provider, cached, fetchedAt };
}

export function parsePlaylistListing(body: unknown): PlaylistListing | undefined {
  if (!isRecord(body)) return undefined;
  const envelope = parseEnvelope(body);
  const playlists = listOf(body['playlists'], parsePlaylistSummary);
  return envelope && playlists ? { ...envelope, playlists } : undefined;
}

export function parsePlaylistDetail(body: unknown): PlaylistDetail | undefined {
  if (!isRecord(body)) return undefined;
  const envelope = parseEnvelope(body);
  const raw = body['playlist'];
  const summary = parsePlaylistSummary(raw);
  const tracks = isRecord(raw) ? listOf(raw['tracks'] ?? [], parsePlaylistTrack) : undefined;
  if (!envelope || !summary || !tracks) return undefined;
  return { ...envelope, playlist: { ...summary, trackCount: summary.trackCount ?? tracks.length, tracks } };
}

/** The id `GET /api/playlists/{id}` takes: the liked songs answer to `liked` when the service gives them no id. */
export function openablePlaylistId(playlist: PlaylistSummary): string | null {
  if (playlist.id !== null && playlist.id !== '') return playlist.id;
  return playlist.kind === 'LIKED_TRACKS' ? 'liked' : null;
}

/** `LIKED_TRACKS` is the service's own liked-songs collection, not an ordinary playlist. */
export function playlistKindLabel(kind: string): string {
  if (kind === 'LIKED_TRACKS') return 'Liked songs';
  if (kind === 'PLAYLIST') return 'Playlist';
  return kind;
}

/** Who the playlist belongs to, from the account's point of view. */
export function playlistRelation(playlist: PlaylistSummary): string {
  if (playlist.kind === 'LIKED_TRACKS') return 'Your library';
  const parts: string[] = [];
  if (playlist.isOwned === true) parts.push('Yours');
  else if (playlist.isFollowed === true) parts.push(playlist.ownerName ? `Followed, by ${playlist.ownerName}` : 'Followed');
  else if (playlist.ownerName) parts.push(`By ${playlist.ownerName}`);
  if (playlist.collaborative === true) parts.push('collaborative');
  return parts.join(', ');
}

const MEDIA_TYPE_LABELS: Readonly<Record<string, string>> = {
  track: 'Track',
  episode: 'Podcast episode',
  video: 'Video',
  local_file: 'Local file',
  unknown: 'Unknown kind of entry',
};

export function mediaTypeLabel(mediaType: string): string {
  return MEDIA_TYPE_LABELS[mediaType] ?? mediaType;
}

/** Why an entry will not be migrated, in words: the engine's reason, else its media type. */
export function notMigratableReason(track: PlaylistTrack): string | null {
  if (track.isMigratable) return null;
  if (track.unsupportedReason && track.unsupportedReason.trim() !== '') return track.unsupportedReason;
  return `${mediaTypeLabel(track.mediaType)}: other services cannot receive it`;
}
