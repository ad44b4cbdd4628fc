import { randomUUID } from 'node:crypto';
import { bearerToken, type FakeRequest } from '../fake-provider.ts';
import { arrayParam, JsonApiError, paginate, parseInclude, type ResourceIdentifier } from './json-api.ts';
import { CompoundDocument, playlistResource, RELATIONSHIPS, userResource } from './tidal-resources.ts';
import type { AccessToken, TidalState } from './tidal-state.ts';
import { batchData, checkFilters, compound, cursorOf, idempotent, ownedPlaylist, readBody, requireScope, sortParam, userIdParam, visiblePlaylist, withIncluded, type ApiOptions, type ApiResult, type BatchEntry, type Handler, MAX_MOVE_BATCH } from './tidal-call.ts';
import { listAlbums, listArtists, listTracks, search, single } from './tidal-catalog.routes.ts';
import { addToCollection, collectionRoot, listCollection, removeFromCollection } from './tidal-collection.routes.ts';

/**
 * The fake `https://openapi.tidal.com/v2` JSON:API: the user, playlists and their items (per-entry
 * `itemId`, `positionBefore`, 50 per add or removal; moves by `PATCH` with `positionBefore`, 20 per
 * request), catalogue lookups (`filter[isrc]`, `filter[id]`,
 * `filter[barcodeId]`), search, and the user's collections of tracks, albums and artists. Every
 * mutation honours `Idempotency-Key` (same key and payload: the first answer again; another
 * payload: 422). Handlers return their answer instead of writing it, so the server can apply a
 * write and then lose the answer (the "ambiguous write" failure).
 */

export { MAX_BATCH, type ApiOptions, type ApiResult } from './tidal-call.ts';

const getUser: Handler = (call) => {
  const id = userIdParam(call, call.params[0]!);
  requireScope(call, 'user.read');
  return { status: 200, body: { data: userResource(call.state.users.get(id)!), links: { self: `/users/${id}` } } };
};

// --- playlists ---

const PLAYLIST_SORTS = ['createdAt', '-createdAt', 'lastModifiedAt', '-lastModifiedAt', 'name', '-name'];

const listPlaylists: Handler = (call) => {
  checkFilters(call.url, ['filter[owners.id]', 'filter[id]', 'filter[collaborators.id]'], true);
  const owners = arrayParam(call.url, 'filter[owners.id]').map((id) => (id === 'me' ? call.user.id : id));
  const collaborators = arrayParam(call.url, 'filter[collaborators.id]');
  const ids = arrayParam(call.url, 'filter[id]');
  if (owners.includes(call.user.id)) requireScope(call, 'playlists.read');
  const sort = sortParam(call.url, PLAYLIST_SORTS, '-createdAt');
  let playlists = [...call.state.playlists.values()].filter((playlist) => playlist.accessType !== 'PRIVATE' || playlist.ownerId === call.user.id);
  if (owners.length) playlists = playlists.filter((playlist) => owners.includes(playlist.ownerId));
  if (ids.length) playlists = playlists.filter((playlist) => ids.includes(playlist.id));
  // Collaborations are not modelled: nobody collaborates on anything.
  if (collaborators.length) playlists = [];
  const field = sort.replace(/^-/, '') as 'createdAt' | 'lastModifiedAt' | 'name';
  const direction = sort.startsWith('-') ? -1 : 1;
  playlists.sort((a, b) => direction * a[field].localeCompare(b[field]) || a.id.localeCompare(b.id));
  const { page, links } = paginate(playlists, cursorOf(call.url), call.options.pageSize, call.url);
  const data = page.map((playlist) => playlistResource(playlist, call.state));
  const document = compound(call, data, 'playlists');
  return { status: 200, body: withIncluded({ data, links }, document) };
};

const getPlaylist: Handler = (call) => {
  const playlist = visiblePlaylist(call, call.params[0]!);
  const data = playlistResource(playlist, call.state);
  const document = compound(call, [data], 'playlists');
  return { status: 200, body: withIncluded({ data, links: { self: `/playlists/${playlist.id}` } }, document) };
};

