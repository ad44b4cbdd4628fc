import type { FakeRequest } from '../fake-provider.ts';
import { API_ORIGIN, WEB_ORIGIN, type JsonObject } from './deezer-catalog.ts';
import { deezerError, json, page, type Reply } from './deezer-responses.ts';
import type { AccessGrant, Dated, DeezerState, FakePlaylist, FakeUser } from './deezer-state.ts';

/**
 * The API on `https://api.deezer.com`, token in the `access_token` query parameter (the only way
 * Deezer takes it; an Authorization header is ignored). Reads: the user, their playlists and
 * favourites, playlists and their tracks, tracks (also by ISRC), albums (also by UPC), artists,
 * search. Writes: playlist create/update/delete, add (`songs`, refused whole when a song is
 * already in the playlist), reorder (`order`, a permutation of the playlist), remove by track id,
 * favourites add/remove. Writes need `manage_library`; deleting needs `delete_library`.
 */

/** Songs per add/remove request: larger requests are refused (Deezer refuses long lists). */
export const MAX_SONGS_PER_REQUEST = 50;

type Auth = { readonly user: FakeUser; readonly grant: AccessGrant } | { readonly error: Reply } | null;

function ids(value: string | null): number[] | null {
  if (value === null || value.trim() === '') return null;
  const parts = value.split(',').map((part) => part.trim());
  if (parts.some((part) => !/^\d{1,20}$/.test(part))) return null;
  return parts.map(Number);
}

/** The parts of an advanced search query: `artist:"…" track:"…" album:"…"` and free words. */
export function parseSearchQuery(q: string): { text: string; artist: string | null; track: string | null; album: string | null; label: string | null } {
  const fields: Record<string, string | null> = { artist: null, track: null, album: null, label: null };
  const rest = q.replace(/\b(artist|track|album|label):"([^"]*)"/g, (_whole, field: string, value: string) => {
    fields[field] = value;
    return ' ';
  });
  return { text: rest.replace(/\s+/g, ' ').trim(), artist: fields['artist']!, track: fields['track']!, album: fields['album']!, label: fields['label']! };
}

export class DeezerApi {
  readonly #state: DeezerState;

  constructor(state: DeezerState) {
    this.#state = state;
  }

