import { createHash } from 'node:crypto';
import type { FakeRequest } from '../fake-provider.ts';
import { isoDuration, MUSIC_CATEGORY, type FakeVideo } from './youtube-catalog.ts';
import { errors, type GoogleError } from './youtube-errors.ts';
import { SCOPE_READONLY, SCOPE_YOUTUBE, type AccessToken, type FakePlaylist, type YoutubeState } from './youtube-state.ts';

/**
 * The YouTube Data API v3 at `https://www.googleapis.com/youtube/v3`, as far as playlists go:
 * channels.list (mine), playlists list/insert/delete, playlistItems list/insert/delete (one video
 * per insert, optional `snippet.position`, one playlistItem id per entry), search.list and
 * videos.list (by id, or the liked videos with `myRating=like`). Lists page with opaque
 * `pageToken`s, `maxResults` 0–50 (default 5), and answer only the requested `part`s.
 *
 * Every authenticated request is charged to its OAuth client's daily quota before it runs (an
 * invalid request costs too): 1 unit for a list, 50 for an insert, update or delete, and
 * search.list draws from its own daily budget of calls. A request the budget cannot pay for is
 * answered 403 quotaExceeded.
 */

export const API_PREFIX = '/youtube/v3/';
export const MAX_RESULTS = 50;
export const MAX_PLAYLIST_ITEMS = 5_000;

export type ApiResult = { readonly status: number; readonly body?: unknown; readonly error?: GoogleError };

interface Ctx {
  readonly state: YoutubeState;
  readonly token: AccessToken;
  readonly request: FakeRequest;
  readonly params: URLSearchParams;
}

const ok = (body: unknown): ApiResult => ({ status: 200, body });
const fail = (error: GoogleError): ApiResult => ({ status: error.status, error });
const noContent: ApiResult = { status: 204 };

function etag(...parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 27);
}

function thumbnails(videoId: string | null): Record<string, { url: string; width: number; height: number }> {
  if (!videoId) return { default: { url: 'https://i.ytimg.com/img/no_thumbnail.jpg', width: 120, height: 90 } };
  return {
    default: { url: `https://i.ytimg.com/vi/${videoId}/default.jpg`, width: 120, height: 90 },
    medium: { url: `https://i.ytimg.com/vi/${videoId}/mqdefault.jpg`, width: 320, height: 180 },
    high: { url: `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`, width: 480, height: 360 },
  };
}

/** The `part` list, required on every method; `id` is always answered. */
function parts(ctx: Ctx): Set<string> | GoogleError {
  const raw = ctx.params.get('part');
  if (!raw) return errors.badRequest('missingRequiredParameter', 'No filter selected. Expected one of: part', 'part');
  return new Set(raw.split(',').map((part) => part.trim()));
}

function pageToken(offset: number): string {
  return Buffer.from(`yt.page.${offset}`).toString('base64url');
}

/** A page of `items` as YouTube lists it: `maxResults` (0–50, default 5) and opaque page tokens. */
function page<T>(ctx: Ctx, items: readonly T[], kind: string, map: (item: T, index: number) => unknown): ApiResult {
  const maxRaw = ctx.params.get('maxResults');
  const max = maxRaw === null ? 5 : Number(maxRaw);
  if (!Number.isInteger(max) || max < 0 || max > MAX_RESULTS) return fail(errors.badRequest('invalidParameter', `Invalid value '${String(maxRaw).slice(0, 20)}'. Values must be within the range: [0, 50]`, 'maxResults'));
  let offset = 0;
  const token = ctx.params.get('pageToken');
  if (token) {
    const match = /^yt\.page\.(\d{1,6})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
    if (!match || Number(match[1]) > items.length) return fail(errors.badRequest('invalidPageToken', 'The request specifies an invalid page token.', 'pageToken'));
    offset = Number(match[1]);
  }
  const slice = items.slice(offset, offset + max);
  const next = offset + max < items.length && max > 0 ? pageToken(offset + max) : null;
  return ok({
    kind,
    etag: etag(kind, offset, items.length),
    ...(next ? { nextPageToken: next } : {}),
    ...(offset > 0 ? { prevPageToken: pageToken(Math.max(0, offset - max)) } : {}),
    pageInfo: { totalResults: items.length, resultsPerPage: max },
    items: slice.map((item, index) => map(item, offset + index)),
  });
}

