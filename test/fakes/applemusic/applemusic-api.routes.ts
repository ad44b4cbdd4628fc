import type { FakeRequest } from '../fake-provider.ts';
import { STOREFRONTS, type CatalogSong } from './applemusic-catalog.ts';
import { AppleApiError, catalogMusicVideo, catalogSong, errors, libraryItem, libraryPlaylist, storefront, type Resource } from './applemusic-resources.ts';
import type { AppleMusicState, FakeUser, LibraryItem, LibraryPlaylist } from './applemusic-state.ts';
import { developerTokenProblem, type TrustedKey } from './developer-token.ts';

/**
 * The fake `https://api.music.apple.com/v1`: the storefront of the user, library playlists (offset
 * paging, creation answering 201, appends answering 204 and showing up only after a few reads),
 * library songs, catalog songs by id and by ISRC, and catalog search. Every request needs a valid
 * developer token (`Authorization: Bearer <ES256 JWT>`); `/v1/me/…` also a music user token
 * (`Music-User-Token`). There is no call to delete a playlist or remove its tracks — none exists.
 * Handlers return their answer instead of writing it, so a write can be applied and its answer
 * lost (the "ambiguous write" failure).
 */

export interface ApiResult {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

export interface ApiOptions {
  readonly trustedKeys: () => readonly TrustedKey[];
  /** Reads of a playlist's tracks before an accepted append shows (0: at once). */
  readonly appendVisibleAfterReads: () => number;
}

/** The most tracks one append request may carry (Apple publishes no number; the plugin keeps to it). */
export const MAX_APPEND = 100;
const LIBRARY_LIMIT = { fallback: 25, max: 100 };
const SEARCH_LIMIT = { fallback: 5, max: 25 };
const ISRC_FILTER_MAX = 25;
/** "The maximum fetch limit is 300" (Get Multiple Catalog Songs by ID). */
const IDS_MAX = 300;

interface Call {
  readonly state: AppleMusicState;
  readonly options: ApiOptions;
  readonly request: FakeRequest;
  readonly url: URL;
}

function limitOf(url: URL, bounds: { fallback: number; max: number }): number {
  const raw = url.searchParams.get('limit');
  if (raw === null) return bounds.fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1) throw errors.invalidParameter('limit', 'Value must be a positive integer');
  if (value > bounds.max) throw errors.invalidParameter('limit', `Value must be an integer less than or equal to ${bounds.max}`);
  return value;
}

function offsetOf(url: URL): number {
  const raw = url.searchParams.get('offset');
  if (raw === null) return 0;
  if (!/^\d+$/.test(raw)) throw errors.invalidParameter('offset', 'Value must be a non-negative integer');
  return Number(raw);
}

/** One page with Apple's relative `next` link (the query kept, `offset` moved on) and `meta.total`. */
function page<T>(call: Call, all: readonly T[], limit: number, render: (item: T) => Resource, path = call.url.pathname): Resource {
  const offset = offsetOf(call.url);
  const slice = all.slice(offset, offset + limit);
  const body: Resource = { data: slice.map(render), meta: { total: all.length } };
  if (offset + limit < all.length) {
    const next = new URLSearchParams(call.url.searchParams);
    next.set('offset', String(offset + limit));
    body['next'] = `${path}?${next.toString()}`;
  }
  return body;
}

function includes(url: URL, name: string): boolean {
  return (url.searchParams.get('include') ?? '').split(',').includes(name);
}

function userOf(call: Call): FakeUser {
  const token = call.request.headers['music-user-token'];
  if (!token) throw errors.forbidden('A music user token is required');
  const user = call.state.usersByToken.get(token);
  if (!user || call.state.expiredTokens.has(token)) throw errors.forbidden('Invalid or expired music user token');
  return user;
}

function playlistOf(call: Call, user: FakeUser, id: string): LibraryPlaylist {
  const playlist = call.state.playlists.get(id);
  if (!playlist || playlist.ownerId !== user.id) throw errors.notFound();
  return playlist;
}

