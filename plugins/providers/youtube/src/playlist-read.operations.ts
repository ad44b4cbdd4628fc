import { NotFound, type OperationInput, type OperationReturn, type PlaylistInput, type ProviderContext, type TrackInput, type ProviderOperations } from '@opl/plugin-sdk';
import { trackFromVideo, unavailableEntry, type VideoResource } from './video-mapper.ts';
import { decodeCursor, encodeCursor, list, myChannel, pageSize, query } from './youtube-client.ts';
import { playlistUri } from './youtube-uris.ts';

/**
 * Reads: the account's own playlists (playlists.list mine=true — YouTube lists no playlists the
 * user merely saved), one playlist by id, its entries (playlistItems.list, then videos.list for
 * durations and categories: 1 unit each per page), and the liked videos (videos.list
 * myRating=like). YouTube has no version marker of a playlist's contents that covers its entries,
 * so no snapshot id is returned.
 */

interface PlaylistResource {
  readonly id?: unknown;
  readonly snippet?: { title?: unknown; description?: unknown; channelId?: unknown; channelTitle?: unknown; publishedAt?: unknown; thumbnails?: Record<string, { url?: unknown } | undefined> };
  readonly status?: { privacyStatus?: unknown };
  readonly contentDetails?: { itemCount?: unknown };
}

interface PlaylistItemResource {
  readonly id?: unknown;
  readonly snippet?: { title?: unknown; position?: unknown; publishedAt?: unknown; resourceId?: { videoId?: unknown } };
  readonly contentDetails?: { videoId?: unknown };
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export function playlistFromResource(resource: PlaylistResource, myChannelId: string | null): PlaylistInput {
  const id = text(resource.id) ?? '';
  const snippet = resource.snippet ?? {};
  const owner = text(snippet.channelId);
  const thumbnails = snippet.thumbnails;
  const artwork = text(thumbnails?.['high']?.url) ?? text(thumbnails?.['medium']?.url) ?? text(thumbnails?.['default']?.url);
  const count = resource.contentDetails?.itemCount;
  return {
    id,
    name: text(snippet.title) ?? '',
    description: text(snippet.description),
    photo: artwork,
    artwork_uri: artwork,
    track_count: typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : null,
    owner_id: owner,
    owner_name: text(snippet.channelTitle),
    created_at: text(snippet.publishedAt),
    is_owned: myChannelId !== null && owner !== null ? owner === myChannelId : null,
    is_followed: null,
    collaborative: false,
    provider_uris: { youtube: playlistUri(id) },
    metadata: { privacy_status: text(resource.status?.privacyStatus), url: `https://www.youtube.com/playlist?list=${id}` },
  };
}

const PLAYLIST_PARTS = 'snippet,status,contentDetails';

export async function listPlaylists(input: OperationInput<'listPlaylists'>, ctx: ProviderContext): Promise<OperationReturn<'listPlaylists'>> {
  const answer = await list<PlaylistResource>(ctx, `/playlists${query({ part: PLAYLIST_PARTS, mine: true, maxResults: pageSize(input.limit), pageToken: decodeCursor(input.cursor) })}`, 'listing playlists');
  // mine=true answers only the account's own playlists.
  const items = answer.items.map((resource) => ({ ...playlistFromResource(resource, null), is_owned: true }));
  return { items, next_cursor: encodeCursor(answer.nextPageToken), total: answer.totalResults };
}

export async function readPlaylist(input: OperationInput<'readPlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'readPlaylist'>> {
  const answer = await list<PlaylistResource>(ctx, `/playlists${query({ part: PLAYLIST_PARTS, id: input.playlist_id, maxResults: 1 })}`, 'reading a playlist');
  // An unknown (or someone else's private) playlist is simply absent from the answer.
  const resource = answer.items[0];
  if (!resource || resource.id !== input.playlist_id) throw new NotFound('YouTube has no such playlist, or it is private to another channel');
  const channel = await myChannel(ctx);
  return playlistFromResource(resource, channel.id);
}

/** Videos by id (50 per request), as a map; missing ids are deleted or private videos. `what` names the request in error messages. */
export async function videosById(ctx: ProviderContext, ids: readonly string[], what = 'reading video details'): Promise<Map<string, VideoResource>> {
  const found = new Map<string, VideoResource>();
  const unique = [...new Set(ids)];
  for (let start = 0; start < unique.length; start += 50) {
    const batch = unique.slice(start, start + 50);
    const answer = await list<VideoResource>(ctx, `/videos${query({ part: 'snippet,contentDetails', id: batch.join(','), maxResults: 50 })}`, what);
    for (const video of answer.items) if (typeof video.id === 'string') found.set(video.id, video);
  }
  return found;
}

export async function listPlaylistItems(input: OperationInput<'listPlaylistItems'>, ctx: ProviderContext): Promise<OperationReturn<'listPlaylistItems'>> {
  const answer = await list<PlaylistItemResource>(
    ctx,
    `/playlistItems${query({ part: 'snippet,contentDetails', playlistId: input.playlist_id, maxResults: pageSize(input.limit), pageToken: decodeCursor(input.cursor) })}`,
    'reading playlist entries',
  );
  const entries = answer.items.map((item) => ({
    itemId: text(item.id),
    videoId: text(item.contentDetails?.videoId) ?? text(item.snippet?.resourceId?.videoId) ?? '',
    title: text(item.snippet?.title) ?? '',
    position: typeof item.snippet?.position === 'number' ? item.snippet.position : null,
    addedAt: text(item.snippet?.publishedAt),
  }));
  const videos = entries.length ? await videosById(ctx, entries.map((entry) => entry.videoId).filter(Boolean)) : new Map<string, VideoResource>();
  const items: TrackInput[] = entries.map((entry) => {
    const video = videos.get(entry.videoId);
    const facts = { itemId: entry.itemId, position: entry.position, addedAt: entry.addedAt };
    return video ? trackFromVideo(video, facts) : unavailableEntry(entry.videoId, entry.title, facts);
  });
  return { items, next_cursor: encodeCursor(answer.nextPageToken), total: answer.totalResults, snapshot_id: null };
}

export async function listLikedTracks(input: OperationInput<'listLikedTracks'>, ctx: ProviderContext): Promise<OperationReturn<'listLikedTracks'>> {
  const answer = await list<VideoResource>(ctx, `/videos${query({ part: 'snippet,contentDetails', myRating: 'like', maxResults: pageSize(input.limit), pageToken: decodeCursor(input.cursor) })}`, 'reading liked videos');
  return { items: answer.items.map((video) => trackFromVideo(video)), next_cursor: encodeCursor(answer.nextPageToken), total: answer.totalResults };
}

/** The operations of this file, as the plugin definition takes them. */
export const playlistReads = { listPlaylists, readPlaylist, listPlaylistItems, listLikedTracks } satisfies ProviderOperations;