function playlistResource(state: YoutubeState, playlist: FakePlaylist, want: Set<string>): unknown {
  const channel = state.channels.get(playlist.ownerId)!;
  return {
    kind: 'youtube#playlist',
    etag: etag('playlist', playlist.id, playlist.version),
    id: playlist.id,
    ...(want.has('snippet')
      ? {
          snippet: {
            publishedAt: playlist.publishedAt,
            channelId: channel.id,
            title: playlist.title,
            description: playlist.description,
            thumbnails: thumbnails(playlist.items[0]?.videoId ?? null),
            channelTitle: channel.title,
            localized: { title: playlist.title, description: playlist.description },
          },
        }
      : {}),
    ...(want.has('status') ? { status: { privacyStatus: playlist.privacyStatus } } : {}),
    ...(want.has('contentDetails') ? { contentDetails: { itemCount: playlist.items.length } } : {}),
  };
}

function itemResource(state: YoutubeState, playlist: FakePlaylist, index: number, want: Set<string>): unknown {
  const item = playlist.items[index]!;
  const channel = state.channels.get(playlist.ownerId)!;
  const video = state.catalog.videos.get(item.videoId);
  return {
    kind: 'youtube#playlistItem',
    etag: etag('playlistItem', item.id, index),
    id: item.id,
    ...(want.has('snippet')
      ? {
          snippet: {
            publishedAt: item.addedAt,
            channelId: channel.id,
            title: video ? video.title : 'Deleted video',
            description: video ? video.description : 'This video is unavailable.',
            thumbnails: video ? thumbnails(video.id) : {},
            channelTitle: channel.title,
            playlistId: playlist.id,
            position: index,
            resourceId: { kind: 'youtube#video', videoId: item.videoId },
            ...(video ? { videoOwnerChannelTitle: video.channelTitle, videoOwnerChannelId: video.channelId } : {}),
          },
        }
      : {}),
    ...(want.has('contentDetails') ? { contentDetails: { videoId: item.videoId, ...(video ? { videoPublishedAt: video.publishedAt } : {}) } } : {}),
    ...(want.has('status') ? { status: { privacyStatus: video ? 'public' : 'private' } } : {}),
  };
}

function videoResource(video: FakeVideo, want: Set<string>): unknown {
  return {
    kind: 'youtube#video',
    etag: etag('video', video.id),
    id: video.id,
    ...(want.has('snippet')
      ? {
          snippet: {
            publishedAt: video.publishedAt,
            channelId: video.channelId,
            title: video.title,
            description: video.description,
            thumbnails: thumbnails(video.id),
            channelTitle: video.channelTitle,
            categoryId: video.categoryId,
            liveBroadcastContent: 'none',
          },
        }
      : {}),
    ...(want.has('contentDetails')
      ? { contentDetails: { duration: isoDuration(video.durationS), dimension: '2d', definition: 'hd', caption: 'false', licensedContent: video.licensedContent, contentRating: {}, projection: 'rectangular' } }
      : {}),
    ...(want.has('status') ? { status: { uploadStatus: 'processed', privacyStatus: 'public', license: 'youtube', embeddable: true, publicStatsViewable: true, madeForKids: false } } : {}),
  };
}

/** search.list snippets are HTML-escaped, unlike every other resource's. */
function htmlEscaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function readBody(ctx: Ctx): Record<string, unknown> | GoogleError {
  try {
    const body = JSON.parse(ctx.request.body || 'null') as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return errors.badRequest('invalidResource', 'The request body must be one resource.');
    return body as Record<string, unknown>;
  } catch {
    return errors.badRequest('parseError', 'Parse Error');
  }
}

function canWrite(token: AccessToken): boolean {
  return token.scopes.some((scope) => scope === SCOPE_YOUTUBE || scope.endsWith('/youtube.force-ssl'));
}

