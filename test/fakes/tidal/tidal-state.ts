import { createHash, randomUUID } from 'node:crypto';
import { randomId } from '../fake-provider.ts';
import { DEMO_CLIENT_ID, GrantStore } from '../kit/index.ts';
import type { SeedLibrary, SeedPlaylist } from '../seed-catalog.ts';
import { tidalCatalog, type TidalCatalog } from './tidal-catalog.ts';

/**
 * Everything the fake TIDAL remembers: users, OAuth clients, codes and tokens, playlists with
 * their per-entry item ids, the users' collections (favourite tracks, albums, artists, followed
 * playlists) and the idempotency records of mutations. Plain data; the routes enforce the rules.
 */

/** The scopes a third-party app may ask for (the description's THIRD_PARTY tier). */
export const THIRD_PARTY_SCOPES = [
  'collection.read',
  'collection.write',
  'entitlements.read',
  'playback',
  'playlists.read',
  'playlists.write',
  'recommendations.read',
  'search.read',
  'search.write',
  'user.read',
] as const;

export { DEMO_CLIENT_ID };

export interface FakeUser {
  readonly id: string;
  readonly username: string;
  readonly country: string;
  readonly email: string;
}

export interface PlaylistEntry {
  readonly itemId: string;
  readonly type: 'tracks' | 'videos';
  readonly id: string;
  readonly addedAt: string;
}

export interface FakePlaylist {
  readonly id: string;
  readonly ownerId: string;
  name: string;
  description: string;
  accessType: 'PUBLIC' | 'UNLISTED' | 'PRIVATE';
  readonly createdAt: string;
  lastModifiedAt: string;
  items: PlaylistEntry[];
}

export interface CollectionEntry {
  readonly id: string;
  readonly addedAt: string;
}

export interface UserCollection {
  tracks: CollectionEntry[];
  albums: CollectionEntry[];
  artists: CollectionEntry[];
  playlists: CollectionEntry[];
}

export interface IdempotencyRecord {
  readonly payloadHash: string;
  readonly status: number;
  readonly body: unknown;
  readonly at: number;
}

/** How long the provider replays a mutation's answer for a reused key. */
export const IDEMPOTENCY_WINDOW_MS = 60 * 60 * 1000;

export type { AccessGrant as AccessToken, AuthorizationCode, OAuthClient, RefreshGrant as RefreshToken } from '../kit/index.ts';

export class TidalState extends GrantStore {
  constructor() {
    super({ access: () => randomId('tidal-at-', 24), refresh: () => randomId('tidal-rt-', 24) }, DEMO_CLIENT_ID);
  }

  readonly catalog: TidalCatalog = tidalCatalog();
  readonly users = new Map<string, FakeUser>();
  readonly playlists = new Map<string, FakePlaylist>();
  readonly collections = new Map<string, UserCollection>();
  readonly idempotency = new Map<string, IdempotencyRecord>();
  #userCounter = 0;
  #lastTimestamp = 0;

  /**
   * A strictly increasing timestamp: `lastModifiedAt` is the playlist's version marker, so two
   * writes within one millisecond must still tell apart.
   */
  timestamp(): string {
    this.#lastTimestamp = Math.max(Date.now(), this.#lastTimestamp + 1);
    return new Date(this.#lastTimestamp).toISOString();
  }

  createUser(username: string): FakeUser {
    this.#userCounter += 1;
    const id = String(190_000_000 + this.#userCounter * 7_919);
    const user: FakeUser = { id, username, country: 'US', email: `${username.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@example.invalid` };
    this.users.set(id, user);
    this.collections.set(id, { tracks: [], albums: [], artists: [], playlists: [] });
    return user;
  }

  collectionOf(userId: string): UserCollection {
    return this.collections.get(userId)!;
  }

  newEntry(type: 'tracks' | 'videos', id: string, addedAt = this.timestamp()): PlaylistEntry {
    // Item ids are opaque and distinct per entry: the same track twice has two item ids.
    return { itemId: randomId('', 12), type, id, addedAt };
  }

  createPlaylist(ownerId: string, attributes: { name: string; description?: string; accessType?: FakePlaylist['accessType']; createdAt?: string }): FakePlaylist {
    const now = this.timestamp();
    const playlist: FakePlaylist = {
      id: randomUUID(),
      ownerId,
      name: attributes.name,
      description: attributes.description ?? '',
      accessType: attributes.accessType ?? 'UNLISTED',
      createdAt: attributes.createdAt ?? now,
      lastModifiedAt: now,
      items: [],
    };
    this.playlists.set(playlist.id, playlist);
    return playlist;
  }

  /** Seeds a user's library from the shared catalogue; recordings TIDAL lacks are left out, as a real library would lack them. */
  seedLibrary(userId: string, library: SeedLibrary): void {
    const base = Date.parse('2024-01-01T00:00:00Z');
    const at = (index: number) => new Date(base + index * 86_400_000).toISOString();
    const trackEntries = (playlist: SeedPlaylist, offset: number) =>
      playlist.trackKeys
        .map((key) => this.catalog.idOf(key))
        .filter((id): id is string => id !== null && this.catalog.tracks.has(id))
        .map((id, index) => this.newEntry('tracks', id, at(offset + index)));
    (library.playlists ?? []).forEach((seed, index) => {
      const playlist = this.createPlaylist(userId, { name: seed.name, description: seed.description ?? '', accessType: seed.public ? 'PUBLIC' : 'UNLISTED', createdAt: at(index) });
      playlist.items = trackEntries(seed, index);
    });
    if (library.followed?.length) {
      const friend = this.createUser('A Friend');
      for (const seed of library.followed) {
        const playlist = this.createPlaylist(friend.id, { name: seed.name, description: seed.description ?? '', accessType: 'PUBLIC', createdAt: at(0) });
        playlist.items = trackEntries(seed, 0);
        this.collectionOf(userId).playlists.push({ id: playlist.id, addedAt: at(1) });
      }
    }
    const collection = this.collectionOf(userId);
    const entries = (keys: readonly string[] | undefined, exists: (id: string) => boolean) =>
      (keys ?? [])
        .map((key) => this.catalog.idOf(key))
        .filter((id): id is string => id !== null && exists(id))
        .map((id, index) => ({ id, addedAt: at(index) }));
    collection.tracks = entries(library.likedTrackKeys, (id) => this.catalog.tracks.has(id));
    collection.albums = entries(library.savedAlbumKeys, (id) => this.catalog.albums.has(id));
    collection.artists = entries(library.followedArtistKeys, (id) => this.catalog.artists.has(id));
  }

  /** The idempotency record for a key, within the replay window. */
  idempotent(key: string): IdempotencyRecord | null {
    const record = this.idempotency.get(key);
    if (!record) return null;
    if (Date.now() - record.at > IDEMPOTENCY_WINDOW_MS) {
      this.idempotency.delete(key);
      return null;
    }
    return record;
  }
}

export function payloadHash(body: string): string {
  return createHash('sha256').update(body).digest('hex');
}
