import { randomBytes } from 'node:crypto';
import { DEMO_CLIENT_ID, GrantStore, randomId } from '../kit/index.ts';
import { seedCatalog, type SeedLibrary, type SeedPlaylist } from '../seed-catalog.ts';
import type { SpotifyCatalog } from './spotify-catalog.ts';

/**
 * What the fake Spotify remembers: users with their libraries (playlists in library order, liked
 * tracks, saved albums, followed artists), playlists with their entries and snapshot history, and
 * the OAuth grants (authorization codes, access and refresh tokens).
 */

export interface PlaylistEntry {
  readonly uri: string;
  readonly addedAt: string;
  readonly addedBy: string;
}

export interface FakePlaylist {
  readonly id: string;
  readonly ownerId: string;
  name: string;
  description: string;
  public: boolean;
  collaborative: boolean;
  /** Users who may read and edit a collaborative playlist besides its owner. */
  readonly collaborators: Set<string>;
  entries: PlaylistEntry[];
  snapshotId: string;
  /** Every snapshot id this playlist has had: writes may name an older one. */
  readonly snapshots: Set<string>;
  /** Follower count beyond the owner (shown in `followers.total`). */
  followers: number;
}

export interface LibraryEntry<T> {
  readonly value: T;
  readonly addedAt: string;
}

export interface FakeUser {
  readonly id: string;
  displayName: string;
  readonly country: string;
  /** Playlist ids in the user's library, most recently added first (as `/me/playlists` lists them). */
  playlists: string[];
  /** Track URIs, most recent first. */
  liked: LibraryEntry<string>[];
  /** Album ids, most recent first. */
  savedAlbums: LibraryEntry<string>[];
  /** Artist ids, in follow order. */
  followedArtists: string[];
}

export type { AccessGrant, AuthorizationCode, OAuthClient as RegisteredClient, RefreshGrant } from '../kit/index.ts';

/** The public client id the demo and the tests use; always accepted. */
export { DEMO_CLIENT_ID };

/** Spotify snapshot ids are opaque base64 strings that change with every write. */
export function newSnapshotId(): string {
  return randomBytes(24).toString('base64');
}

/** A fresh base62 id of Spotify's length. */
export function newSpotifyId(): string {
  const symbols = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const bytes = randomBytes(22);
  return Array.from(bytes, (byte) => symbols[byte % 62]).join('');
}

