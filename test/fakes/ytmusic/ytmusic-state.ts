import { createHash, randomBytes } from 'node:crypto';
import { DEMO_CLIENT_ID, GrantStore, randomId } from '../kit/index.ts';
import { issuedSecret } from '../secret-ledger.ts';
import type { SeedLibrary, SeedPlaylist } from '../seed-catalog.ts';
import { albumBrowseIdOf, channelIdOf, MUSIC_ORIGIN, type YtCatalog } from './ytmusic-catalog.ts';

/**
 * Everything the fake remembers: users (a YouTube channel each), playlists with one `setVideoId`
 * per entry (the same video twice is two entries), library lists, OAuth clients, tokens, device
 * codes and browser cookie sessions.
 */

export { DEMO_CLIENT_ID };
export const YOUTUBE_SCOPE = 'https://www.googleapis.com/auth/youtube';
/** Playlists every YouTube Music library shows besides the user's own: not ordinary playlists. */
export const LIKED_MUSIC_ID = 'LM';
export const EPISODES_FOR_LATER_ID = 'SE';

export interface YtUser {
  readonly id: string;
  readonly name: string;
  readonly handle: string;
  /** Library order (newest first, as YouTube Music lists it): own and saved playlists. */
  readonly playlists: string[];
  readonly liked: string[];
  readonly savedAlbums: string[];
  readonly subscriptions: string[];
}

export interface YtEntry {
  readonly setVideoId: string;
  readonly videoId: string;
}

export interface YtPlaylist {
  readonly id: string;
  readonly ownerId: string;
  title: string;
  description: string;
  privacy: 'PRIVATE' | 'UNLISTED' | 'PUBLIC';
  collaborative: boolean;
  readonly year: number;
  entries: YtEntry[];
}

export type { AccessGrant, OAuthClient } from '../kit/index.ts';

export interface DeviceGrant {
  readonly deviceCode: string;
  readonly userCode: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
  readonly expiresAt: number;
  status: 'pending' | 'approved' | 'denied';
  userId: string | null;
  polls: number;
  lastPollAt: number;
}

export function setVideoId(): string {
  return randomBytes(8).toString('hex').toUpperCase();
}

export class YtState extends GrantStore {
  readonly catalog: YtCatalog;
  readonly users = new Map<string, YtUser>();
  readonly playlists = new Map<string, YtPlaylist>();
  readonly deviceCodes = new Map<string, DeviceGrant>();
  /** SAPISID cookie value → user id (header-paste sessions). */
  readonly cookieSessions = new Map<string, string>();
  /** Videos that are no longer playable: shown greyed out in playlists. */
  readonly unavailable = new Set<string>();
  #userCount = 0;

  constructor(catalog: YtCatalog) {
    // No client is registered up front: the device flow accepts the demo client by its id.
    super({ access: () => randomId('ya29.fake-', 32), refresh: () => randomId('1//fake-', 32) });
    this.catalog = catalog;
  }

  createUser(name: string): YtUser {
    this.#userCount += 1;
    const id = `UC${randomId('', 16).replace(/[^A-Za-z0-9_-]/g, 'x').slice(0, 22)}`;
    const user: YtUser = { id, name, handle: `@${name.toLowerCase().replace(/[^a-z0-9]+/g, '')}${this.#userCount}`, playlists: [], liked: [], savedAlbums: [], subscriptions: [] };
    this.users.set(id, user);
    const liked: YtPlaylist = { id: `${LIKED_MUSIC_ID}:${id}`, ownerId: id, title: 'Liked Music', description: '', privacy: 'PRIVATE', collaborative: false, year: 2026, entries: [] };
    this.playlists.set(liked.id, liked);
    return user;
  }