const createPlaylist: Handler = (call) => {
  requireScope(call, 'playlists.write');
  const body = readBody(call);
  return idempotent(call, () => {
    const data = body.data as { type?: unknown; attributes?: Record<string, unknown> } | undefined;
    const attributes = data?.attributes;
    if (!data || data.type !== 'playlists' || !attributes || typeof attributes['name'] !== 'string' || attributes['name'].trim() === '') {
      throw new JsonApiError(400, { code: 'INVALID_REQUEST_BODY', detail: 'data.attributes.name is required', source: { pointer: '/data/attributes/name' } });
    }
    const accessType = attributes['accessType'] ?? 'UNLISTED';
    if (accessType !== 'PUBLIC' && accessType !== 'UNLISTED') throw new JsonApiError(400, { code: 'INVALID_REQUEST_BODY', detail: 'accessType must be PUBLIC or UNLISTED', source: { pointer: '/data/attributes/accessType' } });
    const description = attributes['description'];
    if (description !== undefined && typeof description !== 'string') throw new JsonApiError(400, { code: 'INVALID_REQUEST_BODY', detail: 'description must be a string', source: { pointer: '/data/attributes/description' } });
    const playlist = call.state.createPlaylist(call.user.id, { name: attributes['name'], description: description ?? '', accessType });
    return { status: 201, body: { data: playlistResource(playlist, call.state), links: { self: `/playlists/${playlist.id}` } } };
  });
};

const deletePlaylist: Handler = (call) => {
  requireScope(call, 'playlists.write');
  return idempotent(call, () => {
    const playlist = ownedPlaylist(call, call.params[0]!);
    call.state.playlists.delete(playlist.id);
    for (const collection of call.state.collections.values()) collection.playlists = collection.playlists.filter((entry) => entry.id !== playlist.id);
    return { status: 200, body: { links: { self: `/playlists/${playlist.id}` } } };
  });
};

// --- playlist items ---

const ITEM_SORTS = ['itemIndex', '-itemIndex', 'addedAt', '-addedAt'];

const listPlaylistItems: Handler = (call) => {
  const playlist = visiblePlaylist(call, call.params[0]!);
  checkFilters(call.url, ['filter[query]'], false);
  const sort = sortParam(call.url, ITEM_SORTS, 'itemIndex');
  const nodes = parseInclude(call.url, ['playlists#items'], RELATIONSHIPS);
  let entries = playlist.items.map((entry, index) => ({ entry, index }));
  const query = call.url.searchParams.get('filter[query]');
  if (query) {
    const needle = query.toLowerCase();
    entries = entries.filter(({ entry }) => {
      const title = entry.type === 'tracks' ? call.state.catalog.tracks.get(entry.id)?.title : call.state.catalog.videos.get(entry.id)?.title;
      return (title ?? '').toLowerCase().includes(needle);
    });
  }
  if (sort.endsWith('addedAt')) entries.sort((a, b) => a.entry.addedAt.localeCompare(b.entry.addedAt) || a.index - b.index);
  if (sort.startsWith('-')) entries.reverse();
  const { page, links } = paginate(entries, cursorOf(call.url), call.options.pageSize, call.url);
  const data: ResourceIdentifier[] = page.map(({ entry }) => ({ id: entry.id, type: entry.type, meta: { itemId: entry.itemId, addedAt: entry.addedAt } }));
  const document = new CompoundDocument(call.state, call.options.pageSize, []);
  document.expandPage(data, nodes, 'items');
  return { status: 200, body: withIncluded({ data, links }, document) };
};

