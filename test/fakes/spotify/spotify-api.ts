import { bearerToken, type FakeRequest } from '../fake-provider.ts';
import { seedCatalog } from '../seed-catalog.ts';
import { API_ORIGIN, images, OPEN_ORIGIN, type JsonObject } from './spotify-catalog.ts';
import { apiError, json, MESSAGES, pageParameters, pagingObject, type Reply } from './spotify-responses.ts';
import { parseQuery, searchAlbums, searchArtists, searchTracks } from './spotify-search.ts';
import type { FakePlaylist, FakeUser, SpotifyState } from './spotify-state.ts';

/**
 * The Web API routes under `/v1` that the current (February 2026) API offers for playlists and the
 * library: profile, `/me/playlists` (list, create), `/playlists/{id}` and its `/items` (read, add at
 * a position, replace or reorder, remove by URI), liked tracks, saved albums, followed artists, the
 * generic `/me/library` save/remove/contains, search, and one catalogue track by id (`/tracks/{id}`).
 * Deprecated endpoints (among them the several-tracks `/tracks?ids=`) are not served.
 */

const MAX_ITEMS_PER_WRITE = 100;
const MAX_LIBRARY_URIS = 40;
const MAX_SEARCH_LIMIT = 10;
const MAX_SEARCH_OFFSET = 1000;
const ITEM_URI = /^spotify:(track|episode):[0-9A-Za-z]{22}$/;
const LIBRARY_URI = /^spotify:(track|album|episode|show|audiobook|user|playlist):([0-9A-Za-z]{1,64})$/;
const BASE62_ID = /^[0-9A-Za-z]{22}$/;
/** An ISO 3166-1 alpha-2 code, or `from_token` (the account's country). */
const MARKET = /^(?:[A-Z]{2}|from_token)$/;

interface Caller {
  readonly user: FakeUser;
  readonly scopes: ReadonlySet<string>;
}

