import { randomUUID } from 'node:crypto';
import { bearerToken, type FakeRequest } from '../fake-provider.ts';
import { arrayParam, JsonApiError, JSON_API_MEDIA_TYPE, paginate, parseInclude, type ResourceIdentifier, type ResourceObject } from './json-api.ts';
import { CompoundDocument, findResource, playlistResource, RELATIONSHIPS, userResource, type ExtraRelationships } from './tidal-resources.ts';
import { payloadHash, type AccessToken, type CollectionEntry, type FakePlaylist, type FakeUser, type TidalState } from './tidal-state.ts';

/**
 * The fake `https://openapi.tidal.com/v2` JSON:API: the user, playlists and their items (per-entry
 * `itemId`, `positionBefore`, 50 per request), catalogue lookups (`filter[isrc]`, `filter[id]`,
 * `filter[barcodeId]`), search, and the user's collections of tracks, albums and artists. Every
 * mutation honours `Idempotency-Key` (same key and payload: the first answer again; another
 * payload: 422). Handlers return their answer instead of writing it, so the server can apply a
 * write and then lose the answer (the "ambiguous write" failure).
 */

export interface ApiResult {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

export interface ApiOptions {
  readonly pageSize: number;
}

/** The most entries one mutation of a to-many relationship may carry. */
export const MAX_BATCH = 50;

interface Call {
  readonly state: TidalState;
  readonly options: ApiOptions;
  readonly request: FakeRequest;
  readonly url: URL;
  readonly user: FakeUser;
  readonly token: AccessToken;
  readonly params: string[];
}

type Handler = (call: Call) => ApiResult;

function requireScope(call: Call, scope: string): void {
  if (!call.token.scopes.includes(scope)) throw new JsonApiError(403, { code: 'FORBIDDEN', detail: `The access token lacks the ${scope} scope` });
}

/** Only the filters an endpoint documents are accepted; most collections need at least one. */
function checkFilters(url: URL, allowed: readonly string[], required: boolean): void {
  const filters = [...new Set([...url.searchParams.keys()].filter((name) => name.startsWith('filter[')))];
  const unknown = filters.filter((name) => !allowed.includes(name));
  if (unknown.length) throw new JsonApiError(400, { code: 'INVALID_FILTER', detail: `Unsupported filter ${unknown[0]}; available filters: ${allowed.join(', ')}`, source: { parameter: unknown[0]! } });
  if (required && filters.length === 0) throw new JsonApiError(400, { code: 'FILTER_REQUIRED', detail: `At least one filter is required: ${allowed.join(', ')}` });
}

function sortParam(url: URL, allowed: readonly string[], fallback: string): string {
  const values = arrayParam(url, 'sort');
  if (values.length === 0) return fallback;
  if (values.length > 1 || !allowed.includes(values[0]!)) throw new JsonApiError(400, { code: 'INVALID_SORT', detail: `Unsupported sort; available: ${allowed.join(', ')}`, source: { parameter: 'sort' } });
  return values[0]!;
}

function cursorOf(url: URL): string | null {
  return url.searchParams.get('page[cursor]');
}

function userIdParam(call: Call, value: string): string {
  if (value === 'me' || value === call.user.id) return call.user.id;
  // Other users' private resources behave as if they did not exist.
  throw new JsonApiError(404, { code: 'NOT_FOUND', detail: 'Resource not found' });
}

function readBody(call: Call): { data?: unknown; meta?: unknown } {
  const type = (call.request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== JSON_API_MEDIA_TYPE) throw new JsonApiError(415, { code: 'UNSUPPORTED_MEDIA_TYPE', detail: `Expected ${JSON_API_MEDIA_TYPE}` });
  try {
    const parsed = JSON.parse(call.request.body) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {
    // answered below
  }
  throw new JsonApiError(400, { code: 'INVALID_REQUEST_BODY', detail: 'The request body is not a JSON:API document', source: { pointer: '' } });
}

interface BatchEntry {
  readonly id: string;
  readonly type: string;
  readonly meta: Record<string, unknown>;
}

/** The `data` array of a to-many mutation: 1 to 50 identifiers of the allowed types. */
function batchData(body: { data?: unknown }, types: readonly string[], needsItemId: boolean): BatchEntry[] {
  const { data } = body;
  if (!Array.isArray(data) || data.length < 1 || data.length > MAX_BATCH) {
    throw new JsonApiError(400, { code: 'INVALID_REQUEST_BODY', detail: `data must hold between 1 and ${MAX_BATCH} items`, source: { pointer: '/data' } });
  }
  return data.map((entry: unknown, index) => {
    const value = entry as { id?: unknown; type?: unknown; meta?: unknown } | null;
    const meta = value && typeof value.meta === 'object' && value.meta !== null ? (value.meta as Record<string, unknown>) : {};
    if (!value || typeof value.id !== 'string' || value.id === '' || typeof value.type !== 'string' || !types.includes(value.type)) {
      throw new JsonApiError(400, { code: 'INVALID_REQUEST_BODY', detail: `data[${index}] must be a resource identifier of type ${types.join(' or ')}`, source: { pointer: `/data/${index}` } });
    }
    if (needsItemId && (typeof meta['itemId'] !== 'string' || meta['itemId'] === '')) {
      throw new JsonApiError(400, { code: 'INVALID_REQUEST_BODY', detail: `data[${index}].meta.itemId is required`, source: { pointer: `/data/${index}/meta/itemId` } });
    }
    return { id: value.id, type: value.type, meta };
  });
}

/** Replays a mutation's first answer for a reused key, or runs it and remembers a success. */
function idempotent(call: Call, run: () => ApiResult): ApiResult {
  const key = call.request.headers['idempotency-key'];
  if (key === undefined) return run();
  if (key.length === 0 || key.length > 128) throw new JsonApiError(400, { code: 'INVALID_IDEMPOTENCY_KEY', detail: 'Idempotency-Key must be 1 to 128 characters', source: { header: 'Idempotency-Key' } });
  const storeKey = `${call.user.id} ${call.request.method} ${call.url.pathname} ${key}`;
  const hash = payloadHash(call.request.body);
  const previous = call.state.idempotent(storeKey);
  if (previous) {
    if (previous.payloadHash !== hash) throw new JsonApiError(422, { code: 'IDEMPOTENT_REQUEST_PAYLOAD_MISMATCH', detail: 'Idempotency key reused with a different payload' });
    return { status: previous.status, body: previous.body };
  }
  const result = run();
  if (result.status < 300) call.state.idempotency.set(storeKey, { payloadHash: hash, status: result.status, body: result.body, at: Date.now() });
  return result;
}

function visiblePlaylist(call: Call, id: string): FakePlaylist {
  const playlist = call.state.playlists.get(id);
  if (!playlist || (playlist.accessType === 'PRIVATE' && playlist.ownerId !== call.user.id)) throw new JsonApiError(404, { code: 'NOT_FOUND', detail: 'Playlist not found' });
  return playlist;
}

function ownedPlaylist(call: Call, id: string): FakePlaylist {
  const playlist = visiblePlaylist(call, id);
  if (playlist.ownerId !== call.user.id) throw new JsonApiError(403, { code: 'FORBIDDEN', detail: 'Only the owner may change this playlist' });
  return playlist;
}

function compound(call: Call, primary: ResourceObject[], rootType: string, extra?: ExtraRelationships): CompoundDocument {
  const nodes = parseInclude(call.url, [rootType], RELATIONSHIPS);
  const document = new CompoundDocument(call.state, call.options.pageSize, primary, extra);
  document.expand(primary, nodes);
  return document;
}

function withIncluded(body: Record<string, unknown>, document: CompoundDocument): Record<string, unknown> {
  return document.included.length ? { ...body, included: document.included } : body;
}

// --- users ---

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

// --- catalogue ---

const listTracks: Handler = (call) => {
  checkFilters(call.url, ['filter[id]', 'filter[isrc]', 'filter[owners.id]'], true);
  const ids = arrayParam(call.url, 'filter[id]');
  const isrcs = arrayParam(call.url, 'filter[isrc]').map((isrc) => isrc.toUpperCase());
  const owners = arrayParam(call.url, 'filter[owners.id]');
  let tracks = [...call.state.catalog.tracks.values()];
  if (ids.length) tracks = ids.map((id) => call.state.catalog.tracks.get(id)).filter((track) => track !== undefined);
  // Nobody uploads tracks of their own here.
  if (owners.length) tracks = [];
  if (isrcs.length > 1) {
    // Several ISRCs: one track per ISRC, no pagination.
    const byIsrc = isrcs.map((isrc) => tracks.find((track) => track.isrc === isrc)).filter((track) => track !== undefined);
    const data = byIsrc.map((track) => findResource(call.state, 'tracks', track.id)!);
    const document = compound(call, data, 'tracks');
    return { status: 200, body: withIncluded({ data, links: { self: call.url.pathname.replace(/^\/v2/, '') + call.url.search } }, document) };
  }
  if (isrcs.length === 1) tracks = tracks.filter((track) => track.isrc === isrcs[0]).sort((a, b) => b.popularity - a.popularity);
  const { page, links } = paginate(tracks, cursorOf(call.url), call.options.pageSize, call.url);
  const data = page.map((track) => findResource(call.state, 'tracks', track.id)!);
  const document = compound(call, data, 'tracks');
  return { status: 200, body: withIncluded({ data, links }, document) };
};

function single(type: string): Handler {
  return (call) => {
    const data = findResource(call.state, type, call.params[0]!);
    if (!data) throw new JsonApiError(404, { code: 'NOT_FOUND', detail: 'Resource not found' });
    const document = compound(call, [data], type);
    return { status: 200, body: withIncluded({ data, links: { self: `/${type}/${data.id}` } }, document) };
  };
}

const listAlbums: Handler = (call) => {
  checkFilters(call.url, ['filter[id]', 'filter[barcodeId]', 'filter[owners.id]'], true);
  const ids = arrayParam(call.url, 'filter[id]');
  const barcodes = arrayParam(call.url, 'filter[barcodeId]');
  let albums = [...call.state.catalog.albums.values()];
  if (ids.length) albums = albums.filter((album) => ids.includes(album.id));
  if (barcodes.length) albums = albums.filter((album) => barcodes.includes(album.barcodeId));
  if (arrayParam(call.url, 'filter[owners.id]').length) albums = [];
  const { page, links } = paginate(albums, cursorOf(call.url), call.options.pageSize, call.url);
  const data = page.map((album) => findResource(call.state, 'albums', album.id)!);
  const document = compound(call, data, 'albums');
  return { status: 200, body: withIncluded({ data, links }, document) };
};

const listArtists: Handler = (call) => {
  checkFilters(call.url, ['filter[id]', 'filter[handle]', 'filter[owners.id]'], true);
  const ids = arrayParam(call.url, 'filter[id]');
  let artists = [...call.state.catalog.artists.values()].filter((artist) => ids.length === 0 || ids.includes(artist.id));
  if (arrayParam(call.url, 'filter[handle]').length || arrayParam(call.url, 'filter[owners.id]').length) artists = [];
  const { page, links } = paginate(artists, cursorOf(call.url), call.options.pageSize, call.url);
  const data = page.map((artist) => findResource(call.state, 'artists', artist.id)!);
  const document = compound(call, data, 'artists');
  return { status: 200, body: withIncluded({ data, links }, document) };
};

// --- search ---

function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

function matches(haystack: string, tokens: readonly string[]): boolean {
  const folded = fold(haystack);
  return tokens.every((token) => folded.includes(token));
}

const search: Handler = (call) => {
  requireScope(call, 'search.read');
  checkFilters(call.url, ['filter[query]'], true);
  const query = call.url.searchParams.get('filter[query]') ?? '';
  if (query.trim() === '' || query.length > 256) throw new JsonApiError(400, { code: 'INVALID_FILTER', detail: 'filter[query] must be 1 to 256 characters', source: { parameter: 'filter[query]' } });
  const tokens = fold(query).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const { catalog } = call.state;
  const artistNames = (ids: readonly string[]) => ids.map((id) => catalog.artists.get(id)?.name ?? '').join(' ');
  const tracks = [...catalog.tracks.values()]
    .filter((track) => matches(`${track.title} ${track.version ?? ''} ${artistNames(track.artistIds)} ${catalog.albums.get(track.albumId)?.title ?? ''}`, tokens))
    .sort((a, b) => b.popularity - a.popularity)
    .slice(0, call.options.pageSize);
  const albums = [...catalog.albums.values()].filter((album) => matches(`${album.title} ${artistNames(album.artistIds)}`, tokens)).slice(0, call.options.pageSize);
  const artists = [...catalog.artists.values()].filter((artist) => matches(artist.name, tokens)).slice(0, call.options.pageSize);
  const videos = [...catalog.videos.values()].filter((video) => matches(`${video.title} ${artistNames(video.artistIds)}`, tokens)).slice(0, call.options.pageSize);
  const id = Buffer.from(query).toString('base64url');
  const results: Record<string, ResourceIdentifier[]> = {
    tracks: tracks.map((track) => ({ id: track.id, type: 'tracks' })),
    albums: albums.map((album) => ({ id: album.id, type: 'albums' })),
    artists: artists.map((artist) => ({ id: artist.id, type: 'artists' })),
    videos: videos.map((video) => ({ id: video.id, type: 'videos' })),
    playlists: [],
  };
  results['topHits'] = [...results['tracks']!.slice(0, 3), ...results['artists']!.slice(0, 1)];
  const data: ResourceObject = { id, type: 'searchResults', attributes: { query, trackingId: randomUUID() } };
  const extra: ExtraRelationships = (resource, member) => (resource.type === 'searchResults' ? (results[member] ?? null) : null);
  const document = compound(call, [data], 'searchResults', extra);
  return { status: 200, body: withIncluded({ data: [data], links: { self: call.url.pathname.replace(/^\/v2/, '') + call.url.search } }, document) };
};

// --- user collections ---

type CollectionKind = 'tracks' | 'albums' | 'artists';

const COLLECTION_SORTS: Record<CollectionKind, string[]> = {
  tracks: ['addedAt', '-addedAt', 'title', '-title'],
  albums: ['addedAt', '-addedAt', 'title', '-title'],
  artists: ['addedAt', '-addedAt', 'name', '-name'],
};

function collectionRoot(kind: CollectionKind): string {
  return `userCollection${kind[0]!.toUpperCase()}${kind.slice(1)}`;
}

function listCollection(kind: CollectionKind): Handler {
  return (call) => {
    requireScope(call, 'collection.read');
    const userId = userIdParam(call, call.params[0]!);
    checkFilters(call.url, [], false);
    const sort = sortParam(call.url, COLLECTION_SORTS[kind], '-addedAt');
    const nodes = parseInclude(call.url, [`${collectionRoot(kind)}#items`], RELATIONSHIPS);
    const { catalog } = call.state;
    const label = (entry: CollectionEntry) =>
      kind === 'tracks' ? (catalog.tracks.get(entry.id)?.title ?? '') : kind === 'albums' ? (catalog.albums.get(entry.id)?.title ?? '') : (catalog.artists.get(entry.id)?.name ?? '');
    const entries = [...call.state.collectionOf(userId)[kind]];
    entries.sort((a, b) => (sort.endsWith('addedAt') ? a.addedAt.localeCompare(b.addedAt) : label(a).localeCompare(label(b))) || a.id.localeCompare(b.id));
    if (sort.startsWith('-')) entries.reverse();
    const { page, links } = paginate(entries, cursorOf(call.url), call.options.pageSize, call.url);
    const data: ResourceIdentifier[] = page.map((entry) => ({ id: entry.id, type: kind, meta: { addedAt: entry.addedAt } }));
    const document = new CompoundDocument(call.state, call.options.pageSize, []);
    document.expandPage(data, nodes, 'items');
    return { status: 200, body: withIncluded({ data, links }, document) };
  };
}

function addToCollection(kind: CollectionKind): Handler {
  return (call) => {
    requireScope(call, 'collection.write');
    const userId = userIdParam(call, call.params[0]!);
    const body = readBody(call);
    return idempotent(call, () => {
      const entries = batchData(body, [kind], false);
      const collection = call.state.collectionOf(userId);
      const exists = (id: string) => (kind === 'tracks' ? call.state.catalog.tracks.has(id) : kind === 'albums' ? call.state.catalog.albums.has(id) : call.state.catalog.artists.has(id));
      const skipped: { id: string; type: string; reason: string }[] = [];
      const added: CollectionEntry[] = [];
      for (const entry of entries) {
        if (!exists(entry.id)) skipped.push({ id: entry.id, type: kind, reason: 'NOT_FOUND' });
        else if (collection[kind].some((present) => present.id === entry.id) || added.some((present) => present.id === entry.id)) skipped.push({ id: entry.id, type: kind, reason: 'ALREADY_PRESENT' });
        else added.push({ id: entry.id, addedAt: call.state.timestamp() });
      }
      collection[kind].push(...added);
      return { status: 200, body: { data: added.map((entry) => ({ id: entry.id, type: kind, meta: { addedAt: entry.addedAt } })), links: { self: `/${collectionRoot(kind)}/${call.params[0]!}/relationships/items` }, meta: { skipped } } };
    });
  };
}

function removeFromCollection(kind: CollectionKind): Handler {
  return (call) => {
    requireScope(call, 'collection.write');
    const userId = userIdParam(call, call.params[0]!);
    const body = readBody(call);
    return idempotent(call, () => {
      const remove = new Set(batchData(body, [kind], false).map((entry) => entry.id));
      const collection = call.state.collectionOf(userId);
      collection[kind] = collection[kind].filter((entry) => !remove.has(entry.id));
      return { status: 200, body: { links: { self: `/${collectionRoot(kind)}/${call.params[0]!}/relationships/items` } } };
    });
  };
}

const ROUTES: [RegExp, Partial<Record<string, Handler>>][] = [
  [/^\/users\/([^/]+)$/, { GET: getUser }],
  [/^\/playlists$/, { GET: listPlaylists, POST: createPlaylist }],
  [/^\/playlists\/([^/]+)$/, { GET: getPlaylist, DELETE: deletePlaylist }],
  [/^\/playlists\/([^/]+)\/relationships\/items$/, { GET: listPlaylistItems, POST: addPlaylistItems, DELETE: removePlaylistItems }],
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
