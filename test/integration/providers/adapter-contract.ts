import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Manifest, type OperationName, type Track } from '@opl/plugin-sdk';
import type { OperationCallInput } from '@opl/plugin-sdk/schemas';
import { PluginHost, type PluginCallContext } from '../../../core/plugin-host/index.ts';
import { credentialAttachments } from '../../../core/services/connections/credential-attachment.ts';
import type { FakeAccountTokens, FakeProviderServer } from '../../fakes/fake-provider.ts';
import { isAvailableOn, seedCatalog, type SeedLibrary, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { buildPluginBundle } from '../support/build-plugin.ts';
import { expectPluginError } from '../support/plugin-errors.ts';

/**
 * The adapter contract every provider plugin must pass against its fake, through the real sandbox:
 * reads with paging in order, duplicates kept, search by ISRC and text, writes split into
 * provider-sized batches and read back, the optional contracts its manifest declares, typed
 * errors for every failure the fake can produce, and no credential in any result or error.
 *
 * Usage, in `test/integration/providers/<provider>.contract.test.ts`:
 *   describeAdapterContract({ provider: 'spotify', pluginDir: 'plugins/providers/spotify', startFake: () => startFakeSpotify() });
 */

export interface ContractSubject<F extends FakeProviderServer = FakeProviderServer> {
  /** Provider name as in the manifest (`spotify`). */
  readonly provider: string;
  /** Plugin project directory, relative to the repository root or absolute. */
  readonly pluginDir: string;
  readonly startFake: () => Promise<F>;
  /**
   * Headers the engine's auth strategy adds to every call beside the account's token (its
   * `callHeaders`): DEVELOPER_USER_TOKEN sends the developer JWT it signs as `authorization`.
   */
  readonly callHeaders?: (fake: F) => Record<string, string>;
  /**
   * What `testConnection` reports as the account id, for providers that expose no user id (Apple
   * Music); by default the fake's user id.
   */
  readonly accountId?: (tokens: FakeAccountTokens) => string;
  /**
   * The provider can only append (Apple Music): a positioned insert must then be refused per item
   * with `Unsupported`, leaving the playlist as it was, and an insert at the end must still work.
   */
  readonly appendOnly?: boolean;
  /**
   * Accepted writes may show only after up to this many further reads (Apple Music: "there may be
   * a delay"): the read-back after an ambiguous write reads again up to this often. Default 0.
   */
  readonly writeVisibleAfterReads?: number;
  /**
   * The provider signals rate limits inside a successful HTTP answer (Deezer: 200 with error code 4
   * and no Retry-After), so the host has no 429 to wait out: the fake's `rate_limit` failure must
   * then reach the engine as `RateLimited` with a retry-after, never as a result.
   */
  readonly inBandRateLimits?: boolean;
}

const ALPHA_SIZE = 120;
const NEW_PLAYLIST_ADDS = 130;

interface ContractLibrary {
  readonly library: SeedLibrary;
  readonly alpha: readonly SeedTrack[];
  readonly beta: readonly SeedTrack[];
  readonly liked: readonly SeedTrack[];
}

function contractLibrary(provider: string): ContractLibrary {
  const catalog = seedCatalog();
  const music = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, provider));
  const alpha = music.slice(0, ALPHA_SIZE);
  const betaBase = music.slice(200, 205);
  const beta = [...betaBase, betaBase[0]!, betaBase[2]!];
  const liked = music.slice(230, 260);
  const albums = [...catalog.albums.values()].filter((album) => album.kind === 'album').slice(0, 5);
  return {
    alpha,
    beta,
    liked,
    library: {
      playlists: [
        { name: 'Contract Alpha', description: 'Paging and order.', trackKeys: alpha.map((track) => track.key) },
        { name: 'Contract Beta', description: 'Duplicates.', trackKeys: beta.map((track) => track.key) },
        { name: 'Contract Gamma', trackKeys: music.slice(300, 303).map((track) => track.key) },
      ],
      followed: [{ name: 'Contract Followed', trackKeys: music.slice(280, 284).map((track) => track.key), public: true }],
      likedTrackKeys: liked.map((track) => track.key),
      savedAlbumKeys: albums.map((album) => album.key),
      followedArtistKeys: [...catalog.artists.keys()].slice(0, 4),
    },
  };
}

function artistNames(track: SeedTrack): string[] {
  const { artists } = seedCatalog();
  return track.artistKeys.map((key) => artists.get(key)!.name);
}