function canRead(token: AccessToken): boolean {
  return canWrite(token) || token.scopes.includes(SCOPE_READONLY);
}

function isError(value: unknown): value is GoogleError {
  return typeof value === 'object' && value !== null && 'reason' in value && 'status' in value;
}

/** The quota cost of a request: [bucket, units]. */
export function quotaCost(method: string, resource: string): { search: boolean; units: number } {
  if (resource === 'search') return { search: true, units: 1 };
  return { search: false, units: method === 'GET' ? 1 : 50 };
}

export function handleApi(state: YoutubeState, token: AccessToken, request: FakeRequest): ApiResult {
  const resource = request.path.slice(API_PREFIX.length).replace(/\/$/, '');
  const ctx: Ctx = { state, token, request, params: request.url.searchParams };
  const method = request.method;
  if (method === 'GET' ? !canRead(token) : !canWrite(token)) return fail(errors.insufficientPermissions());
  // Deletes take no `part`; every other method requires it.
  const want = method === 'DELETE' ? new Set<string>() : parts(ctx);
  if (isError(want)) return fail(want);
  switch (`${method} ${resource}`) {
    case 'GET channels':
      return channelsList(ctx, want);
    case 'GET playlists':
      return playlistsList(ctx, want);
    case 'POST playlists':
      return playlistsInsert(ctx, want);
    case 'DELETE playlists':
      return playlistsDelete(ctx);
    case 'GET playlistItems':
      return playlistItemsList(ctx, want);
    case 'POST playlistItems':
      return playlistItemsInsert(ctx, want);
    case 'DELETE playlistItems':
      return playlistItemsDelete(ctx);
    case 'GET search':
      return searchList(ctx);
    case 'GET videos':
      return videosList(ctx, want);
    default:
      return fail(errors.notFound());
  }
}

function channelsList(ctx: Ctx, want: Set<string>): ApiResult {
  if (ctx.params.get('mine') !== 'true' && !ctx.params.get('id')) return fail(errors.badRequest('missingRequiredParameter', 'No filter selected. Expected one of: mine, id, forHandle, forUsername', 'filter'));
  const ids = ctx.params.get('mine') === 'true' ? [ctx.token.userId] : ctx.params.get('id')!.split(',');
  const channels = ids.map((id) => ctx.state.channels.get(id)).filter((channel) => channel !== undefined);
  return page(ctx, channels, 'youtube#channelListResponse', (channel) => ({
    kind: 'youtube#channel',
    etag: etag('channel', channel.id),
    id: channel.id,
    ...(want.has('snippet') ? { snippet: { title: channel.title, description: '', publishedAt: '2015-03-01T00:00:00Z', thumbnails: thumbnails(null), country: channel.country } } : {}),
    ...(want.has('contentDetails') ? { contentDetails: { relatedPlaylists: { likes: 'LL', uploads: `UU${channel.id.slice(2)}` } } } : {}),
  }));
}

function playlistsList(ctx: Ctx, want: Set<string>): ApiResult {
  const { state, token, params } = ctx;
  let found: FakePlaylist[];
  if (params.get('mine') === 'true') {
    found = [...state.playlists.values()].filter((playlist) => playlist.ownerId === token.userId).reverse();
  } else if (params.get('id')) {
    // Unknown ids (and others' private playlists) are simply absent from the answer.
    found = params.get('id')!.split(',').map((id) => state.playlists.get(id)).filter((playlist): playlist is FakePlaylist => playlist !== undefined && (playlist.ownerId === token.userId || playlist.privacyStatus !== 'private'));
  } else if (params.get('channelId')) {
    found = [...state.playlists.values()].filter((playlist) => playlist.ownerId === params.get('channelId') && (playlist.ownerId === token.userId || playlist.privacyStatus === 'public')).reverse();
  } else {
    return fail(errors.badRequest('missingRequiredParameter', 'No filter selected. Expected one of: mine, id, channelId', 'filter'));
  }
  return page(ctx, found, 'youtube#playlistListResponse', (playlist) => playlistResource(state, playlist, want));
}

