import { createHash } from 'node:crypto';
import { providerId, seedCatalog, type SeedLibrary, type SeedPlaylist } from '../seed-catalog.ts';
import type { DeezerCatalog } from './deezer-catalog.ts';
import { DEMO_CLIENT_ID } from '../kit/index.ts';

/**
 * Everything the fake Deezer remembers: users, apps, authorization codes and access tokens (no
 * refresh tokens: Deezer has none; `offline_access` makes a token not expire), playlists (a
 * playlist holds a track at most once, as on Deezer), and each user's favourites — tracks (the
 * "Loved tracks" playlist is a view of them), albums, artists and playlists. Plain data; the
 * routes enforce the rules.
 */

export { DEMO_CLIENT_ID };

/** The permissions an app may ask for (`perms`). */
export const KNOWN_PERMS = new Set(['basic_access', 'email', 'offline_access', 'manage_library', 'manage_community', 'delete_library', 'listening_history']);

export interface Dated<T> {
  readonly value: T;
  /** Unix seconds, as Deezer's `time_add`. */
  readonly timeAdd: number;
}

export interface FakeUser {
  readonly id: number;
  readonly name: string;
  readonly country: string;
  /** Favourite tracks, newest first; also the entries of the "Loved tracks" playlist. */
  readonly liked: Dated<number>[];
  readonly albums: Dated<number>[];
  readonly artists: Dated<number>[];
  /** Playlist ids in the user's library (own and favourite ones), newest first after the loved one. */
  readonly playlists: number[];
  readonly lovedPlaylistId: number;
}

export interface FakePlaylist {
  readonly id: number;
  readonly creatorId: number;
  title: string;
  description: string;
  public: boolean;
  collaborative: boolean;
  readonly isLovedTrack: boolean;
  /** For the loved playlist this is the owner's `liked` list itself. */
  readonly entries: Dated<number>[];
  readonly createdAt: number;
  modifiedAt: number;
}

export interface FakeApp {
  readonly appId: string;
  /** Null: accepted without a secret (the demo app). */
  readonly secret: string | null;
  readonly redirectUris: readonly string[];
}

export interface AccessGrant {
  readonly userId: number;
  readonly appId: string;
  readonly perms: readonly string[];
  /** Null: never expires (`offline_access`). */
  readonly expiresAt: number | null;
  expired: boolean;
}

export interface AuthorizationCode {
  readonly appId: string;
  readonly redirectUri: string;
  readonly userId: number;
  readonly perms: readonly string[];
  readonly expiresAt: number;
  used: boolean;
}

function nowS(): number {
  return Math.floor(Date.now() / 1000);
}

export class DeezerState {
  readonly users = new Map<number, FakeUser>();
  readonly playlists = new Map<number, FakePlaylist>();
  readonly apps = new Map<string, FakeApp>();
  readonly tokens = new Map<string, AccessGrant>();
  readonly codes = new Map<string, AuthorizationCode>();
  readonly catalog: DeezerCatalog;
  #users = 0;
  #playlists = 0;

  constructor(catalog: DeezerCatalog) {
    this.catalog = catalog;
  }

  #nextId(kind: string, index: number, length: number): number {
    return Number(providerId('deezer', `${kind}:${index}`, 'digits', length));
  }

  createUser(name: string): FakeUser {
    const id = this.#nextId('user', ++this.#users, 10);
    const liked: Dated<number>[] = [];
    const lovedPlaylistId = this.#nextId('playlist', ++this.#playlists, 10);
    const user: FakeUser = { id, name, country: 'GB', liked, albums: [], artists: [], playlists: [lovedPlaylistId], lovedPlaylistId };
    this.users.set(id, user);
    this.playlists.set(lovedPlaylistId, { id: lovedPlaylistId, creatorId: id, title: 'Loved Tracks', description: '', public: false, collaborative: false, isLovedTrack: true, entries: liked, createdAt: nowS(), modifiedAt: nowS() });
    return user;
  }

  createPlaylist(owner: FakeUser, title: string): FakePlaylist {
    const id = this.#nextId('playlist', ++this.#playlists, 10);
    // Deezer creates playlists public unless told otherwise.
    const playlist: FakePlaylist = { id, creatorId: owner.id, title, description: '', public: true, collaborative: false, isLovedTrack: false, entries: [], createdAt: nowS(), modifiedAt: nowS() };
    this.playlists.set(id, playlist);
    // Newest playlists come right after the loved one.
    owner.playlists.splice(1, 0, id);
    return playlist;
  }

  /** Seeds a playlist; a track listed twice is kept once, since a Deezer playlist cannot hold it twice. */
  #seedPlaylist(owner: FakeUser, seed: SeedPlaylist): FakePlaylist {
    const playlist = this.createPlaylist(owner, seed.name);
    playlist.description = seed.description ?? '';
    playlist.public = seed.public ?? false;
    playlist.collaborative = seed.collaborative ?? false;
    const base = nowS() - 86_400;
    for (const key of seed.trackKeys) {
      const id = this.catalog.trackIdOf(key);
      if (id === null || playlist.entries.some((entry) => entry.value === id)) continue;
      playlist.entries.push({ value: id, timeAdd: base + playlist.entries.length });
    }
    return playlist;
  }

  seedLibrary(user: FakeUser, library: SeedLibrary): void {
    // Seed order is library order: create in reverse so the first seed playlist lists first.
    for (const seed of [...(library.playlists ?? [])].reverse()) this.#seedPlaylist(user, seed);
    if (library.followed && library.followed.length > 0) {
      const curator = this.createUser('Deezer Editor');
      for (const seed of [...library.followed].reverse()) {
        const playlist = this.#seedPlaylist(curator, { ...seed, public: true });
        user.playlists.splice(1, 0, playlist.id);
      }
    }
    const base = nowS() - 3_600;
    (library.likedTrackKeys ?? []).forEach((key, index) => {
      const id = this.catalog.trackIdOf(key);
      if (id !== null && !user.liked.some((entry) => entry.value === id)) user.liked.push({ value: id, timeAdd: base - index });
    });
    (library.savedAlbumKeys ?? []).forEach((key, index) => user.albums.push({ value: this.catalog.albumId(key), timeAdd: base - index }));
    (library.followedArtistKeys ?? []).forEach((key, index) => {
      if (seedCatalog().artists.has(key)) user.artists.push({ value: this.catalog.artistId(key), timeAdd: base - index });
    });
  }

  /** Deezer's `checksum`: changes whenever the track list does. */
  checksum(playlist: FakePlaylist): string {
    return createHash('md5').update(`${playlist.id}:${playlist.entries.map((entry) => entry.value).join(',')}`).digest('hex');
  }

  findPlaylistByTitle(userId: number, title: string): FakePlaylist | null {
    const user = this.users.get(userId);
    if (!user) return null;
    for (const id of user.playlists) {
      const playlist = this.playlists.get(id);
      if (playlist?.title === title) return playlist;
    }
    return null;
  }
}
