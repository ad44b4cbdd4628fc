import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '../../fakes/seed-catalog.ts';
import { LibraryReadService, LibraryUnsupportedError } from '../../../core/services/library/index.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';

/**
 * `/api/library/albums` and `/api/library/artists`: a connected account's saved albums and
 * followed artists, read page by page through its provider plugin (credentials attached by the
 * host), for the migration wizard to pick from. And `GET /api/imports`, the imports a migration
 * can start from.
 */

const catalog = seedCatalog();
const albumKeys = [...catalog.albums.keys()].slice(0, 7);
const artistKeys = [...catalog.artists.keys()].slice(0, 5);

let h: MigrationHarness;

interface Page<T> {
  account_id: string;
  provider: string;
  next_cursor: string | null;
  items: T[];
}

async function allPages<T>(path: string): Promise<{ pages: number; items: T[] }> {
  const items: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const { status, json } = await h.api(`${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(status, JSON.stringify(json)).toBe(200);
    const page = json as Page<T>;
    items.push(...page.items);
    cursor = page.next_cursor;
    pages += 1;
  } while (cursor && pages < 20);
  return { pages, items };
}

beforeAll(async () => {
  h = await startMigrationHarness({ spotifyLibrary: { savedAlbumKeys: albumKeys, followedArtistKeys: artistKeys, playlists: [] }, tidalLibrary: {} });
}, 300_000);

afterAll(async () => {
  await h?.close();
});

describe('library lists', () => {
  it('page through the saved albums with the provider cursor', async () => {
    const { pages, items } = await allPages<{ id: string; title: string; artists: string[] }>(`/api/library/albums?account_id=${h.spotifyAccount}&limit=3`);
    expect(pages).toBe(3);
    expect(items.map((album) => album.title).sort()).toEqual(albumKeys.map((key) => catalog.albums.get(key)!.title).sort());
    for (const album of items) {
      expect(album.id).toBeTruthy();
      expect(album.artists.length).toBeGreaterThan(0);
    }
  });

  it('list the followed artists, whose ids a migration accepts as its selection', async () => {
    const { items } = await allPages<{ id: string; name: string }>(`/api/library/artists?account_id=${h.spotifyAccount}`);
    expect(items.map((artist) => artist.name).sort()).toEqual(artistKeys.map((key) => catalog.artists.get(key)!.name).sort());
    const preflight = await h.api('/api/migrations/preflight', {
      method: 'POST',
      body: JSON.stringify({ source_account_id: h.spotifyAccount, target_provider: 'tidal', target_account_id: h.tidalAccount, selection: { followed_artist_ids: items.slice(0, 2).map((artist) => artist.id) } }),
    });
    expect(preflight.status, preflight.text).toBe(200);
    expect((preflight.json as { summary: { followed_artists: number } }).summary.followed_artists).toBe(2);
  });

  it('refuse bad input, unknown accounts and another owner’s reads with a problem body', async () => {
    expect((await h.api('/api/library/albums')).status).toBe(400);
    expect((await h.api(`/api/library/albums?account_id=${h.spotifyAccount}&limit=0`)).status).toBe(400);
    expect((await h.api(`/api/library/albums?account_id=${h.spotifyAccount}&limit=101`)).status).toBe(400);
    const unknown = await h.api('/api/library/artists?account_id=00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/problem\+json/);
  });

  it('say clearly when the service keeps no such library', async () => {
    const withoutLibraries = new LibraryReadService({ connections: h.app.app.services.connections, capabilitiesOf: () => ['READ_PLAYLISTS', 'READ_TRACKS'] });
    const owner = await ownerOf(h.spotifyAccount);
    await expect(withoutLibraries.albums(owner, h.spotifyAccount, null)).rejects.toBeInstanceOf(LibraryUnsupportedError);
    await expect(withoutLibraries.artists(owner, h.spotifyAccount, null)).rejects.toThrow(/does not let the engine read followed artists/);
  });

  it('an expired connection asks for reconnection', async () => {
    h.spotify.failNext({ kind: 'expired_token', times: 100, pathPrefix: '/v1/me' });
    try {
      const { status, json } = await h.api(`/api/library/albums?account_id=${h.spotifyAccount}`);
      expect(status).toBe(409);
      expect(json).toMatchObject({ code: 'provider_auth_expired', action: { type: 'reconnect_account' } });
    } finally {
      h.spotify.clearFailures();
    }
  });
});

describe('GET /api/imports', () => {
  it("lists the owner's usable imports, newest first, with their counts and without contents", async () => {
    const first = await h.api('/api/imports/text-preview', { method: 'POST', body: JSON.stringify({ text: 'Artist One - Song One\nArtist Two - Song Two', name: 'Pasted one' }) });
    expect(first.status, first.text).toBe(201);
    const second = await h.api('/api/imports/text-preview', { method: 'POST', body: JSON.stringify({ text: 'Artist Three - Song Three', name: 'Pasted two' }) });
    expect(second.status, second.text).toBe(201);
    const { status, json } = await h.api('/api/imports');
    expect(status).toBe(200);
    const list = (json as { imports: { id: string; name: string; playlist_count: number; track_count: number; playlists?: unknown }[] }).imports;
    const ids = [(second.json as { id: string }).id, (first.json as { id: string }).id];
    expect(list.map((entry) => entry.id)).toEqual(ids);
    expect(list[1]).toMatchObject({ playlist_count: 1, track_count: 2 });
    expect(list[0]).not.toHaveProperty('playlists');

    // Queued as a migration's source ⇒ no longer offered.
    await h.app.app.services.migrations.store.execute({ text: `update import_record set state = 'queued' where id = ?`, values: [ids[0]] });
    const after = (await h.api('/api/imports')).json as { imports: { id: string }[] };
    expect(after.imports.map((entry) => entry.id)).toEqual([ids[1]]);
    // Expired ⇒ gone too.
    await h.app.app.services.migrations.store.execute({ text: `update import_record set expires_at = now() - interval '1 minute' where id = ?`, values: [ids[1]] });
    expect(((await h.api('/api/imports')).json as { imports: unknown[] }).imports).toEqual([]);
  });
});

async function ownerOf(accountId: string): Promise<string> {
  const [row] = await h.app.app.services.migrations.store.execute({ text: 'select owner_id from provider_account where id = ?', values: [accountId] });
  return String(row!['owner_id']);
}