const addPlaylistItems: Handler = (call) => {
  requireScope(call, 'playlists.write');
  const body = readBody(call);
  return idempotent(call, () => {
    const playlist = ownedPlaylist(call, call.params[0]!);
    const entries = batchData(body, ['tracks', 'videos'], false);
    const meta = body.meta as { positionBefore?: unknown } | undefined;
    let at = playlist.items.length;
    if (meta && meta.positionBefore !== undefined) {
      const index = typeof meta.positionBefore === 'string' ? playlist.items.findIndex((entry) => entry.itemId === meta.positionBefore) : -1;
      if (index < 0) throw new JsonApiError(400, { code: 'INVALID_REQUEST_BODY', detail: 'meta.positionBefore is not an item of this playlist', source: { pointer: '/meta/positionBefore' } });
      at = index;
    }
    const exists = (entry: BatchEntry) => (entry.type === 'tracks' ? call.state.catalog.tracks.has(entry.id) : call.state.catalog.videos.has(entry.id));
    const skipped = entries.filter((entry) => !exists(entry)).map((entry) => ({ id: entry.id, type: entry.type, reason: 'NOT_FOUND' }));
    const added = entries.filter(exists).map((entry) => call.state.newEntry(entry.type as 'tracks' | 'videos', entry.id));
    playlist.items.splice(at, 0, ...added);
    if (added.length) playlist.lastModifiedAt = call.state.timestamp();
    return {
      status: 200,
      body: { data: added.map((entry) => ({ id: entry.id, type: entry.type, meta: { itemId: entry.itemId, addedAt: entry.addedAt } })), links: { self: `/playlists/${playlist.id}/relationships/items` }, meta: { skipped } },
    };
  });
};

const removePlaylistItems: Handler = (call) => {
  requireScope(call, 'playlists.write');
  const body = readBody(call);
  return idempotent(call, () => {
    const playlist = ownedPlaylist(call, call.params[0]!);
    const entries = batchData(body, ['tracks', 'videos'], true);
    entries.forEach((entry, index) => {
      const current = playlist.items.find((item) => item.itemId === entry.meta['itemId']);
      if (current && (current.id !== entry.id || current.type !== entry.type)) {
        throw new JsonApiError(400, { code: 'INVALID_REQUEST_BODY', detail: `data[${index}] does not match the item it names`, source: { pointer: `/data/${index}` } });
      }
    });
    const remove = new Set(entries.map((entry) => entry.meta['itemId'] as string));
    const before = playlist.items.length;
    // Items already gone are ignored: removing twice is the same as removing once.
    playlist.items = playlist.items.filter((item) => !remove.has(item.itemId));
    if (playlist.items.length !== before) playlist.lastModifiedAt = call.state.timestamp();
    return { status: 200, body: { links: { self: `/playlists/${playlist.id}/relationships/items` } } };
  });
};

/**
 * Moves entries (`PATCH`): the `data` entries (named by `meta.itemId`, 1 to 20) go, in the order
 * given, right before the entry `meta.positionBefore`. The entries keep their item ids and added-at
 * dates. A stale item id, an entry that is not the track it claims, or a `positionBefore` that is
 * not another entry of the playlist is refused as a whole: nothing moves.
 */
const movePlaylistItems: Handler = (call) => {
  requireScope(call, 'playlists.write');
  const body = readBody(call);
  return idempotent(call, () => {
    const playlist = ownedPlaylist(call, call.params[0]!);
    const entries = batchData(body, ['tracks', 'videos'], true, MAX_MOVE_BATCH);
    const meta = body.meta as { positionBefore?: unknown } | undefined;
    if (!meta || typeof meta.positionBefore !== 'string' || meta.positionBefore === '') {
      throw new JsonApiError(400, { code: 'INVALID_REQUEST_BODY', detail: 'meta.positionBefore is required', source: { pointer: '/meta/positionBefore' } });
    }
    const moving = new Set<string>();
    entries.forEach((entry, index) => {
      const itemId = entry.meta['itemId'] as string;
      const current = playlist.items.find((item) => item.itemId === itemId);
      if (!current || current.id !== entry.id || current.type !== entry.type) {
        throw new JsonApiError(400, { code: 'INVALID_REQUEST_BODY', detail: `data[${index}] is not an item of this playlist`, source: { pointer: `/data/${index}` } });
      }
      if (moving.has(itemId)) throw new JsonApiError(400, { code: 'INVALID_REQUEST_BODY', detail: `data[${index}] names an item twice`, source: { pointer: `/data/${index}` } });
      moving.add(itemId);
    });
    const before = meta.positionBefore;
    if (moving.has(before) || !playlist.items.some((item) => item.itemId === before)) {
      throw new JsonApiError(400, { code: 'INVALID_REQUEST_BODY', detail: 'meta.positionBefore is not another item of this playlist', source: { pointer: '/meta/positionBefore' } });
    }
    const moved = entries.map((entry) => playlist.items.find((item) => item.itemId === entry.meta['itemId'])!);
    const rest = playlist.items.filter((item) => !moving.has(item.itemId));
    rest.splice(rest.findIndex((item) => item.itemId === before), 0, ...moved);
    playlist.items = rest;
    playlist.lastModifiedAt = call.state.timestamp();
    return { status: 200, body: { links: { self: `/playlists/${playlist.id}/relationships/items` } } };
  });
};

