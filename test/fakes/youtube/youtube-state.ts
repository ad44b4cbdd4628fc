import { createHash } from 'node:crypto';
import { randomId } from '../fake-provider.ts';
import { DEMO_CLIENT_ID, GrantStore } from '../kit/index.ts';
import type { SeedLibrary, SeedPlaylist } from '../seed-catalog.ts';
import { channelId, youtubeCatalog, type YoutubeCatalog } from './youtube-catalog.ts';

/**
 * Everything the fake YouTube remembers: channels (one per Google account), OAuth clients, codes
 * and tokens, playlists with their playlistItem ids, liked videos, and the daily quota of each
 * OAuth client (a Google Cloud project): units per Pacific day with per-method costs, and the
 * separate search.list budget. Plain data; the routes enforce the rules.
 */

export { DEMO_CLIENT_ID };
export const SCOPE_YOUTUBE = 'https://www.googleapis.com/auth/youtube';
export const SCOPE_READONLY = 'https://www.googleapis.com/auth/youtube.readonly';
export const KNOWN_SCOPES = [SCOPE_YOUTUBE, SCOPE_READONLY, 'https://www.googleapis.com/auth/youtube.force-ssl', 'openid', 'email', 'profile'] as const;

export interface FakeChannel {
  readonly id: string;
  readonly title: string;
  readonly country: string;
}

export interface FakePlaylistItem {
  readonly id: string;
  readonly videoId: string;
  readonly addedAt: string;
}

export interface FakePlaylist {
  readonly id: string;
  readonly ownerId: string;
  title: string;
  description: string;
  privacyStatus: 'public' | 'unlisted' | 'private';
  readonly publishedAt: string;
  items: FakePlaylistItem[];
  /** Bumped on every change: the resource's etag. */
  version: number;
}

/** One client's usage on one Pacific day. */
export interface QuotaDay {
  day: string;
  units: number;
  searches: number;
}

export interface QuotaLimits {
  /** Units per day for every method but search.list (YouTube's default: 10,000). */
  readonly dailyUnits: number;
  /** search.list calls per day, their own bucket (YouTube's default: 100). */
  readonly dailySearches: number;
}

const pacificDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The quota day: YouTube resets quotas at midnight Pacific time. */
export function quotaDayOf(at: number): string {
  return pacificDay.format(new Date(at));
}

export type { AccessGrant as AccessToken, AuthorizationCode as AuthCode, OAuthClient, RefreshGrant as RefreshToken } from '../kit/index.ts';

export class YoutubeState extends GrantStore {
  readonly catalog: YoutubeCatalog = youtubeCatalog();
  readonly channels = new Map<string, FakeChannel>();
  readonly playlists = new Map<string, FakePlaylist>();
  /** Liked videos per channel, most recent first. */
  readonly liked = new Map<string, { videoId: string; ratedAt: string }[]>();
  readonly quota = new Map<string, QuotaDay>();
  #sequence = 0;
  #clock = Date.parse('2026-01-05T10:00:00Z');

  readonly limits: QuotaLimits;

  constructor(limits: QuotaLimits) {
    super({ access: () => `ya29.${randomId('', 36)}`, refresh: () => `1//${randomId('', 40)}` }, DEMO_CLIENT_ID);
    this.limits = limits;
  }

  /** Strictly increasing timestamps, so list orders and etags never tie. */
  tick(): string {
    this.#clock += 1_000;
    return new Date(Math.max(this.#clock, Date.now())).toISOString();
  }

  createChannel(title: string): FakeChannel {
    this.#sequence += 1;
    const channel: FakeChannel = { id: channelId(`user:${this.#sequence}:${title}`), title, country: 'US' };
    this.channels.set(channel.id, channel);
    this.liked.set(channel.id, []);
    return channel;
  }

  newPlaylistId(): string {
    this.#sequence += 1;
    return `PL${createHash('sha256').update(`playlist:${this.#sequence}`).digest('base64url').replace(/[-_]/g, 'x').slice(0, 32)}`;
  }

  /** playlistItem ids are opaque base64 strings, one per entry (duplicates get their own). */
  newItem(videoId: string, addedAt = this.tick()): FakePlaylistItem {
    this.#sequence += 1;
    return { id: Buffer.from(`item.${this.#sequence}.${videoId}`).toString('base64').replace(/=+$/, ''), videoId, addedAt };
  }

  createPlaylist(ownerId: string, title: string, description: string, privacyStatus: FakePlaylist['privacyStatus']): FakePlaylist {
    const playlist: FakePlaylist = { id: this.newPlaylistId(), ownerId, title, description, privacyStatus, publishedAt: this.tick(), items: [], version: 1 };
    this.playlists.set(playlist.id, playlist);
    return playlist;
  }

  /** Seeds playlists and liked videos from the shared catalogue (recordings YouTube lacks are left out). */
  seedLibrary(ownerId: string, library: SeedLibrary): void {
    const add = (owner: string, seed: SeedPlaylist) => {
      const playlist = this.createPlaylist(owner, seed.name, seed.description ?? '', seed.public ? 'public' : 'private');
      for (const key of seed.trackKeys) {
        const video = this.catalog.artTrackOf(key);
        if (video) playlist.items.push(this.newItem(video));
      }
    };
    for (const seed of library.playlists ?? []) add(ownerId, seed);
    if (library.followed?.length) {
      // YouTube's API lists only your own playlists: saved ones of other channels stay out of reach.
      const other = this.createChannel('Another Listener');
      for (const seed of library.followed) add(other.id, seed);
    }
    const liked = this.liked.get(ownerId)!;
    for (const key of library.likedTrackKeys ?? []) {
      const video = this.catalog.artTrackOf(key);
      if (video) liked.push({ videoId: video, ratedAt: this.tick() });
    }
    liked.reverse();
  }

  /** A channel's playlists in creation order. */
  playlistsOf(userId: string): FakePlaylist[] {
    return [...this.playlists.values()].filter((playlist) => playlist.ownerId === userId);
  }

  /** Today's usage of a client's quota (a new Pacific day starts from zero). */
  quotaOf(clientId: string, now = Date.now()): QuotaDay {
    const day = quotaDayOf(now);
    let usage = this.quota.get(clientId);
    if (!usage || usage.day !== day) {
      usage = { day, units: 0, searches: 0 };
      this.quota.set(clientId, usage);
    }
    return usage;
  }
}