function playlistsInsert(ctx: Ctx, want: Set<string>): ApiResult {
  const body = readBody(ctx);
  if (isError(body)) return fail(body);
  const snippet = (body['snippet'] ?? {}) as { title?: unknown; description?: unknown };
  const status = (body['status'] ?? {}) as { privacyStatus?: unknown };
  if (typeof snippet.title !== 'string' || snippet.title.trim() === '') return fail(errors.badRequest('playlistTitleRequired', 'The request must specify a playlist title.'));
  if (snippet.title.length > 150 || (typeof snippet.description === 'string' && snippet.description.length > 5_000)) return fail(errors.badRequest('invalidPlaylistSnippet', 'The request provides an invalid playlist snippet.'));
  const privacy = status.privacyStatus === 'private' || status.privacyStatus === 'unlisted' ? status.privacyStatus : 'public';
  const playlist = ctx.state.createPlaylist(ctx.token.userId, snippet.title, typeof snippet.description === 'string' ? snippet.description : '', privacy);
  return ok(playlistResource(ctx.state, playlist, want));
}

function ownedPlaylist(ctx: Ctx, id: string | null, parameter: string, forbiddenReason: string): FakePlaylist | GoogleError {
  if (!id) return errors.badRequest('missingRequiredParameter', `No filter selected. Expected one of: ${parameter}`, parameter);
  const playlist = ctx.state.playlists.get(id);
  if (!playlist || (playlist.ownerId !== ctx.token.userId && playlist.privacyStatus === 'private')) return errors.playlistNotFound(parameter);
  if (playlist.ownerId !== ctx.token.userId) return errors.forbidden(forbiddenReason, 'The request is not properly authorized to modify this playlist.');
  return playlist;
}

function playlistsDelete(ctx: Ctx): ApiResult {
  const playlist = ownedPlaylist(ctx, ctx.params.get('id'), 'id', 'playlistForbidden');
  if (isError(playlist)) return fail(playlist);
  ctx.state.playlists.delete(playlist.id);
  return noContent;
}

function playlistItemsList(ctx: Ctx, want: Set<string>): ApiResult {
  const id = ctx.params.get('playlistId');
  if (!id) return fail(errors.badRequest('missingRequiredParameter', 'No filter selected. Expected one of: playlistId, id', 'playlistId'));
  const playlist = ctx.state.playlists.get(id);
  if (!playlist) return fail(errors.playlistNotFound('playlistId'));
  if (playlist.ownerId !== ctx.token.userId && playlist.privacyStatus === 'private') return fail(errors.forbidden('playlistItemsNotAccessible', 'The request is not properly authorized to retrieve the specified playlist.'));
  return page(ctx, playlist.items.map((_, index) => index), 'youtube#playlistItemListResponse', (index) => itemResource(ctx.state, playlist, index, want));
}

function playlistItemsInsert(ctx: Ctx, want: Set<string>): ApiResult {
  const body = readBody(ctx);
  if (isError(body)) return fail(body);
  const snippet = (body['snippet'] ?? {}) as { playlistId?: unknown; position?: unknown; resourceId?: { kind?: unknown; videoId?: unknown } };
  const playlist = ownedPlaylist(ctx, typeof snippet.playlistId === 'string' ? snippet.playlistId : null, 'playlistId', 'playlistItemsNotAccessible');
  if (isError(playlist)) return fail(playlist);
  if (snippet.resourceId?.kind !== 'youtube#video' || typeof snippet.resourceId.videoId !== 'string') return fail(errors.badRequest('invalidResourceId', 'The resource ID specified is not supported.'));
  const videoId = snippet.resourceId.videoId;
  if (!ctx.state.catalog.videos.has(videoId)) return fail(errors.videoNotFound());
  if (playlist.items.length >= MAX_PLAYLIST_ITEMS) return fail(errors.forbidden('playlistContainsMaximumNumberOfVideos', 'The playlist already contains the maximum allowed number of items.'));
  let position = playlist.items.length;
  if (snippet.position !== undefined && snippet.position !== null) {
    if (typeof snippet.position !== 'number' || !Number.isInteger(snippet.position) || snippet.position < 0 || snippet.position > playlist.items.length) {
      return fail(errors.badRequest('invalidPlaylistItemPosition', 'Request contains an invalid playlist item position.'));
    }
    position = snippet.position;
  }
  playlist.items.splice(position, 0, ctx.state.newItem(videoId));
  playlist.version += 1;
  return ok(itemResource(ctx.state, playlist, position, want));
}