// --- catalogue ---

const ROUTES: [RegExp, Partial<Record<string, Handler>>][] = [
  [/^\/users\/([^/]+)$/, { GET: getUser }],
  [/^\/playlists$/, { GET: listPlaylists, POST: createPlaylist }],
  [/^\/playlists\/([^/]+)$/, { GET: getPlaylist, DELETE: deletePlaylist }],
  [/^\/playlists\/([^/]+)\/relationships\/items$/, { GET: listPlaylistItems, POST: addPlaylistItems, PATCH: movePlaylistItems, DELETE: removePlaylistItems }],
  [/^\/tracks$/, { GET: listTracks }],
  [/^\/tracks\/([^/]+)$/, { GET: single('tracks') }],
  [/^\/albums$/, { GET: listAlbums }],
  [/^\/albums\/([^/]+)$/, { GET: single('albums') }],
  [/^\/artists$/, { GET: listArtists }],
  [/^\/artists\/([^/]+)$/, { GET: single('artists') }],
  [/^\/searchResults$/, { GET: search }],
  ...(['tracks', 'albums', 'artists'] as const).map((kind): [RegExp, Partial<Record<string, Handler>>] => [
    new RegExp(`^/${collectionRoot(kind)}/([^/]+)/relationships/items$`),
    { GET: listCollection(kind), POST: addToCollection(kind), DELETE: removeFromCollection(kind) },
  ]),
];

/** Authenticates the request; null when the token is fine, else the provider's 401. */
export function authenticate(state: TidalState, request: FakeRequest): AccessToken | ApiResult {
  const token = bearerToken(request.headers);
  const access = token ? state.accessTokens.get(token) : undefined;
  const unauthorized = (detail: string): ApiResult => ({
    status: 401,
    body: { errors: [{ id: randomUUID(), status: '401', code: 'UNAUTHORIZED', detail }] },
    headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
  });
  if (!access) return unauthorized(token ? 'Invalid access token' : 'Missing access token');
  if (access.expired || access.expiresAt <= Date.now()) return unauthorized('The access token has expired');
  return access;
}

/** Routes one `/v2/...` request; errors become JSON:API error documents. */
export function handleApi(state: TidalState, options: ApiOptions, request: FakeRequest): ApiResult {
  const auth = authenticate(state, request);
  if (!('token' in auth)) return auth;
  const path = request.path.replace(/^\/v2/, '');
  try {
    for (const [pattern, methods] of ROUTES) {
      const match = pattern.exec(path);
      if (!match) continue;
      const handler = methods[request.method];
      if (!handler) throw new JsonApiError(405, { code: 'METHOD_NOT_ALLOWED', detail: `${request.method} is not allowed here` }, { allow: Object.keys(methods).join(', ') });
      const user = state.users.get(auth.userId)!;
      return handler({ state, options, request, url: request.url, user, token: auth, params: match.slice(1).map((value) => decodeURIComponent(value)) });
    }
    throw new JsonApiError(404, { code: 'NOT_FOUND', detail: 'Resource not found' });
  } catch (error) {
    if (error instanceof JsonApiError) return { status: error.status, body: { errors: error.errors.map((entry) => ({ id: randomUUID(), ...entry })) }, headers: error.headers };
    throw error;
  }
}