function nowIso(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function parseJsonBody(body: string): JsonObject | null {
  if (body.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(body);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : null;
  } catch {
    return null;
  }
}

/**
 * The `fields` filter, for its top-level names only (`fields=snapshot_id,name`): nested selections
 * (`items(track(name))`) keep their whole top-level field.
 */
export function selectFields(object: JsonObject, fields: string | null): JsonObject {
  if (fields === null || fields.trim() === '') return object;
  const names = new Set<string>();
  let depth = 0;
  let current = '';
  for (const char of fields) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (depth === 0 && char === ',') {
      names.add(current.split(/[.(]/)[0]!.trim());
      current = '';
    } else current += char;
  }
  names.add(current.split(/[.(]/)[0]!.trim());
  return Object.fromEntries(Object.entries(object).filter(([name]) => names.has(name)));
}

export class SpotifyApi {
  readonly #state: SpotifyState;

  constructor(state: SpotifyState) {
    this.#state = state;
  }

  /** Who calls: a valid, unexpired bearer token, or the 401 the API answers. */
  authenticate(request: FakeRequest): Caller | Reply {
    const token = bearerToken(request.headers);
    if (!token) return apiError(401, MESSAGES.noToken);
    const grant = this.#state.accessTokens.get(token);
    if (!grant) return apiError(401, MESSAGES.invalidToken);
    if (grant.expired || grant.expiresAt <= Date.now()) return apiError(401, MESSAGES.expiredToken);
    const user = this.#state.users.get(grant.userId);
    if (!user) return apiError(401, MESSAGES.invalidToken);
    return { user, scopes: new Set(grant.scopes) };
  }

  handle(request: FakeRequest): Reply {
    const caller = this.authenticate(request);
    if ('kind' in caller) return caller;
    const { method } = request;
    const path = request.path.replace(/\/+$/, '');
    const playlistMatch = /^\/v1\/playlists\/([^/]+)(\/items)?$/.exec(path);
    const trackMatch = /^\/v1\/tracks\/([^/]+)$/.exec(path);

    if (path === '/v1/me' && method === 'GET') return this.#me(caller);
    if (path === '/v1/me/playlists' && method === 'GET') return this.#myPlaylists(request, caller);
    if (path === '/v1/me/playlists' && method === 'POST') return this.#createPlaylist(request, caller);
    if (path === '/v1/me/tracks' && method === 'GET') return this.#likedTracks(request, caller);
    if (path === '/v1/me/albums' && method === 'GET') return this.#savedAlbums(request, caller);
    if (path === '/v1/me/following' && method === 'GET') return this.#followedArtists(request, caller);
    if (path === '/v1/me/library' && (method === 'PUT' || method === 'DELETE')) return this.#library(request, caller, method);
    if (path === '/v1/me/library/contains' && method === 'GET') return this.#libraryContains(request, caller);
    if (path === '/v1/search' && method === 'GET') return this.#search(request);
    if (trackMatch && method === 'GET') return this.#track(request, trackMatch[1]!);
    if (playlistMatch) {
      const playlist = this.#state.playlists.get(playlistMatch[1]!);
      if (!playlist) return apiError(404, MESSAGES.notFound);
      if (!playlistMatch[2] && method === 'GET') return json(200, selectFields(this.#playlistObject(playlist, caller), request.url.searchParams.get('fields')));
      if (playlistMatch[2] && method === 'GET') return this.#readItems(request, caller, playlist);
      if (playlistMatch[2] && method === 'POST') return this.#addItems(request, caller, playlist);
      if (playlistMatch[2] && method === 'PUT') return this.#updateItems(request, caller, playlist);
      if (playlistMatch[2] && method === 'DELETE') return this.#removeItems(request, caller, playlist);
      return apiError(405, 'Method not allowed');
    }
    return apiError(404, 'Service not found');
  }

  #me(caller: Caller): Reply {
    const { user } = caller;
    const privateFields = caller.scopes.has('user-read-private') ? { country: user.country, product: 'premium', explicit_content: { filter_enabled: false, filter_locked: false } } : {};
    return json(200, {
      account_id: `acc-${user.id}`,
      display_name: user.displayName,
      external_urls: { spotify: `${OPEN_ORIGIN}/user/${user.id}` },
      followers: { href: null, total: 0 },
      href: `${API_ORIGIN}/v1/users/${user.id}`,
      id: user.id,
      images: [],
      type: 'user',
      uri: `spotify:user:${user.id}`,
      ...privateFields,
    });
  }

  #owner(userId: string): JsonObject {
    const owner = this.#state.users.get(userId);
    return { display_name: owner?.displayName ?? null, external_urls: { spotify: `${OPEN_ORIGIN}/user/${userId}` }, href: `${API_ORIGIN}/v1/users/${userId}`, id: userId, type: 'user', uri: `spotify:user:${userId}` };
  }

  #playlistImages(playlist: FakePlaylist): JsonObject[] {
    // Spotify shows a mosaic of the first covers; an empty playlist has no image.
    return playlist.entries.length === 0 ? [] : images(`playlist:${playlist.id}`).slice(0, 1).map((image) => ({ ...image, height: null, width: null }));
  }

  #simplifiedPlaylist(playlist: FakePlaylist): JsonObject {
    const itemsRef = { href: `${API_ORIGIN}/v1/playlists/${playlist.id}/items`, total: playlist.entries.length };
    return {
      collaborative: playlist.collaborative,
      description: playlist.description,
      external_urls: { spotify: `${OPEN_ORIGIN}/playlist/${playlist.id}` },
      href: `${API_ORIGIN}/v1/playlists/${playlist.id}`,
      id: playlist.id,
      images: this.#playlistImages(playlist),
      name: playlist.name,
      owner: this.#owner(playlist.ownerId),
      public: playlist.public,
      snapshot_id: playlist.snapshotId,
      items: itemsRef,
      tracks: itemsRef,
      type: 'playlist',
      uri: `spotify:playlist:${playlist.id}`,
    };
  }

  /** The full PlaylistObject; its `items` page only for the owner and collaborators. */
  #playlistObject(playlist: FakePlaylist, caller: Caller): JsonObject {
    const full: JsonObject = { ...this.#simplifiedPlaylist(playlist), followers: { href: null, total: playlist.followers } };
    delete full['items'];
    delete full['tracks'];
    if (this.#state.canRead(playlist, caller.user.id)) {
      const page = pagingObject(`/v1/playlists/${playlist.id}/items`, new URLSearchParams(), this.#itemObjects(playlist), 0, 100);
      full['items'] = page;
      full['tracks'] = page;
    }
    return full;
  }

  #itemObjects(playlist: FakePlaylist): JsonObject[] {
    return playlist.entries.map((entry) => {
      const catalogEntry = this.#state.catalog.entryForUri(entry.uri);
      // An item Spotify no longer has comes back as `null`.
      const item = catalogEntry ? this.#state.catalog.itemObject(catalogEntry) : null;
      return {
        added_at: entry.addedAt,
        added_by: { external_urls: { spotify: `${OPEN_ORIGIN}/user/${entry.addedBy}` }, href: `${API_ORIGIN}/v1/users/${entry.addedBy}`, id: entry.addedBy, type: 'user', uri: `spotify:user:${entry.addedBy}` },
        is_local: catalogEntry?.kind === 'local',
        primary_color: null,
        item,
        track: item,
        video_thumbnail: { url: null },
      };
    });
  }

  #myPlaylists(request: FakeRequest, caller: Caller): Reply {
    const page = pageParameters(request.url.searchParams, { limit: 20, max: 50 });
    if (typeof page === 'string') return apiError(400, page);
    const visible = caller.user.playlists.flatMap((id) => {
      const playlist = this.#state.playlists.get(id);
      if (!playlist) return [];
      const own = playlist.ownerId === caller.user.id;
      // Private and collaborative playlists need their read scopes.
      if (!playlist.public && !caller.scopes.has('playlist-read-private') && !(playlist.collaborative && caller.scopes.has('playlist-read-collaborative'))) return [];
      if (playlist.collaborative && !own && !caller.scopes.has('playlist-read-collaborative')) return [];
      return [this.#simplifiedPlaylist(playlist)];
    });
    return json(200, pagingObject('/v1/me/playlists', request.url.searchParams, visible, page.offset, page.limit));
  }

  #createPlaylist(request: FakeRequest, caller: Caller): Reply {
    const body = parseJsonBody(request.body);
    if (!body) return apiError(400, 'Error parsing JSON.');
    if (typeof body['name'] !== 'string' || body['name'].trim() === '') return apiError(400, 'Missing required field: name');
    const isPublic = body['public'] === undefined ? true : body['public'] === true;
    const collaborative = body['collaborative'] === true;
    if (collaborative && isPublic) return apiError(400, 'Collaborative playlists can only be private.');
    const needed = isPublic ? 'playlist-modify-public' : 'playlist-modify-private';
    if (!caller.scopes.has(needed)) return apiError(403, MESSAGES.scope);
    const description = typeof body['description'] === 'string' ? body['description'] : '';
    const playlist = this.#state.createPlaylist(caller.user, { name: body['name'], description, public: isPublic, collaborative });
    return json(201, this.#playlistObject(playlist, caller));
  }

  #readItems(request: FakeRequest, caller: Caller, playlist: FakePlaylist): Reply {
    if (!caller.scopes.has('playlist-read-private') && !playlist.public) return apiError(403, MESSAGES.scope);
    if (!this.#state.canRead(playlist, caller.user.id)) return apiError(403, 'Forbidden');
    const page = pageParameters(request.url.searchParams, { limit: 20, max: 50 });
    if (typeof page === 'string') return apiError(400, page);
    return json(200, pagingObject(`/v1/playlists/${playlist.id}/items`, request.url.searchParams, this.#itemObjects(playlist), page.offset, page.limit));
  }

  #checkWrite(caller: Caller, playlist: FakePlaylist): Reply | null {
    const needed = playlist.public ? 'playlist-modify-public' : 'playlist-modify-private';
    if (!caller.scopes.has(needed)) return apiError(403, MESSAGES.scope);
    if (!this.#state.canEdit(playlist, caller.user.id)) return apiError(403, "You cannot add tracks to a playlist you don't own.");
    return null;
  }

  /** URIs from the query (`uris=a,b`) or, when absent there, from the body's `uris` array. */
  #writeUris(request: FakeRequest, body: JsonObject): string[] | null {
    const fromQuery = request.url.searchParams.get('uris');
    if (fromQuery !== null) return fromQuery.split(',').map((uri) => uri.trim()).filter(Boolean);
    const uris = body['uris'];
    if (uris === undefined) return null;
    return Array.isArray(uris) && uris.every((uri) => typeof uri === 'string') ? (uris) : null;
  }

  #validateItemUris(uris: readonly string[]): Reply | null {
    if (uris.length > MAX_ITEMS_PER_WRITE) return apiError(400, `You can add a maximum of ${MAX_ITEMS_PER_WRITE} tracks per request.`);
    for (const uri of uris) {
      if (!ITEM_URI.test(uri)) return apiError(400, `Invalid track uri: ${uri}`);
      if (!this.#state.catalog.entryForUri(uri)) return apiError(400, 'Payload contains a non-existing ID');
    }
    return null;
  }

  #addItems(request: FakeRequest, caller: Caller, playlist: FakePlaylist): Reply {
    const denied = this.#checkWrite(caller, playlist);
    if (denied) return denied;
    const body = parseJsonBody(request.body);
    if (!body) return apiError(400, 'Error parsing JSON.');
    const uris = this.#writeUris(request, body);
    if (!uris || uris.length === 0) return apiError(400, 'No uris provided.');
    const invalid = this.#validateItemUris(uris);
    if (invalid) return invalid;
    const rawPosition = request.url.searchParams.get('position') ?? body['position'];
    let position = playlist.entries.length;
    if (rawPosition !== undefined && rawPosition !== null) {
      position = Number(rawPosition);
      if (!Number.isInteger(position) || position < 0 || position > playlist.entries.length) return apiError(400, 'Index out of bounds');
    }
    const addedAt = nowIso();
    playlist.entries.splice(position, 0, ...uris.map((uri) => ({ uri, addedAt, addedBy: caller.user.id })));
    return json(201, { snapshot_id: this.#state.touch(playlist) });
  }

  /** Replace (with `uris`) or reorder (with `range_start` and `insert_before`): mutually exclusive. */
  #updateItems(request: FakeRequest, caller: Caller, playlist: FakePlaylist): Reply {
    const denied = this.#checkWrite(caller, playlist);
    if (denied) return denied;
    const body = parseJsonBody(request.body);
    if (!body) return apiError(400, 'Error parsing JSON.');
    const uris = this.#writeUris(request, body);
    const reorder = body['range_start'] !== undefined || body['insert_before'] !== undefined;
    if (uris && reorder) return apiError(400, 'Replace and reorder cannot be combined.');
    if (uris) {
      const invalid = this.#validateItemUris(uris);
      if (invalid) return invalid;
      const addedAt = nowIso();
      playlist.entries = uris.map((uri) => ({ uri, addedAt, addedBy: caller.user.id }));
      return json(200, { snapshot_id: this.#state.touch(playlist) });
    }
    if (!reorder) return apiError(400, 'Missing uris or range_start and insert_before.');
    const start = Number(body['range_start']);
    const before = Number(body['insert_before']);
    const length = body['range_length'] === undefined ? 1 : Number(body['range_length']);
    const size = playlist.entries.length;
    if (![start, before, length].every(Number.isInteger) || start < 0 || length < 1 || start + length > size || before < 0 || before > size) return apiError(400, 'Index out of bounds');
    if (typeof body['snapshot_id'] === 'string' && !playlist.snapshots.has(body['snapshot_id'])) return apiError(400, 'Invalid snapshot id');
    const moved = playlist.entries.splice(start, length);
    const target = before > start ? before - length : before;
    playlist.entries.splice(Math.max(0, target), 0, ...moved);
    return json(200, { snapshot_id: this.#state.touch(playlist) });
  }

  /** Removes every occurrence of each URI (the current endpoint identifies items by URI only). */
  #removeItems(request: FakeRequest, caller: Caller, playlist: FakePlaylist): Reply {
    const denied = this.#checkWrite(caller, playlist);
    if (denied) return denied;
    const body = parseJsonBody(request.body);
    if (!body) return apiError(400, 'Error parsing JSON.');
    const items = body['items'];
    if (!Array.isArray(items) || items.length === 0) return apiError(400, 'Missing items.');
    if (items.length > MAX_ITEMS_PER_WRITE) return apiError(400, `You can remove a maximum of ${MAX_ITEMS_PER_WRITE} tracks per request.`);
    const uris = new Set<string>();
    for (const item of items as unknown[]) {
      const uri = item !== null && typeof item === 'object' ? (item as JsonObject)['uri'] : undefined;
      if (typeof uri !== 'string' || !ITEM_URI.test(uri)) return apiError(400, `Invalid track uri: ${String(uri)}`);
      uris.add(uri);
    }
    const snapshot = body['snapshot_id'];
    if (snapshot !== undefined && (typeof snapshot !== 'string' || !playlist.snapshots.has(snapshot))) return apiError(400, 'Invalid snapshot id');
    playlist.entries = playlist.entries.filter((entry) => !uris.has(entry.uri));
    return json(200, { snapshot_id: this.#state.touch(playlist) });
  }

  #likedTracks(request: FakeRequest, caller: Caller): Reply {
    if (!caller.scopes.has('user-library-read')) return apiError(403, MESSAGES.scope);
    const page = pageParameters(request.url.searchParams, { limit: 20, max: 50 });
    if (typeof page === 'string') return apiError(400, page);
    const saved = caller.user.liked.flatMap((entry) => {
      const catalogEntry = this.#state.catalog.entryForUri(entry.value);
      return catalogEntry ? [{ added_at: entry.addedAt, track: this.#state.catalog.trackObject(catalogEntry) }] : [];
    });
    return json(200, pagingObject('/v1/me/tracks', request.url.searchParams, saved, page.offset, page.limit));
  }

  #savedAlbums(request: FakeRequest, caller: Caller): Reply {
    if (!caller.scopes.has('user-library-read')) return apiError(403, MESSAGES.scope);
    const page = pageParameters(request.url.searchParams, { limit: 20, max: 50 });
    if (typeof page === 'string') return apiError(400, page);
    const saved = caller.user.savedAlbums.flatMap((entry) => {
      const album = this.#state.catalog.albumById(entry.value);
      return album ? [{ added_at: entry.addedAt, album: this.#state.catalog.albumObject(album.key) }] : [];
    });
    return json(200, pagingObject('/v1/me/albums', request.url.searchParams, saved, page.offset, page.limit));
  }

  /** Cursor-paged: `after` is the last artist id of the previous page. */
  #followedArtists(request: FakeRequest, caller: Caller): Reply {
    if (!caller.scopes.has('user-follow-read')) return apiError(403, MESSAGES.scope);
    const query = request.url.searchParams;
    if (query.get('type') !== 'artist') return apiError(400, "Bad search type field 'type'");
    const page = pageParameters(query, { limit: 20, max: 50 });
    if (typeof page === 'string') return apiError(400, page);
    const all = caller.user.followedArtists;
    const after = query.get('after');
    const start = after === null ? 0 : all.indexOf(after) + 1;
    if (after !== null && start === 0) return apiError(400, 'Invalid after cursor');
    const ids = all.slice(start, start + page.limit);
    const more = start + page.limit < all.length;
    const link = (cursor: string | null) => {
      const params = new URLSearchParams({ type: 'artist', limit: String(page.limit) });
      if (cursor) params.set('after', cursor);
      return `${API_ORIGIN}/v1/me/following?${params.toString()}`;
    };
    const items = ids.flatMap((id) => {
      const artist = this.#state.catalog.artistById(id);
      return artist ? [this.#state.catalog.artistObject(artist.key)] : [];
    });
    const last = ids.at(-1) ?? null;
    return json(200, { artists: { href: link(after), items, limit: page.limit, next: more ? link(last) : null, cursors: { after: more ? last : null, before: null }, total: all.length } });
  }

  #libraryUris(request: FakeRequest): { type: string; id: string; uri: string }[] | Reply {
    const raw = request.url.searchParams.get('uris');
    if (!raw) return apiError(400, 'Missing uris parameter');
    const uris = raw.split(',').map((uri) => uri.trim()).filter(Boolean);
    if (uris.length > MAX_LIBRARY_URIS) return apiError(400, `Too many URIs: a maximum of ${MAX_LIBRARY_URIS} URIs is allowed`);
    const parsed: { type: string; id: string; uri: string }[] = [];
    for (const uri of uris) {
      const match = LIBRARY_URI.exec(uri);
      if (!match) return apiError(400, `Invalid or unsupported URI: ${uri}`);
      parsed.push({ type: match[1]!, id: match[2]!, uri });
    }
    return parsed;
  }

  #library(request: FakeRequest, caller: Caller, method: 'PUT' | 'DELETE'): Reply {
    const parsed = this.#libraryUris(request);
    if (!Array.isArray(parsed)) return parsed;
    for (const { type } of parsed) {
      const allowed =
        type === 'playlist'
          ? caller.scopes.has('playlist-modify-public') || caller.scopes.has('playlist-modify-private')
          : type === 'user'
            ? caller.scopes.has('user-follow-modify')
            : caller.scopes.has('user-library-modify');
      if (!allowed) return apiError(403, MESSAGES.scope);
    }
    const { user } = caller;
    const addedAt = nowIso();
    for (const { type, id, uri } of parsed) {
      if (type === 'album') {
        if (!this.#state.catalog.albumById(id)) return apiError(400, 'Payload contains a non-existing ID');
        user.savedAlbums = user.savedAlbums.filter((entry) => entry.value !== id);
        if (method === 'PUT') user.savedAlbums.unshift({ value: id, addedAt });
      } else if (type === 'track') {
        if (!this.#state.catalog.entryForUri(uri)) return apiError(400, 'Payload contains a non-existing ID');
        user.liked = user.liked.filter((entry) => entry.value !== uri);
        if (method === 'PUT') user.liked.unshift({ value: uri, addedAt });
      } else if (type === 'playlist') {
        const playlist = this.#state.playlists.get(id);
        if (!playlist) return apiError(404, MESSAGES.notFound);
        const had = user.playlists.includes(id);
        user.playlists = user.playlists.filter((entry) => entry !== id);
        if (method === 'PUT') user.playlists.unshift(id);
        if (playlist.ownerId !== user.id) playlist.followers = Math.max(0, playlist.followers + (method === 'PUT' ? (had ? 0 : 1) : had ? -1 : 0));
      }
      // Episodes, shows, audiobooks and users are accepted but not modelled by this fake.
    }
    return json(200, undefined);
  }

  #libraryContains(request: FakeRequest, caller: Caller): Reply {
    const parsed = this.#libraryUris(request);
    if (!Array.isArray(parsed)) return parsed;
    const { user } = caller;
    return json(
      200,
      parsed.map(({ type, id, uri }) => {
        if (type === 'album') return user.savedAlbums.some((entry) => entry.value === id);
        if (type === 'track') return user.liked.some((entry) => entry.value === uri);
        if (type === 'playlist') return user.playlists.includes(id);
        return false;
      }),
    );
  }

  /**
   * Get Track: the full TrackObject, as search hits and playlist items show it. `market` is checked
   * but, as everywhere in this fake, every track is available in every market.
   */
  #track(request: FakeRequest, id: string): Reply {
    const market = request.url.searchParams.get('market');
    if (market !== null && !MARKET.test(market)) return apiError(400, 'Invalid market code');
    if (!BASE62_ID.test(id)) return apiError(400, 'invalid id');
    const entry = this.#state.catalog.entryForUri(`spotify:track:${id}`);
    if (!entry) return apiError(404, MESSAGES.notFound);
    return json(200, this.#state.catalog.trackObject(entry));
  }

  #search(request: FakeRequest): Reply {
    const query = request.url.searchParams;
    const q = query.get('q');
    if (!q || q.trim() === '') return apiError(400, 'No search query');
    const types = (query.get('type') ?? '').split(',').filter(Boolean);
    if (types.length === 0) return apiError(400, 'Missing parameter type');
    const known = ['album', 'artist', 'playlist', 'track', 'show', 'episode', 'audiobook'];
    if (types.some((type) => !known.includes(type))) return apiError(400, "Bad search type field 'type'");
    const page = pageParameters(query, { limit: 5, max: MAX_SEARCH_LIMIT });
    if (typeof page === 'string') return apiError(400, page);
    if (page.offset > MAX_SEARCH_OFFSET) return apiError(400, 'Invalid offset');
    const parsed = parseQuery(q);
    const catalog = this.#state.catalog;
    const answer: JsonObject = {};
    const { albums } = seedCatalog();
    for (const type of types) {
      if (type === 'track') answer['tracks'] = pagingObject('/v1/search', query, searchTracks(catalog, parsed).map((entry) => catalog.trackObject(entry)), page.offset, page.limit);
      else if (type === 'album') answer['albums'] = pagingObject('/v1/search', query, searchAlbums(catalog, parsed).filter((album) => albums.has(album.key)).map((album) => catalog.simplifiedAlbum(album.key)), page.offset, page.limit);
      else if (type === 'artist') answer['artists'] = pagingObject('/v1/search', query, searchArtists(catalog, parsed).map((artist) => catalog.artistObject(artist.key)), page.offset, page.limit);
      else answer[`${type}s`] = pagingObject('/v1/search', query, [], page.offset, page.limit);
    }
    return json(200, answer);
  }
}
