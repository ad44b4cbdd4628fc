import type { Playlist, Track } from '@opl/plugin-sdk';
import type { Execute } from '../../plugins/plugin-store.ts';
import type { ConnectionService } from '../connections/connection.service.ts';
import { encodeTrackDigest } from './track-digest.ts';
import { deleteAccountCache, selectCache, selectCachedDetails, selectCachedTracks, upsertCache } from './playlist-cache.sql.ts';

/**
 * Reads a connected account's playlists through its provider plugin, with the spec's caching: the
 * playlist list is kept until the user asks for a refresh; a playlist's tracks are kept per
 * snapshot id (read again only when the list shows a new snapshot, or on request). Providers
 * without snapshot ids are cached until refreshed. The liked-songs collection appears as a
 * playlist of kind LIKED_TRACKS with the id `liked`.
 */

export const LIKED_PLAYLIST_ID = 'liked';
const PAGE = 50;
/** Reads stop here: a bound against a provider that pages forever. */
const MAX_PAGES = 400;
const MAX_TRACKS = 20_000;

export type PlaylistSummary = Omit<Playlist, 'tracks'>;

export interface PlaylistListView {
  account_id: string;
  provider: string;
  cached: boolean;
  fetched_at: string;
  playlists: PlaylistSummary[];
}

export interface PlaylistView {
  account_id: string;
  provider: string;
  cached: boolean;
  fetched_at: string;
  playlist: Playlist;
}

/** A playlist's details (`tracks` empty) and its tracks a slice at a time (`PlaylistReadService.readInSlices`). */
export interface PlaylistSlicesView {
  playlist: Playlist;
  trackCount: number;
  slices: AsyncIterable<readonly Track[]>;
}

export class PlaylistLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlaylistLimitError';
  }
}

interface Dependencies {
  readonly execute: Execute;
  readonly connections: Pick<ConnectionService, 'call' | 'get'>;
  readonly capabilitiesOf: (provider: string) => readonly string[];
}

export class PlaylistReadService {
  readonly #deps: Dependencies;

  constructor(deps: Dependencies) {
    this.#deps = deps;
  }

  async list(ownerId: string, accountId: string, refresh = false): Promise<PlaylistListView> {
    const account = await this.#deps.connections.get(ownerId, accountId);
    if (!refresh) {
      const [cached] = await this.#deps.execute(selectCache(ownerId, accountId, 'list'));
      if (cached) return { account_id: accountId, provider: account.provider, cached: true, fetched_at: new Date(cached['fetched_at'] as string).toISOString(), playlists: cached['payload'] as PlaylistSummary[] };
    }
    const playlists: PlaylistSummary[] = [];
    if (this.#deps.capabilitiesOf(account.provider).includes('READ_LIBRARY')) {
      playlists.push(likedSummary(account.provider));
    }
    await eachPage(
      (cursor) => this.#deps.connections.call(ownerId, accountId, 'listPlaylists', { cursor, limit: PAGE }),
      (page) => {
        for (const { tracks: _tracks, ...summary } of page.items) playlists.push(summary);
      },
    );
    const [stored] = await this.#deps.execute(upsertCache(ownerId, accountId, 'list', null, playlists));
    return { account_id: accountId, provider: account.provider, cached: false, fetched_at: new Date(stored!['fetched_at'] as string).toISOString(), playlists };
  }