  createPlaylist(ownerId: string, title: string, options: { description?: string; privacy?: YtPlaylist['privacy']; collaborative?: boolean; videoIds?: readonly string[] } = {}): YtPlaylist {
    const playlist: YtPlaylist = {
      id: `PL${randomId('', 24).replace(/[^A-Za-z0-9_-]/g, 'x').slice(0, 32)}`,
      ownerId,
      title,
      description: options.description ?? '',
      privacy: options.privacy ?? 'PRIVATE',
      collaborative: options.collaborative ?? false,
      year: 2026,
      entries: (options.videoIds ?? []).map((videoId) => ({ setVideoId: setVideoId(), videoId })),
    };
    this.playlists.set(playlist.id, playlist);
    return playlist;
  }

  seedLibrary(user: YtUser, library: SeedLibrary): void {
    const videoIds = (playlist: SeedPlaylist) => playlist.trackKeys.map((key) => this.catalog.videoIdOf(key)).filter((id): id is string => id !== null);
    const own = (library.playlists ?? []).map((seed) =>
      this.createPlaylist(user.id, seed.name, { description: seed.description ?? '', privacy: seed.public ? 'PUBLIC' : 'PRIVATE', collaborative: seed.collaborative ?? false, videoIds: videoIds(seed) }),
    );
    const owner = (library.followed ?? []).length > 0 ? this.createUser('Playlist Curator') : null;
    const followed = (library.followed ?? []).map((seed) => this.createPlaylist(owner!.id, seed.name, { description: seed.description ?? '', privacy: 'PUBLIC', videoIds: videoIds(seed) }));
    for (const playlist of followed) owner!.playlists.push(playlist.id);
    user.playlists.push(...own.map((playlist) => playlist.id), ...followed.map((playlist) => playlist.id));
    const liked = this.likedPlaylist(user.id);
    liked.entries = (library.likedTrackKeys ?? [])
      .map((key) => this.catalog.videoIdOf(key))
      .filter((id): id is string => id !== null)
      .map((videoId) => ({ setVideoId: setVideoId(), videoId }));
    user.liked.push(...liked.entries.map((entry) => entry.videoId));
    user.savedAlbums.push(...(library.savedAlbumKeys ?? []).map((key) => albumBrowseIdOf(key)).filter((id) => this.catalog.albums.has(id)));
    user.subscriptions.push(...(library.followedArtistKeys ?? []).map((key) => channelIdOf(key)));
  }

  likedPlaylist(userId: string): YtPlaylist {
    return this.playlists.get(`${LIKED_MUSIC_ID}:${userId}`)!;
  }

  /** Resolves a playlist id as a user sees it (`LM` is each user's own liked music). */
  playlistFor(userId: string, id: string): YtPlaylist | null {
    if (id === LIKED_MUSIC_ID) return this.likedPlaylist(userId);
    if (id.startsWith(`${LIKED_MUSIC_ID}:`)) return null;
    return this.playlists.get(id) ?? null;
  }

  /** Owners can edit; collaborative playlists are editable by their collaborators too (not modelled: owner only). */
  canEdit(userId: string, playlist: YtPlaylist): boolean {
    return playlist.ownerId === userId;
  }

  /** A signed-in browser session: the cookie header a user would paste. */
  createCookieSession(userId: string): string {
    const sapisid = issuedSecret(randomId('', 24).replace(/[^A-Za-z0-9]/g, 'x'));
    const sid = issuedSecret(randomId('g.a000', 40));
    this.cookieSessions.set(sapisid, userId);
    return `VISITOR_INFO1_LIVE=${randomId('', 8)}; SID=${sid}; SAPISID=${sapisid}; __Secure-3PAPISID=${sapisid}; PREF=f6=40000000&tz=Europe.Berlin`;
  }
}

/** `SAPISIDHASH <ts>_<sha1(ts SAPISID origin)>`: what a logged-in browser sends with its cookie. */
export function sapisidHash(sapisid: string, timestamp: number, origin = MUSIC_ORIGIN): string {
  return `SAPISIDHASH ${timestamp}_${createHash('sha1').update(`${timestamp} ${sapisid} ${origin}`).digest('hex')}`;
}
