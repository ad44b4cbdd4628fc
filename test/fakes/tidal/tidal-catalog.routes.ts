import { randomUUID } from 'node:crypto';
import { arrayParam, JsonApiError, paginate, type ResourceIdentifier, type ResourceObject } from './json-api.ts';
import { findResource, type ExtraRelationships } from './tidal-resources.ts';
import { checkFilters, compound, cursorOf, requireScope, withIncluded, type Handler } from './tidal-call.ts';

/**
 * The fake TIDAL API's catalogue: tracks, albums and artists by id or by filter (`filter[isrc]`,
 * `filter[id]`, `filter[barcodeId]`), and search.
 */

export const listTracks: Handler = (call) => {
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

export function single(type: string): Handler {
  return (call) => {
    const data = findResource(call.state, type, call.params[0]!);
    if (!data) throw new JsonApiError(404, { code: 'NOT_FOUND', detail: 'Resource not found' });
    const document = compound(call, [data], type);
    return { status: 200, body: withIncluded({ data, links: { self: `/${type}/${data.id}` } }, document) };
  };
}

export const listAlbums: Handler = (call) => {
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

export const listArtists: Handler = (call) => {
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

export const search: Handler = (call) => {
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