function jsonBody(call: Call): Record<string, unknown> {
  try {
    const value = JSON.parse(call.request.body) as unknown;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw errors.invalidBody('Unable to parse request body');
}

/** Resolves `{id, type}` track references to library items, or null for ids the catalogue lacks (Apple skips those). */
function resolveTracks(call: Call, user: FakeUser, data: unknown): (LibraryItem | null)[] {
  if (!Array.isArray(data) || data.length === 0) throw errors.invalidBody('data must be a non-empty array of tracks');
  if (data.length > MAX_APPEND) throw errors.invalidBody(`At most ${MAX_APPEND} tracks may be added in one request`);
  const library = call.state.library(user.id);
  return data.map((entry) => {
    const ref = entry as { id?: unknown; type?: unknown } | null;
    if (typeof ref?.id !== 'string' || typeof ref.type !== 'string') throw errors.invalidBody('every track needs an id and a type');
    switch (ref.type) {
      case 'songs': {
        const song = call.state.catalog.songs.get(ref.id);
        return song && call.state.catalog.inStorefront(song, user.storefront) ? call.state.libraryItemFor(user.id, 'song', song.id) : null;
      }
      case 'music-videos':
        return call.state.catalog.musicVideos.has(ref.id) ? call.state.libraryItemFor(user.id, 'music-video', ref.id) : null;
      case 'library-songs':
      case 'library-music-videos':
        return library.byLibraryId.get(ref.id) ?? null;
      default:
        throw errors.invalidBody(`Unsupported track type ${ref.type}`);
    }
  });
}

function appendTracks(call: Call, playlist: LibraryPlaylist, items: readonly LibraryItem[]): void {
  if (items.length === 0) return;
  playlist.pending.push({ items, readsLeft: call.options.appendVisibleAfterReads() });
  call.state.settle(playlist);
}

function storefrontOf(id: string): string {
  if (!Object.hasOwn(STOREFRONTS, id)) throw errors.notFound(`Storefront ${id} was not found`);
  return id;
}

function normalise(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[\s+]+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);
}

function search(call: Call, sf: string): ApiResult {
  const term = call.url.searchParams.get('term');
  if (!term || term.trim() === '') throw errors.invalidParameter('term', 'A search term is required');
  const types = (call.url.searchParams.get('types') ?? '').split(',').filter(Boolean);
  if (types.length === 0) throw errors.invalidParameter('types', 'At least one type is required');
  const limit = limitOf(call.url, SEARCH_LIMIT);
  const words = normalise(term);
  const results: Resource = {};
  const order: string[] = [];
  if (types.includes('songs')) {
    const scored = [...call.state.catalog.songs.values()]
      .filter((song) => call.state.catalog.inStorefront(song, sf))
      .map((song) => {
        const haystack = new Set(normalise(`${song.name} ${song.artistName} ${song.albumName}`));
        const name = normalise(song.name);
        return { song, all: words.every((word) => haystack.has(word)), inName: name.filter((word) => words.includes(word)).length / Math.max(1, name.length) };
      })
      .filter((entry) => entry.all)
      .sort((a, b) => b.inName - a.inName)
      .map((entry) => entry.song);
    if (scored.length > 0) {
      // Search groups carry `href`, `next` and `data`, but no `meta.total`.
      const { meta: _total, ...songs } = page(call, scored, limit, (song: CatalogSong) => catalogSong(song, sf));
      results['songs'] = { href: `${call.url.pathname}?${call.url.searchParams.toString()}`, ...songs };
      order.push('songs');
    }
  }
  return { status: 200, body: { results, meta: { results: { order, rawOrder: order } } } };
}

