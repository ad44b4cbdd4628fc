import { randomBytes } from 'node:crypto';
import { issuedSecret } from '../secret-ledger.ts';
import type { SeedLibrary, SeedPlaylist } from '../seed-catalog.ts';
import { appleCatalog, type AppleCatalog } from './applemusic-catalog.ts';

/**
 * Everything the fake Apple Music remembers: users with their music user tokens and storefronts,
 * and each user's iCloud Music Library — library songs (`i.…`, one id per song in the library, so
 * a song twice in a playlist has the same id twice: playlist entries have no ids of their own),
 * library playlists (`p.…`) and their pending appends, which become visible only after a number of
 * reads ("there may be a delay before a new resource appears").
 */

export interface FakeUser {
  /** The fake's own handle; Apple exposes no user id. */
  readonly id: string;
  readonly displayName: string;
  storefront: string;
  /** The first music user token; `addUserToken` mints more (each sign-in gets its own). */
  readonly userToken: string;
  /** Apple issues no refresh token; a random placeholder that no endpoint accepts. */
  readonly placeholderRefresh: string;
}

export interface LibraryItem {
  /** `i.…` for songs, `i.…` too for music videos (Apple's library ids share the prefix). */
  readonly libraryId: string;
  readonly kind: 'song' | 'music-video';
  /** The catalog id; null for an upload that matches nothing in the catalogue. */
  readonly catalogId: string | null;
  /** Uploaded files only: what the file's tags say. */
  readonly upload: { readonly name: string; readonly artistName: string; readonly albumName: string; readonly durationInMillis: number } | null;
  readonly dateAdded: string;
}

export interface PendingAppend {
  readonly items: readonly LibraryItem[];
  /** Reads of the playlist's tracks still to happen before the items appear. */
  readsLeft: number;
}

export interface LibraryPlaylist {
  readonly id: string;
  readonly ownerId: string;
  name: string;
  description: string;
  isPublic: boolean;
  /** False for catalog playlists the user added to the library (someone else's). */
  readonly canEdit: boolean;
  readonly dateAdded: string;
  lastModifiedDate: string;
  /** The catalog playlist this library playlist stands for, when it was added from the catalogue. */
  readonly globalId: string | null;
  items: LibraryItem[];
  pending: PendingAppend[];
}

export interface UserLibrary {
  /** Catalog id → the user's library item for it. */
  readonly byCatalogId: Map<string, LibraryItem>;
  /** Library id → item. */
  readonly byLibraryId: Map<string, LibraryItem>;
  /** The songs the user added to the library, in the order added. */
  songs: LibraryItem[];
}

export class AppleMusicState {
  readonly catalog: AppleCatalog = appleCatalog();
  readonly users = new Map<string, FakeUser>();
  /** Music user token → its user; an expired token stays here, marked in `expiredTokens`. */
  readonly usersByToken = new Map<string, FakeUser>();
  readonly expiredTokens = new Set<string>();
  readonly libraries = new Map<string, UserLibrary>();
  readonly playlists = new Map<string, LibraryPlaylist>();
  #counter = 0;
  #lastSecond = 0;