export function describeAdapterContract<F extends FakeProviderServer>(subject: ContractSubject<F>): void {
  describe(`adapter contract: ${subject.provider}`, () => {
    let fake: F;
    let host: PluginHost;
    let manifest: Manifest;
    let account: FakeAccountTokens;
    let seed: ContractLibrary;
    /** Everything the plugin handed back, to prove no credential is in any of it. */
    const seen: string[] = [];

    const capabilities = () => new Set(manifest.provider!.capabilities);
    const constraints = () => manifest.provider!.write_constraints;

    function contextFor(tokens: FakeAccountTokens): PluginCallContext {
      const method = manifest.provider!.auth[0]!;
      const extra = subject.callHeaders?.(fake) ?? {};
      return { account: { id: `acct-${tokens.userId}`, label: null }, credentials: credentialAttachments(manifest, method, { kind: 'token', access_token: tokens.accessToken, extra_headers: extra }) };
    }

    async function call<N extends OperationName>(op: N, input: OperationCallInput<N>, tokens: FakeAccountTokens = account) {
      try {
        const result = await host.call(manifest.id, op, input, contextFor(tokens));
        seen.push(JSON.stringify(result));
        return result;
      } catch (error) {
        seen.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
        throw error;
      }
    }

    async function allPages<T>(read: (cursor: string | null) => Promise<{ items: T[]; next_cursor: string | null }>): Promise<T[]> {
      const items: T[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 500; page++) {
        const result = await read(cursor);
        items.push(...result.items);
        if (!result.next_cursor) return items;
        expect(result.next_cursor).not.toBe(cursor);
        cursor = result.next_cursor;
      }
      throw new Error('paging never ended');
    }

    const playlists = () => allPages((cursor) => call('listPlaylists', { cursor, limit: 2 }));
    const items = (playlistId: string, limit = 50) => allPages<Track>((cursor) => call('listPlaylistItems', { playlist_id: playlistId, cursor, limit }));
    async function playlistId(name: string): Promise<string> {
      const found = (await playlists()).find((playlist) => playlist.name === name);
      expect(found, `playlist "${name}" is listed`).toBeDefined();
      return found!.id!;
    }

    beforeAll(async () => {
      seed = contractLibrary(subject.provider);
      fake = await subject.startFake();
      const bundle = await buildPluginBundle(subject.pluginDir);
      manifest = bundle.manifest;
      host = new PluginHost({ originOverrides: fake.originOverrides });
      await host.start();
      await host.load(bundle);
      account = fake.createAccount({ displayName: 'Contract Listener', library: seed.library });
    });

    afterAll(async () => {
      await host?.close();
      await fake?.close();
    });

    it('declares a provider manifest whose operations exist in the plugin', () => {
      expect(manifest.kind).toBe('provider');
      expect(manifest.provider!.name).toBe(subject.provider);
      const implemented = new Set(host.loadedPlugins().find((plugin) => plugin.id === manifest.id)!.operations);
      for (const capability of capabilities()) {
        const needs: Partial<Record<string, OperationName>> = {
          READ_PLAYLISTS: 'listPlaylists',
          READ_TRACKS: 'listPlaylistItems',
          READ_LIBRARY: 'listLikedTracks',
          READ_SAVED_ALBUMS: 'listSavedAlbums',
          WRITE_SAVED_ALBUMS: 'saveAlbums',
          READ_FOLLOWED_ARTISTS: 'listFollowedArtists',
          WRITE_FOLLOWED_ARTISTS: 'followArtists',
          CREATE_PLAYLIST: 'createPlaylist',
          ADD_TRACKS: 'addTracks',
          REMOVE_TRACKS: 'removeTracks',
        };
        const op = needs[capability];
        if (op) expect(implemented.has(op), `${capability} needs ${op}`).toBe(true);
      }
      for (const op of ['testConnection', 'searchTracks', 'validateUri'] as const) expect(implemented.has(op), op).toBe(true);
      // Mirror changes the order by single-entry moves (REORDER) or, where none exists, one replacement.
      if (manifest.provider!.can_mirror) expect(implemented.has('replacePlaylistTracks') || (manifest.provider!.capabilities.includes('REORDER') && implemented.has('moveTracks'))).toBe(true);
      else expect(manifest.provider!.mirror_unavailable_reason).toBeTruthy();
      if (manifest.provider!.can_unfollow_playlist) expect(implemented.has('unfollowPlaylist')).toBe(true);
      if (manifest.provider!.can_delete_playlist) expect(implemented.has('deletePlaylist')).toBe(true);
    });

    it('tests the connection as the account owner', async () => {
      const result = await call('testConnection', {});
      expect(result.ok).toBe(true);
      expect(result.account_id).toBe(subject.accountId ? subject.accountId(account) : account.userId);
    });

    it('lists every owned playlist across pages, without repeats', async () => {
      const listed = await playlists();
      const names = listed.map((playlist) => playlist.name);
      for (const name of ['Contract Alpha', 'Contract Beta', 'Contract Gamma']) expect(names).toContain(name);
      expect(new Set(listed.map((playlist) => playlist.id)).size).toBe(listed.length);
      for (const playlist of listed.filter((entry) => entry.name.startsWith('Contract ') && entry.name !== 'Contract Followed')) expect(playlist.is_owned).not.toBe(false);
      const followed = listed.find((playlist) => playlist.name === 'Contract Followed');
      if (followed) expect(followed.is_owned).toBe(false);
      const alpha = listed.find((playlist) => playlist.name === 'Contract Alpha')!;
      if (alpha.track_count !== null) expect(alpha.track_count).toBe(ALPHA_SIZE);
    });

    it('reads a playlist and its items in order across pages, with ISRCs and durations', async () => {
      const id = await playlistId('Contract Alpha');
      const playlist = await call('readPlaylist', { playlist_id: id });
      expect(playlist.name).toBe('Contract Alpha');
      expect(playlist.description).toBe('Paging and order.');
      const read = await items(id);
      expect(read.map((track) => track.title)).toEqual(seed.alpha.map((track) => seedCatalog().tracks.get(track.key)!.title));
      read.forEach((track, index) => {
        const expected = seed.alpha[index]!;
        expect(track.artists.length > 0 ? track.artists : [track.artist]).toEqual(expect.arrayContaining([artistNames(expected)[0]!]));
        expect(Math.abs((track.duration_s ?? 0) - expected.durationMs / 1000)).toBeLessThanOrEqual(1);
        if (manifest.provider!.attributes.has_isrc && expected.isrc) expect(track.isrc).toBe(expected.isrc);
        expect(track.provider_uris[subject.provider], 'provider uri').toBeTruthy();
        expect(track.media_type).toBe('track');
        expect(track.is_migratable).toBe(true);
      });
    });

    it('keeps duplicate entries, each with its own position (where the provider allows duplicates)', async () => {
      const read = await items(await playlistId('Contract Beta'));
      // A provider whose playlists hold a track once (manifest: supports_duplicates false) holds the first of each.
      const expected = constraints().supports_duplicates ? seed.beta : seed.beta.filter((track, index) => seed.beta.findIndex((other) => other.key === track.key) === index);
      expect(read.map((track) => track.title)).toEqual(expected.map((track) => track.title));
      const entryIds = read.map((track) => track.source_item_id).filter((value): value is string => value !== null);
      if (entryIds.length > 0) expect(new Set(entryIds).size).toBe(read.length);
    });

    it('finds a recording by ISRC and by text', async () => {
      const target = seed.alpha.find((track) => track.isrc)!;
      if (manifest.provider!.attributes.search_modes.includes('isrc')) {
        const byIsrc = await call('searchTracks', { query: { isrc: target.isrc }, mode: 'isrc', limit: 5 });
        expect(byIsrc.candidates.length).toBeGreaterThan(0);
        expect(byIsrc.candidates[0]!.isrc).toBe(target.isrc);
        expect(byIsrc.candidates[0]!.title).toBe(target.title);
      }
      const byText = await call('searchTracks', { query: { title: target.title, artist: artistNames(target)[0]! }, mode: 'text', limit: 5 });
      expect(byText.candidates.length).toBeGreaterThan(0);
      expect(byText.candidates.length).toBeLessThanOrEqual(5);
      expect(byText.candidates.map((candidate) => candidate.title)).toContain(target.title);
      const none = await call('searchTracks', { query: { text: 'zzqx no such recording exists zzqx' }, mode: 'text', limit: 5 });
      expect(none.candidates).toEqual([]);
    });

    it('validates its own track URIs and refuses foreign ones', async () => {
      const [first] = await items(await playlistId('Contract Gamma'));
      const valid = await call('validateUri', { uri: first!.provider_uris[subject.provider]! });
      expect(valid.valid).toBe(true);
      expect(valid.entity).toBe('track');
      const invalid = await call('validateUri', { uri: 'https://example.com/not-a-track' });
      expect(invalid.valid).toBe(false);
    });

    it('creates a playlist and adds more tracks than one request may carry, in order', async () => {
      if (!capabilities().has('CREATE_PLAYLIST') || !capabilities().has('ADD_TRACKS')) return;
      const created = await call('createPlaylist', { name: 'Contract New', description: 'Made by the contract suite', public: false });
      expect(created.playlist_id).toBeTruthy();
      const alphaItems = await items(await playlistId('Contract Alpha'));
      // Repeats only where the manifest says a playlist may hold a track twice.
      const source = (constraints().supports_duplicates ? [...alphaItems, ...alphaItems] : alphaItems).slice(0, NEW_PLAYLIST_ADDS);
      expect(source.length).toBeGreaterThan(constraints().max_add_batch);
      const before = fake.requests.length;
      const added = await call('addTracks', { playlist_id: created.playlist_id, items: source.map((track) => ({ uri: track.provider_uris[subject.provider]! })) });
      expect(added.results).toHaveLength(source.length);
      expect(added.results.every((result) => result.ok)).toBe(true);
      expect(added.results.map((result) => result.uri)).toEqual(source.map((track) => track.provider_uris[subject.provider]));
      const writes = fake.requests.slice(before).filter((request) => request.method !== 'GET');
      expect(writes.length).toBeGreaterThanOrEqual(Math.ceil(source.length / constraints().max_add_batch));
      expect(writes.every((request) => request.status >= 200 && request.status < 300)).toBe(true);
      const readBack = await items(created.playlist_id);
      expect(readBack.map((track) => track.provider_uris[subject.provider])).toEqual(source.map((track) => track.provider_uris[subject.provider]));
      expect((await playlists()).map((playlist) => playlist.name)).toContain('Contract New');
    });

    it('inserts at a position', async () => {
      if (!capabilities().has('ADD_TRACKS')) return;
      const id = await playlistId('Contract Gamma');
      const [extra] = await items(await playlistId('Contract Beta'));
      const uri = extra!.provider_uris[subject.provider]!;
      if (subject.appendOnly) {
        const before = await items(id);
        const refused = await call('addTracks', { playlist_id: id, items: [{ uri, position: 1 }] });
        expect(refused.results[0]).toMatchObject({ ok: false, error: { type: 'Unsupported' } });
        expect((await items(id)).map((track) => track.provider_uris[subject.provider])).toEqual(before.map((track) => track.provider_uris[subject.provider]));
        const atEnd = await call('addTracks', { playlist_id: id, items: [{ uri, position: before.length }] });
        expect(atEnd.results[0]).toMatchObject({ ok: true, position: before.length });
        const read = await items(id);
        expect(read).toHaveLength(before.length + 1);
        expect(read[before.length]!.provider_uris[subject.provider]).toBe(uri);
        return;
      }
      const result = await call('addTracks', { playlist_id: id, items: [{ uri, position: 1 }] });
      expect(result.results[0]!.ok).toBe(true);
      const read = await items(id);
      expect(read).toHaveLength(4);
      expect(read[1]!.provider_uris[subject.provider]).toBe(uri);
    });

    it('removes the entries it is asked to remove', async () => {
      if (!capabilities().has('REMOVE_TRACKS')) return;
      const id = await playlistId('Contract Gamma');
      const firstPage = await call('listPlaylistItems', { playlist_id: id, cursor: null, limit: 50 });
      const [first, second] = firstPage.items;
      const result = await call('removeTracks', {
        playlist_id: id,
        items: [first!, second!].map((track) => ({ uri: track.provider_uris[subject.provider]!, target_item_id: track.source_item_id, position: track.position })),
        snapshot_id: firstPage.snapshot_id,
      });
      expect(result.results.every((entry) => entry.ok)).toBe(true);
      const after = await items(id);
      expect(after.map((track) => track.title)).toEqual(firstPage.items.slice(2).map((track) => track.title));
    });

    it('reads liked tracks, saved albums and followed artists it declares', async () => {
      if (capabilities().has('READ_LIBRARY')) {
        const liked = await allPages((cursor) => call('listLikedTracks', { cursor, limit: 20 }));
        expect(new Set(liked.map((track) => track.title))).toEqual(new Set(seed.liked.map((track) => track.title)));
      }
      const { albums, artists } = seedCatalog();
      if (capabilities().has('READ_SAVED_ALBUMS')) {
        const saved = await allPages((cursor) => call('listSavedAlbums', { cursor, limit: 2 }));
        expect(new Set(saved.map((album) => album.title))).toEqual(new Set(seed.library.savedAlbumKeys!.map((key) => albums.get(key)!.title)));
      }
      if (capabilities().has('READ_FOLLOWED_ARTISTS')) {
        const followed = await allPages((cursor) => call('listFollowedArtists', { cursor, limit: 2 }));
        expect(new Set(followed.map((artist) => artist.name))).toEqual(new Set(seed.library.followedArtistKeys!.map((key) => artists.get(key)!.name)));
      }
    });

    it('unfollows or deletes playlists only as its manifest declares', async () => {
      const provider = manifest.provider!;
      if (provider.can_unfollow_playlist) {
        const listed = await playlists();
        const followed = listed.find((playlist) => playlist.name === 'Contract Followed') ?? listed.find((playlist) => playlist.name === 'Contract Gamma')!;
        await call('unfollowPlaylist', { playlist_id: followed.id! });
        expect((await playlists()).map((playlist) => playlist.id)).not.toContain(followed.id);
      }
      if (provider.can_delete_playlist) {
        const created = await call('createPlaylist', { name: 'Contract Doomed', description: null, public: false });
        await call('deletePlaylist', { playlist_id: created.playlist_id });
        expect((await playlists()).map((playlist) => playlist.name)).not.toContain('Contract Doomed');
      }
    });

    it('answers an unknown playlist with NotFound', async () => {
      await expectPluginError(call('readPlaylist', { playlist_id: 'no-such-playlist-0000000' }), 'NotFound');
    });

    it('turns an expired token into AuthExpired', async () => {
      const other = fake.createAccount({ displayName: 'Expiring Listener' });
      fake.expireAccessToken(other.accessToken);
      await expectPluginError(call('listPlaylists', { cursor: null, limit: 10 }, other), 'AuthExpired');
    });

    it('waits out a short 429 without the plugin noticing, and reports a lasting one as RateLimited', async () => {
      if (!subject.inBandRateLimits) {
        fake.failNext({ kind: 'rate_limit', retryAfterS: 1, times: 1 });
        const before = fake.requests.length;
        const result = await call('listPlaylists', { cursor: null, limit: 10 });
        expect(result.items.length).toBeGreaterThan(0);
        expect(fake.requests.slice(before).map((request) => request.status)).toEqual(expect.arrayContaining([429, 200]));
      }

      fake.failNext({ kind: 'rate_limit', retryAfterS: 1, times: 10 });
      const error = await expectPluginError(call('listPlaylists', { cursor: null, limit: 10 }), 'RateLimited');
      expect(error.toData().retry_after_s).toBeGreaterThanOrEqual(1);
      fake.clearFailures();
    });

    it('reports server errors as ProviderError', async () => {
      fake.failNext({ kind: 'server_error', status: 503, times: 10 });
      await expectPluginError(call('listPlaylists', { cursor: null, limit: 10 }), 'ProviderError');
      fake.clearFailures();
    });

    it('fails an ambiguous write loudly; a read shows whether it applied', async () => {
      if (!capabilities().has('ADD_TRACKS')) return;
      const id = await playlistId('Contract Gamma');
      const before = await items(id);
      const [extra] = await items(await playlistId('Contract Alpha'));
      fake.failNext({ kind: 'ambiguous_write', method: 'POST', times: 1 });
      const error = await host.call(manifest.id, 'addTracks', { playlist_id: id, items: [{ uri: extra!.provider_uris[subject.provider]! }] }, contextFor(account)).then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(error, 'a lost response must not look like success').toBeInstanceOf(Error);
      let after = await items(id);
      for (let read = 0; read < (subject.writeVisibleAfterReads ?? 0) && after.length === before.length; read++) after = await items(id);
      expect(after.length).toBe(before.length + 1);
    });

    it('never hands a credential back to the engine', () => {
      const everything = seen.join('\n');
      expect(seen.length).toBeGreaterThan(10);
      expect(everything).not.toContain(account.accessToken);
      expect(everything).not.toContain(account.refreshToken);
    });
  });
}