/** Deterministic `added_at` timestamps for seeded entries, one hour apart, oldest first. */
function seededAt(index: number): string {
  return new Date(Date.UTC(2024, 0, 5, 9, 0, 0) + index * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class SpotifyState extends GrantStore {
  readonly users = new Map<string, FakeUser>();
  readonly playlists = new Map<string, FakePlaylist>();
  /** Users in creation order: the consent page offers the most recent one. */
  readonly userOrder: string[] = [];
  readonly catalog: SpotifyCatalog;
  #counter = 0;

  constructor(catalog: SpotifyCatalog) {
    super({ access: () => randomId('BQ', 48), refresh: () => randomId('AQ', 48) }, DEMO_CLIENT_ID);
    this.catalog = catalog;
  }

  createUser(displayName: string): FakeUser {
    this.#counter += 1;
    const slug = displayName.toLowerCase().replace(/[^a-z0-9]+/g, '').slice(0, 16) || 'user';
    let id = `${slug}${this.#counter}`;
    while (this.users.has(id)) id = `${id}x`;
    const user: FakeUser = { id, displayName, country: 'DE', playlists: [], liked: [], savedAlbums: [], followedArtists: [] };
    this.users.set(id, user);
    this.userOrder.push(id);
    return user;
  }

  createPlaylist(owner: FakeUser, fields: { name: string; description?: string; public?: boolean; collaborative?: boolean }): FakePlaylist {
    const snapshotId = newSnapshotId();
    const playlist: FakePlaylist = {
      id: newSpotifyId(),
      ownerId: owner.id,
      name: fields.name,
      description: fields.description ?? '',
      public: fields.public ?? true,
      collaborative: fields.collaborative ?? false,
      collaborators: new Set(),
      entries: [],
      snapshotId,
      snapshots: new Set([snapshotId]),
      followers: 0,
    };
    this.playlists.set(playlist.id, playlist);
    owner.playlists.unshift(playlist.id);
    return playlist;
  }

  /** Records a write: every change gets a new snapshot id. */
  touch(playlist: FakePlaylist): string {
    playlist.snapshotId = newSnapshotId();
    playlist.snapshots.add(playlist.snapshotId);
    return playlist.snapshotId;
  }

  canRead(playlist: FakePlaylist, userId: string): boolean {
    return playlist.ownerId === userId || (playlist.collaborative && playlist.collaborators.has(userId));
  }

  canEdit(playlist: FakePlaylist, userId: string): boolean {
    return this.canRead(playlist, userId);
  }

  /**
   * Seeds a user's library. Playlists of `library.followed` belong to a second user (a friend);
   * a followed playlist marked `collaborative` makes the account one of its collaborators.
   */
  seedLibrary(user: FakeUser, library: SeedLibrary): void {
    const seedPlaylist = (owner: FakeUser, seed: SeedPlaylist, offset: number): FakePlaylist => {
      const playlist = this.createPlaylist(owner, { name: seed.name, description: seed.description ?? '', public: seed.public ?? false, collaborative: seed.collaborative ?? false });
      playlist.entries = seed.trackKeys.flatMap((key, index) => {
        const entry = this.catalog.entryForKey(key);
        return entry ? [{ uri: entry.uri, addedAt: seededAt(offset + index), addedBy: owner.id }] : [];
      });
      this.touch(playlist);
      return playlist;
    };
    // Library order is most recent first; seed the first listed playlist last so it leads.
    const owned = library.playlists ?? [];
    [...owned].reverse().forEach((seed, index) => seedPlaylist(user, seed, index * 200));
    const followed = library.followed ?? [];
    if (followed.length > 0) {
      const friend = this.createUser(`${user.displayName} Friend`);
      [...followed].reverse().forEach((seed, index) => {
        const playlist = seedPlaylist(friend, seed, 10_000 + index * 200);
        playlist.followers += 1;
        if (seed.collaborative) {
          playlist.public = false;
          playlist.collaborators.add(user.id);
        }
        user.playlists.unshift(playlist.id);
      });
      // Followed playlists were added to the library after the user's own: keep owned ones first as seeded.
      user.playlists = [...user.playlists.filter((id) => this.playlists.get(id)!.ownerId === user.id), ...user.playlists.filter((id) => this.playlists.get(id)!.ownerId !== user.id)];
    }
    const liked = (library.likedTrackKeys ?? []).flatMap((key) => {
      const entry = this.catalog.entryForKey(key);
      return entry && entry.kind === 'track' ? [entry.uri] : [];
    });
    user.liked = liked.map((uri, index) => ({ value: uri, addedAt: seededAt(20_000 - index) }));
    user.savedAlbums = (library.savedAlbumKeys ?? []).filter((key) => seedCatalog().albums.has(key)).map((key, index) => ({ value: this.catalog.albumId(key), addedAt: seededAt(30_000 - index) }));
    user.followedArtists = (library.followedArtistKeys ?? []).filter((key) => seedCatalog().artists.has(key)).map((key) => this.catalog.artistId(key));
  }

  /** Stable ids for seed playlists are not needed by tests; they look playlists up by name. */
  findPlaylistByName(userId: string, name: string): FakePlaylist | null {
    const user = this.users.get(userId);
    if (!user) return null;
    for (const id of user.playlists) {
      const playlist = this.playlists.get(id);
      if (playlist?.name === name) return playlist;
    }
    return null;
  }
}