  /** Apple's timestamps have second precision. */
  timestamp(): string {
    this.#lastSecond = Math.max(Math.floor(Date.now() / 1000), this.#lastSecond);
    return new Date(this.#lastSecond * 1000).toISOString().replace('.000Z', 'Z');
  }

  /** A timestamp at least one second after `previous`: a change a reader can tell apart at Apple's precision. */
  laterTimestamp(previous: string): string {
    this.#lastSecond = Math.max(Math.floor(Date.now() / 1000), Math.floor(Date.parse(previous) / 1000) + 1, this.#lastSecond);
    return new Date(this.#lastSecond * 1000).toISOString().replace('.000Z', 'Z');
  }

  libraryId(prefix: 'i' | 'p' | 'l'): string {
    // Apple's library ids: a prefix and 14 base62 characters.
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    const bytes = randomBytes(14);
    return `${prefix}.${[...bytes].map((byte) => alphabet[byte % alphabet.length]).join('')}`;
  }

  createUser(displayName: string, storefront: string, userToken?: string): FakeUser {
    this.#counter += 1;
    const user: FakeUser = {
      id: `am-user-${this.#counter}`,
      displayName,
      storefront,
      userToken: userToken ?? issuedSecret(`mut-${randomBytes(30).toString('base64url')}`),
      placeholderRefresh: `no-refresh-${randomBytes(12).toString('base64url')}`,
    };
    this.users.set(user.id, user);
    this.usersByToken.set(user.userToken, user);
    this.libraries.set(user.id, { byCatalogId: new Map(), byLibraryId: new Map(), songs: [] });
    return user;
  }

  addUserToken(user: FakeUser): string {
    const token = issuedSecret(`mut-${randomBytes(30).toString('base64url')}`);
    this.usersByToken.set(token, user);
    return token;
  }

  library(userId: string): UserLibrary {
    return this.libraries.get(userId)!;
  }

  /** The user's library item for a catalog resource, created on first use (adding to a playlist adds to the library). */
  libraryItemFor(userId: string, kind: LibraryItem['kind'], catalogId: string, dateAdded = this.timestamp()): LibraryItem {
    const library = this.library(userId);
    const known = library.byCatalogId.get(`${kind}:${catalogId}`);
    if (known) return known;
    const item: LibraryItem = { libraryId: this.libraryId('i'), kind, catalogId, upload: null, dateAdded };
    library.byCatalogId.set(`${kind}:${catalogId}`, item);
    library.byLibraryId.set(item.libraryId, item);
    return item;
  }

  /** An uploaded file that Apple could not match to the catalogue. */
  addUpload(userId: string, upload: NonNullable<LibraryItem['upload']>): LibraryItem {
    const item: LibraryItem = { libraryId: this.libraryId('i'), kind: 'song', catalogId: null, upload, dateAdded: this.timestamp() };
    this.library(userId).byLibraryId.set(item.libraryId, item);
    return item;
  }

  createPlaylist(ownerId: string, attributes: { name: string; description?: string; isPublic?: boolean; canEdit?: boolean; dateAdded?: string; globalId?: string | null }): LibraryPlaylist {
    const now = this.timestamp();
    const playlist: LibraryPlaylist = {
      id: this.libraryId('p'),
      ownerId,
      name: attributes.name,
      description: attributes.description ?? '',
      isPublic: attributes.isPublic ?? false,
      canEdit: attributes.canEdit ?? true,
      dateAdded: attributes.dateAdded ?? now,
      lastModifiedDate: attributes.dateAdded ?? now,
      globalId: attributes.globalId ?? null,
      items: [],
      pending: [],
    };
    this.playlists.set(playlist.id, playlist);
    return playlist;
  }

  /**
   * One read of a playlist's tracks: pending appends count down and those due become visible, in
   * the order they were accepted.
   */
  readTracks(playlist: LibraryPlaylist): void {
    for (const pending of playlist.pending) pending.readsLeft -= 1;
    this.settle(playlist);
  }

  /** Makes every pending append whose wait is over visible. */
  settle(playlist: LibraryPlaylist): void {
    while (playlist.pending.length > 0 && playlist.pending[0]!.readsLeft <= 0) {
      playlist.items.push(...playlist.pending.shift()!.items);
      playlist.lastModifiedDate = this.timestamp();
    }
  }

  /** Seeds a user's library from the shared catalogue; recordings Apple lacks are left out, as a real library would lack them. */
  seedLibrary(userId: string, library: SeedLibrary): void {
    const base = Date.parse('2024-01-01T00:00:00Z');
    const at = (index: number) => new Date(base + index * 86_400_000).toISOString().replace('.000Z', 'Z');
    const items = (playlist: SeedPlaylist, offset: number) =>
      playlist.trackKeys
        .map((key) => this.catalog.idOf(key))
        .filter((id): id is string => id !== null && this.catalog.songs.has(id))
        .map((id, index) => this.libraryItemFor(userId, 'song', id, at(offset + index)));
    (library.playlists ?? []).forEach((seed, index) => {
      const playlist = this.createPlaylist(userId, { name: seed.name, description: seed.description ?? '', isPublic: seed.public ?? false, dateAdded: at(index) });
      playlist.items = items(seed, index);
    });
    (library.followed ?? []).forEach((seed, index) => {
      // A catalog playlist added to the library: listed with the user's playlists, not editable.
      const playlist = this.createPlaylist(userId, { name: seed.name, description: seed.description ?? '', isPublic: true, canEdit: false, dateAdded: at(index), globalId: `pl.u-${this.libraryId('p').slice(2)}` });
      playlist.items = items(seed, index);
    });
    const songs = this.library(userId);
    songs.songs = (library.likedTrackKeys ?? [])
      .map((key) => this.catalog.idOf(key))
      .filter((id): id is string => id !== null && this.catalog.songs.has(id))
      .map((id, index) => this.libraryItemFor(userId, 'song', id, at(index)));
  }
}