function playlistItemsDelete(ctx: Ctx): ApiResult {
  const id = ctx.params.get('id');
  if (!id) return fail(errors.badRequest('missingRequiredParameter', 'No filter selected. Expected one of: id', 'id'));
  for (const playlist of ctx.state.playlists.values()) {
    const index = playlist.items.findIndex((item) => item.id === id);
    if (index < 0) continue;
    if (playlist.ownerId !== ctx.token.userId) return fail(errors.forbidden('playlistItemsNotAccessible', 'The request is not properly authorized to delete the specified playlist item.'));
    playlist.items.splice(index, 1);
    playlist.version += 1;
    return noContent;
  }
  return fail(errors.playlistItemNotFound());
}

function searchList(ctx: Ctx): ApiResult {
  const { params, state } = ctx;
  const type = params.get('type');
  if (params.get('videoCategoryId') && type !== 'video') return fail(errors.badRequest('invalidSearchFilter', 'The request contains an invalid combination of search filters and/or restrictions.'));
  const words = (params.get('q') ?? '').toLowerCase().split(/[\s"'()\-.,]+/).filter(Boolean);
  const category = params.get('videoCategoryId');
  const found = words.length === 0 ? [] : [...state.catalog.videos.values()].filter((video) => {
    if (category && video.categoryId !== category) return false;
    const haystack = `${video.title} ${video.channelTitle}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
  // Official videos rank first, as they tend to on YouTube; then art tracks, then uploads.
  const rank = (video: FakeVideo) => (video.kind === 'music_video' ? 0 : video.kind === 'art_track' ? 1 : 2);
  found.sort((a, b) => rank(a) - rank(b));
  return page(ctx, found, 'youtube#searchListResponse', (video) => ({
    kind: 'youtube#searchResult',
    etag: etag('search', video.id),
    id: { kind: 'youtube#video', videoId: video.id },
    snippet: {
      publishedAt: video.publishedAt,
      channelId: video.channelId,
      title: htmlEscaped(video.title),
      description: htmlEscaped(video.description.slice(0, 160)),
      thumbnails: thumbnails(video.id),
      channelTitle: htmlEscaped(video.channelTitle),
      liveBroadcastContent: 'none',
      publishTime: video.publishedAt,
    },
  }));
}

function videosList(ctx: Ctx, want: Set<string>): ApiResult {
  const { params, state, token } = ctx;
  if (params.get('myRating')) {
    if (params.get('myRating') !== 'like') return fail(errors.badRequest('invalidRating', 'The request contained an unexpected value for the rating parameter.', 'myRating'));
    const liked = (state.liked.get(token.userId) ?? []).map((entry) => state.catalog.videos.get(entry.videoId)).filter((video): video is FakeVideo => video !== undefined);
    return page(ctx, liked, 'youtube#videoListResponse', (video) => videoResource(video, want));
  }
  const ids = (params.get('id') ?? '').split(',').filter(Boolean);
  if (ids.length === 0) return fail(errors.badRequest('missingRequiredParameter', 'No filter selected. Expected one of: chart, id, myRating', 'filter'));
  if (ids.length > MAX_RESULTS) return fail(errors.badRequest('invalidValue', `The id parameter accepts at most ${MAX_RESULTS} video ids.`, 'id'));
  const found = ids.map((id) => state.catalog.videos.get(id)).filter((video): video is FakeVideo => video !== undefined);
  return ok({ kind: 'youtube#videoListResponse', etag: etag('videos', ids), items: found.map((video) => videoResource(video, want)), pageInfo: { totalResults: found.length, resultsPerPage: found.length } });
}

export { MUSIC_CATEGORY };