  async read(ownerId: string, accountId: string, playlistId: string, refresh = false): Promise<PlaylistView> {
    const account = await this.#deps.connections.get(ownerId, accountId);
    const scope = `playlist:${playlistId}`;
    if (!refresh) {
      const [cached] = await this.#deps.execute(selectCache(ownerId, accountId, scope));
      if (cached && (await this.#snapshotStillCurrent(ownerId, accountId, playlistId, (cached['snapshot_id'] as string | null) ?? null))) {
        return { account_id: accountId, provider: account.provider, cached: true, fetched_at: new Date(cached['fetched_at'] as string).toISOString(), playlist: cached['payload'] as Playlist };
      }
    }
    const playlist = playlistId === LIKED_PLAYLIST_ID ? await this.#readLiked(ownerId, accountId, account.provider) : await this.#readPlaylist(ownerId, accountId, playlistId);
    const [stored] = await this.#deps.execute(upsertCache(ownerId, accountId, scope, playlist.snapshot_id, playlist, encodeTrackDigest(playlist.tracks)));
    return { account_id: accountId, provider: account.provider, cached: false, fetched_at: new Date(stored!['fetched_at'] as string).toISOString(), playlist };
  }

  /**
   * The playlist `read` gives, its tracks handed over `sliceTracks` at a time: from the cache
   * when it is current, read from the database slice by slice (the whole playlist is never in
   * this process); otherwise read from the provider and cached as `read` does, then sliced.
   */
  async readInSlices(ownerId: string, accountId: string, playlistId: string, sliceTracks: number): Promise<PlaylistSlicesView> {
    await this.#deps.connections.get(ownerId, accountId);
    const scope = `playlist:${playlistId}`;
    const [cached] = await this.#deps.execute(selectCachedDetails(ownerId, accountId, scope));
    if (cached && (await this.#snapshotStillCurrent(ownerId, accountId, playlistId, (cached['snapshot_id'] as string | null) ?? null))) {
      const execute = this.#deps.execute;
      const version = cached['version'] as string;
      const trackCount = Number(cached['track_count']);
      async function* slices(): AsyncGenerator<readonly Track[]> {
        for (let from = 0; from < trackCount; from += sliceTracks) {
          const [row] = await execute(selectCachedTracks(ownerId, accountId, scope, version, from, Math.min(from + sliceTracks, trackCount) - 1));
          // Refreshed meanwhile: the rest would come from another version of the playlist.
          if (!row) throw new Error('The playlist was read again from the service while it was being exported; export it again.');
          yield row['tracks'] as Track[];
        }
      }
      return { playlist: cached['details'] as Playlist, trackCount, slices: slices() };
    }
    const { playlist } = await this.read(ownerId, accountId, playlistId, true);
    const { tracks } = playlist;
    async function* slices(): AsyncGenerator<readonly Track[]> {
      for (let from = 0; from < tracks.length; from += sliceTracks) yield tracks.slice(from, from + sliceTracks);
    }
    return { playlist: { ...playlist, tracks: [] }, trackCount: tracks.length, slices: slices() };
  }

  /** Forget every cached read of an account (after any write to it). */
  async invalidate(ownerId: string, accountId: string): Promise<void> {
    await this.#deps.execute(deleteAccountCache(ownerId, accountId));
  }

  /** The cached list's snapshot of this playlist matches the cached tracks (or neither has one). */
  async #snapshotStillCurrent(ownerId: string, accountId: string, playlistId: string, cachedSnapshot: string | null): Promise<boolean> {
    const [list] = await this.#deps.execute(selectCache(ownerId, accountId, 'list'));
    if (!list) return true;
    const entry = (list['payload'] as PlaylistSummary[]).find((playlist) => playlist.id === playlistId);
    if (!entry || entry.snapshot_id === null || cachedSnapshot === null) return true;
    return entry.snapshot_id === cachedSnapshot;
  }

  async #readPlaylist(ownerId: string, accountId: string, playlistId: string): Promise<Playlist> {
    const playlist = await this.#deps.connections.call(ownerId, accountId, 'readPlaylist', { playlist_id: playlistId });
    const tracks: Track[] = [];
    let snapshot = playlist.snapshot_id;
    await eachPage(
      (cursor) => this.#deps.connections.call(ownerId, accountId, 'listPlaylistItems', { playlist_id: playlistId, cursor, limit: PAGE * 2 }),
      (page) => {
        snapshot ??= page.snapshot_id;
        collectTracks(tracks, page.items, 'This playlist');
      },
    );
    return { ...playlist, snapshot_id: snapshot, tracks: tracks.map((track, index) => ({ ...track, position: track.position ?? index })), track_count: tracks.length };
  }

  async #readLiked(ownerId: string, accountId: string, provider: string): Promise<Playlist> {
    const tracks: Track[] = [];
    await eachPage(
      (cursor) => this.#deps.connections.call(ownerId, accountId, 'listLikedTracks', { cursor, limit: PAGE }),
      (page) => collectTracks(tracks, page.items, 'The liked collection'),
    );
    return { ...likedSummary(provider), tracks: tracks.map((track, index) => ({ ...track, position: track.position ?? index })), track_count: tracks.length };
  }
}

/** Reads every page of a cursor-paged operation, in order, up to MAX_PAGES. */
export async function eachPage<P extends { next_cursor: string | null }>(read: (cursor: string | null) => Promise<P>, take: (page: P) => void): Promise<void> {
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await read(cursor);
    take(result);
    if (!result.next_cursor || result.next_cursor === cursor) return;
    cursor = result.next_cursor;
  }
}

function collectTracks(into: Track[], page: readonly Track[], what: string): void {
  into.push(...page);
  if (into.length > MAX_TRACKS) throw new PlaylistLimitError(`${what} has more than ${MAX_TRACKS} entries, more than the engine reads at once.`);
}

function likedSummary(provider: string): Playlist {
  return {
    id: LIKED_PLAYLIST_ID,
    name: 'Liked songs',
    description: `Your liked songs on ${provider}. Migrated into the target's liked library, never into an ordinary playlist.`,
    photo: null,
    tracks: [],
    track_count: null,
    owner_id: null,
    owner_name: null,
    created_at: null,
    updated_at: null,
    kind: 'LIKED_TRACKS',
    artwork_uri: null,
    snapshot_id: null,
    is_owned: true,
    is_followed: null,
    collaborative: false,
    provider_uris: {},
    metadata: {},
  };
}