  #auth(request: FakeRequest): Auth {
    const token = request.url.searchParams.get('access_token');
    if (token === null) return null;
    const grant = this.#state.tokens.get(token);
    if (!grant || grant.expired || (grant.expiresAt !== null && grant.expiresAt < Date.now())) return { error: deezerError('invalidToken') };
    const user = this.#state.users.get(grant.userId);
    if (!user) return { error: deezerError('invalidToken') };
    return { user, grant };
  }

  handle(request: FakeRequest): Reply {
    const auth = this.#auth(request);
    if (auth && 'error' in auth) return auth.error;
    const { method, path } = request;
    const segments = path.split('/').filter(Boolean);
    const [root, second, third] = segments;
    if (root === 'user' && second === 'me') {
      if (!auth) return deezerError('noToken');
      return this.#me(request, auth.user, auth.grant, third ?? null, segments.length);
    }
    if (root === 'playlist' && second && /^\d+$/.test(second)) return this.#playlist(request, auth, Number(second), third ?? null, segments.length);
    if (method !== 'GET') return deezerError('parameter');
    if (root === 'track' && second && segments.length === 2) return this.#track(second);
    if (root === 'album' && second && segments.length === 2) return this.#album(second);
    if (root === 'artist' && second && /^\d+$/.test(second) && segments.length === 2) {
      const artist = this.#state.catalog.artistsById.get(Number(second));
      return artist ? json(this.#state.catalog.artistObject(artist.key, true)) : deezerError('noData');
    }
    if (root === 'search' && segments.length <= 2) return this.#search(request, second ?? 'track');
    return deezerError('noData');
  }

  #me(request: FakeRequest, user: FakeUser, grant: AccessGrant, collection: string | null, depth: number): Reply {
    const { method, url } = request;
    const needs = (perm: string): Reply | null => (grant.perms.includes(perm) ? null : deezerError('permission'));
    if (depth === 2) {
      if (method !== 'GET') return deezerError('parameter');
      return json(this.#userObject(user));
    }
    if (depth !== 3 || collection === null) return deezerError('noData');
    if (method === 'POST') {
      const refused = needs('manage_library');
      if (refused) return refused;
    }
    if (method === 'DELETE') {
      const refused = needs('delete_library');
      if (refused) return refused;
    }
    switch (collection) {
      case 'playlists':
        if (method === 'GET') return page(user.playlists.map((id) => this.#playlistSummary(this.#state.playlists.get(id)!)), url, API_ORIGIN);
        if (method === 'POST') {
          const title = url.searchParams.get('title');
          if (title !== null) {
            if (title.trim() === '') return deezerError('parameter');
            return json({ id: this.#state.createPlaylist(user, title).id });
          }
          const favourite = this.#state.playlists.get(Number(url.searchParams.get('playlist_id')));
          if (!favourite) return deezerError('missingParameter');
          if (!user.playlists.includes(favourite.id)) user.playlists.splice(1, 0, favourite.id);
          return json(true);
        }
        if (method === 'DELETE') {
          const id = Number(url.searchParams.get('playlist_id'));
          const playlist = this.#state.playlists.get(id);
          if (!playlist || !user.playlists.includes(id)) return deezerError('noData');
          // Your own playlists leave the library only by being deleted.
          if (playlist.creatorId === user.id) return deezerError('parameter');
          user.playlists.splice(user.playlists.indexOf(id), 1);
          return json(true);
        }
        return deezerError('parameter');
      case 'tracks':
        return this.#favourites(request, user.liked, 'track_id', (id) => this.#state.catalog.tracksById.has(id), (entry) => ({ ...this.#state.catalog.trackObject(entry.value, 'listed'), time_add: entry.timeAdd }));
      case 'albums':
        return this.#favourites(request, user.albums, 'album_id', (id) => this.#state.catalog.albumsById.has(id), (entry) => ({ ...this.#state.catalog.albumObject(this.#state.catalog.albumsById.get(entry.value)!.key, true), time_add: entry.timeAdd }));
      case 'artists':
        return this.#favourites(request, user.artists, 'artist_id', (id) => this.#state.catalog.artistsById.has(id), (entry) => ({ ...this.#state.catalog.artistObject(this.#state.catalog.artistsById.get(entry.value)!.key), time_add: entry.timeAdd }));
      default:
        return deezerError('noData');
    }
  }

  #favourites(request: FakeRequest, list: Dated<number>[], param: string, exists: (id: number) => boolean, render: (entry: Dated<number>) => JsonObject): Reply {
    const { method, url } = request;
    if (method === 'GET') return page(list.map(render), url, API_ORIGIN);
    const raw = url.searchParams.get(param);
    if (raw === null) return deezerError('missingParameter');
    const id = Number(raw);
    if (!/^\d+$/.test(raw) || !exists(id)) return deezerError('noData');
    const at = list.findIndex((entry) => entry.value === id);
    if (method === 'POST') {
      if (at < 0) list.unshift({ value: id, timeAdd: Math.floor(Date.now() / 1000) });
      return json(true);
    }
    if (method === 'DELETE') {
      if (at < 0) return deezerError('noData');
      list.splice(at, 1);
      return json(true);
    }
    return deezerError('parameter');
  }

  #userObject(user: FakeUser): JsonObject {
    return {
      id: user.id,
      name: user.name,
      lastname: '',
      firstname: '',
      status: 2,
      link: `${WEB_ORIGIN}/profile/${user.id}`,
      picture: `${API_ORIGIN}/user/${user.id}/image`,
      country: user.country,
      lang: 'EN',
      is_kid: false,
      explicit_content_level: 'explicit_display',
      tracklist: `${API_ORIGIN}/user/${user.id}/flow`,
      type: 'user',
    };
  }

  #playlistSummary(playlist: FakePlaylist): JsonObject {
    const creator = this.#state.users.get(playlist.creatorId)!;
    return {
      id: playlist.id,
      title: playlist.title,
      duration: playlist.entries.reduce((total, entry) => total + Math.round((this.#state.catalog.tracksById.get(entry.value)?.durationMs ?? 0) / 1000), 0),
      public: playlist.public,
      is_loved_track: playlist.isLovedTrack,
      collaborative: playlist.collaborative,
      nb_tracks: playlist.entries.length,
      fans: 0,
      link: `${WEB_ORIGIN}/playlist/${playlist.id}`,
      picture: `${API_ORIGIN}/playlist/${playlist.id}/image`,
      ...this.#state.catalog.playlistPictures(playlist.id),
      checksum: this.#state.checksum(playlist),
      time_add: playlist.createdAt,
      time_mod: playlist.modifiedAt,
      creator: { id: creator.id, name: creator.name, tracklist: `${API_ORIGIN}/user/${creator.id}/flow`, type: 'user' },
      tracklist: `${API_ORIGIN}/playlist/${playlist.id}/tracks`,
      type: 'playlist',
    };
  }

  #entries(playlist: FakePlaylist): JsonObject[] {
    return playlist.entries.map((entry) => ({ ...this.#state.catalog.trackObject(entry.value, 'listed'), time_add: entry.timeAdd }));
  }

  #playlist(request: FakeRequest, auth: Auth, id: number, sub: string | null, depth: number): Reply {
    const { method, url } = request;
    const viewer = auth && 'user' in auth ? auth.user : null;
    const playlist = this.#state.playlists.get(id);
    const visible = playlist && (playlist.public || (viewer !== null && (viewer.id === playlist.creatorId || viewer.playlists.includes(playlist.id))));
    if (!playlist || !visible) return deezerError('noData');
    const owner = viewer !== null && viewer.id === playlist.creatorId;
    const canEdit = viewer !== null && (owner || playlist.collaborative);
    const perms = auth && 'grant' in auth ? auth.grant.perms : [];

    if (depth === 2) {
      if (method === 'GET') {
        const creator = this.#state.users.get(playlist.creatorId)!;
        return json({
          ...this.#playlistSummary(playlist),
          description: playlist.description,
          creation_date: new Date(playlist.createdAt * 1000).toISOString().replace('T', ' ').slice(0, 19),
          share: `${WEB_ORIGIN}/playlist/${playlist.id}`,
          creator: { id: creator.id, name: creator.name, tracklist: `${API_ORIGIN}/user/${creator.id}/flow`, type: 'user' },
          tracks: { data: this.#entries(playlist).slice(0, 400), checksum: this.#state.checksum(playlist) },
        });
      }
      if (!viewer) return deezerError('noToken');
      if (method === 'POST') {
        if (!perms.includes('manage_library')) return deezerError('permission');
        if (!owner) return deezerError('permission');
        const title = url.searchParams.get('title');
        const description = url.searchParams.get('description');
        const isPublic = url.searchParams.get('public');
        const collaborative = url.searchParams.get('collaborative');
        if (title === null && description === null && isPublic === null && collaborative === null) return deezerError('missingParameter');
        if (title !== null) playlist.title = title;
        if (description !== null) playlist.description = description;
        if (isPublic !== null) playlist.public = isPublic === 'true' || isPublic === '1';
        if (collaborative !== null) playlist.collaborative = collaborative === 'true' || collaborative === '1';
        playlist.modifiedAt = Math.floor(Date.now() / 1000);
        return json(true);
      }
      if (method === 'DELETE') {
        if (!perms.includes('delete_library') || !owner || playlist.isLovedTrack) return deezerError('permission');
        this.#state.playlists.delete(id);
        for (const user of this.#state.users.values()) {
          const at = user.playlists.indexOf(id);
          if (at >= 0) user.playlists.splice(at, 1);
        }
        return json(true);
      }
      return deezerError('parameter');
    }
    if (depth !== 3 || sub !== 'tracks') return deezerError('noData');
    if (method === 'GET') return page(this.#entries(playlist), url, API_ORIGIN);
    if (!viewer) return deezerError('noToken');
    if (!perms.includes('manage_library') || !canEdit) return deezerError('permission');
    if (method === 'POST') {
      const order = url.searchParams.get('order');
      if (order !== null) {
        const wanted = ids(order);
        const current = playlist.entries.map((entry) => entry.value);
        if (!wanted || wanted.length !== current.length || [...wanted].sort().join(',') !== [...current].sort().join(',')) return deezerError('parameter');
        const byId = new Map(playlist.entries.map((entry) => [entry.value, entry]));
        playlist.entries.splice(0, playlist.entries.length, ...wanted.map((trackId) => byId.get(trackId)!));
        playlist.modifiedAt = Math.floor(Date.now() / 1000);
        return json(true);
      }
      const songs = ids(url.searchParams.get('songs'));
      if (!songs) return deezerError('missingParameter');
      if (songs.length > MAX_SONGS_PER_REQUEST) return deezerError('itemsLimit');
      if (songs.some((song) => !this.#state.catalog.tracksById.has(song))) return deezerError('noData');
      // A track may be in a playlist once: the whole request is refused, nothing is added.
      if (new Set(songs).size !== songs.length || songs.some((song) => playlist.entries.some((entry) => entry.value === song))) return deezerError('alreadyInPlaylist');
      const now = Math.floor(Date.now() / 1000);
      playlist.entries.push(...songs.map((song) => ({ value: song, timeAdd: now })));
      playlist.modifiedAt = now;
      return json(true);
    }
    if (method === 'DELETE') {
      const songs = ids(url.searchParams.get('songs'));
      if (!songs) return deezerError('missingParameter');
      if (songs.length > MAX_SONGS_PER_REQUEST) return deezerError('itemsLimit');
      const drop = new Set(songs);
      const kept = playlist.entries.filter((entry) => !drop.has(entry.value));
      playlist.entries.splice(0, playlist.entries.length, ...kept);
      playlist.modifiedAt = Math.floor(Date.now() / 1000);
      return json(true);
    }
    return deezerError('parameter');
  }

  #track(ref: string): Reply {
    const catalog = this.#state.catalog;
    if (ref.startsWith('isrc:')) {
      const id = catalog.findByIsrc(ref.slice(5).toUpperCase());
      return id === null ? deezerError('noData') : json(catalog.trackObject(id, 'full'));
    }
    if (!/^\d+$/.test(ref) || !catalog.tracksById.has(Number(ref))) return deezerError('noData');
    return json(catalog.trackObject(Number(ref), 'full'));
  }

  #album(ref: string): Reply {
    const catalog = this.#state.catalog;
    if (ref.startsWith('upc:')) {
      const found = [...catalog.albumsById.values()].find((album) => album.upc === ref.slice(4));
      return found ? json(catalog.albumObject(found.key, true)) : deezerError('noData');
    }
    const album = /^\d+$/.test(ref) ? catalog.albumsById.get(Number(ref)) : undefined;
    return album ? json(catalog.albumObject(album.key, true)) : deezerError('noData');
  }

  #search(request: FakeRequest, kind: string): Reply {
    const q = request.url.searchParams.get('q');
    if (q === null || q.trim() === '') return deezerError('missingParameter');
    const query = parseSearchQuery(q);
    const catalog = this.#state.catalog;
    if (kind === 'track') return page(catalog.searchTracks(query).map((id) => catalog.trackObject(id, 'search')), request.url, API_ORIGIN);
    if (kind === 'album') return page(catalog.searchAlbums(query).map((id) => catalog.albumObject(catalog.albumsById.get(id)!.key)), request.url, API_ORIGIN);
    if (kind === 'artist') return page(catalog.searchArtists(query.text || query.artist || '').map((id) => catalog.artistObject(catalog.artistsById.get(id)!.key)), request.url, API_ORIGIN);
    return deezerError('invalidQuery');
  }
}