function route(call: Call): ApiResult {
  const { request, state, url } = call;
  const segments = request.path.split('/').filter(Boolean).map(decodeURIComponent);
  const method = request.method;
  // segments[0] === 'v1'
  if (segments[1] === 'catalog' && segments[2] && method === 'GET') {
    const sf = storefrontOf(segments[2]);
    if (segments[3] === 'songs' && segments.length === 4) {
      const isrcFilter = url.searchParams.get('filter[isrc]');
      const idsFilter = url.searchParams.get('ids');
      if (isrcFilter !== null) {
        const wanted = isrcFilter.split(',').filter(Boolean);
        if (wanted.length === 0 || wanted.length > ISRC_FILTER_MAX) throw errors.invalidParameter('filter[isrc]', `Between 1 and ${ISRC_FILTER_MAX} ISRCs are required`);
        const found = [...state.catalog.songs.values()].filter((song) => song.isrc !== null && wanted.includes(song.isrc) && state.catalog.inStorefront(song, sf));
        const filters = Object.fromEntries(wanted.map((isrc) => [isrc, found.filter((song) => song.isrc === isrc).map((song) => ({ id: song.id, type: 'songs', href: `/v1/catalog/${sf}/songs/${song.id}` }))]));
        return { status: 200, body: { data: found.map((song) => catalogSong(song, sf)), meta: { filters: { isrc: filters } } } };
      }
      if (idsFilter !== null) {
        const wanted = idsFilter.split(',').filter(Boolean);
        if (wanted.length === 0 || wanted.length > IDS_MAX) throw errors.invalidParameter('ids', `Between 1 and ${IDS_MAX} ids are required`);
        // Unknown ids (and songs not sold in the storefront) are left out of `data`.
        const found = wanted
          .map((id) => state.catalog.songs.get(id))
          .filter((song): song is CatalogSong => song !== undefined && state.catalog.inStorefront(song, sf));
        return { status: 200, body: { data: found.map((song) => catalogSong(song, sf)) } };
      }
      throw errors.invalidParameter('ids', 'Either ids or filter[isrc] is required');
    }
    if (segments[3] === 'songs' && segments[4] && segments.length === 5) {
      const song = state.catalog.songs.get(segments[4]);
      if (!song || !state.catalog.inStorefront(song, sf)) throw errors.notFound();
      return { status: 200, body: { data: [catalogSong(song, sf)] } };
    }
    if (segments[3] === 'music-videos' && segments[4] && segments.length === 5) {
      const video = state.catalog.musicVideos.get(segments[4]);
      if (!video) throw errors.notFound();
      return { status: 200, body: { data: [catalogMusicVideo(video, sf)] } };
    }
    if (segments[3] === 'search' && segments.length === 4) return search(call, sf);
    throw errors.notFound();
  }

  if (segments[1] !== 'me') throw errors.notFound();
  const user = userOf(call);
  const tail = segments.slice(2).join('/');
  if (tail === 'storefront' && method === 'GET') return { status: 200, body: { data: [storefront(user.storefront)] } };

  if (tail === 'library/playlists') {
    if (method === 'GET') {
      // Apple lists library playlists in alphabetical order.
      const mine = [...state.playlists.values()].filter((playlist) => playlist.ownerId === user.id).sort((a, b) => a.name.localeCompare(b.name) || a.dateAdded.localeCompare(b.dateAdded));
      return { status: 200, body: page(call, mine, limitOf(url, LIBRARY_LIMIT), libraryPlaylist) };
    }
    if (method === 'POST') {
      const body = jsonBody(call);
      const raw: unknown = body['attributes'];
      const attributes = raw !== null && typeof raw === 'object' ? (raw as { name?: unknown; description?: unknown; isPublic?: unknown }) : null;
      if (!attributes || typeof attributes.name !== 'string' || attributes.name.trim() === '') throw errors.invalidBody('attributes.name is required');
      const playlist = state.createPlaylist(user.id, {
        name: attributes.name,
        description: typeof attributes.description === 'string' ? attributes.description : '',
        isPublic: attributes.isPublic === true,
      });
      const tracks = (body['relationships'] as { tracks?: { data?: unknown } } | undefined)?.tracks?.data;
      if (tracks !== undefined) appendTracks(call, playlist, resolveTracks(call, user, tracks).filter((item): item is LibraryItem => item !== null));
      return { status: 201, body: { data: [libraryPlaylist(playlist)] } };
    }
  }

  const playlistMatch = /^library\/playlists\/([^/]+)(\/tracks)?$/.exec(tail);
  if (playlistMatch) {
    const playlist = playlistOf(call, user, playlistMatch[1]!);
    if (!playlistMatch[2] && method === 'GET') return { status: 200, body: { data: [libraryPlaylist(playlist)] } };
    if (playlistMatch[2] && method === 'GET') {
      state.readTracks(playlist);
      // Apple answers an empty playlist's tracks with 404, not with an empty page.
      if (playlist.items.length === 0) throw errors.notFound();
      return { status: 200, body: page(call, playlist.items, limitOf(url, LIBRARY_LIMIT), (item) => libraryItem(state.catalog, item, user.storefront, includes(url, 'catalog'))) };
    }
    if (playlistMatch[2] && method === 'POST') {
      const items = resolveTracks(call, user, jsonBody(call)['data']);
      if (!playlist.canEdit) throw errors.forbidden('The playlist cannot be edited');
      appendTracks(call, playlist, items.filter((item): item is LibraryItem => item !== null));
      return { status: 204, body: undefined };
    }
  }

  if (tail === 'library/songs' && method === 'GET') {
    const { songs } = state.library(user.id);
    return { status: 200, body: page(call, songs, limitOf(url, LIBRARY_LIMIT), (item) => libraryItem(state.catalog, item, user.storefront, includes(url, 'catalog'))) };
  }
  throw errors.notFound();
}

/** Checks the developer token, then answers the request (or Apple's error for it). */
export function handleApi(state: AppleMusicState, options: ApiOptions, request: FakeRequest): ApiResult {
  const call: Call = { state, options, request, url: request.url };
  try {
    const authorization = request.headers['authorization'];
    const token = authorization && /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    const problem = developerTokenProblem(token ?? null, options.trustedKeys());
    if (problem) throw errors.unauthorized(`Invalid developer token: ${problem}`);
    return route(call);
  } catch (error) {
    if (error instanceof AppleApiError) return { status: error.status, body: error.body, headers: error.headers };
    throw error;
  }
}
