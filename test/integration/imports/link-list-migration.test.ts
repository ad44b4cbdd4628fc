import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';

/**
 * A pasted list of track links (what people copy out of a music app) migrated like any import
 * (HTTP + worker, Spotify, TIDAL, Deezer and YouTube Music fakes). To the service the links name, each link is
 * the song itself: written as it is, with no search — a Spotify or TIDAL link read as its URI, a
 * Deezer song page kept as written and taken by the Deezer plugin. To another service a link alone
 * has nothing to search by: when the owner has an account of the link's service whose plugin can
 * look it up (Spotify, TIDAL, Deezer, YouTube Music), the song is read from there and searched for by what it is; else
 * the entry is skipped with a reason that says so, and no empty search is sent (a real provider
 * refuses one, which would leave the job retrying instead of finishing).
 */

const catalog = seedCatalog();
const everywhere = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && track.availableOn === undefined && track.isrc !== null);
const onBoth = everywhere.slice(0, 3);
const finished = (job: { status: string }) => ['completed', 'failed', 'cancelled'].includes(job.status);
const artistOf = (track: (typeof onBoth)[number]) => catalog.artists.get(track.artistKeys[0]!)!.name;

interface Item {
  id: string;
  title: string;
  artist: string;
  isrc: string | null;
  status: string;
  reason: string | null;
  target_uri: string | null;
  match_detail: { from?: string; searches?: number } | null;
}

describe('a pasted list of track links as a migration source', () => {
  let h: MigrationHarness;

  beforeAll(async () => {
    h = await startMigrationHarness({ spotifyLibrary: { playlists: [] }, tidalLibrary: {}, deezerLibrary: {}, ytmusicLibrary: {} });
  }, 300_000);

  afterAll(async () => {
    await h?.close();
  });

  async function importText(text: string, name: string): Promise<string> {
    const preview = await h.api('/api/imports/text-preview', { method: 'POST', body: JSON.stringify({ text, name }) });
    expect(preview.status, preview.text).toBe(201);
    return (preview.json as { id: string }).id;
  }

  type Target = 'tidal' | 'spotify' | 'deezer';
  const accountOf = (target: Target) => ({ tidal: h.tidalAccount, spotify: h.spotifyAccount, deezer: h.deezerAccount! })[target];

  async function migrate(importId: string, target: Target): Promise<{ jobId: string; job: { status: string; counts: Record<string, number> }; items: Item[] }> {
    const started = await h.api('/api/migrations', {
      method: 'POST',
      body: JSON.stringify({ source_provider: 'import', source_account_id: importId, target_provider: target, target_account_id: accountOf(target), selection: { playlist_ids: ['0'] }, acknowledge_warnings: true }),
    });
    expect(started.status, started.text).toBe(202);
    const jobId = (started.json as { id: string }).id;
    const job = (await h.waitForJob(jobId, (state) => finished(state) || state.status === 'awaiting_review')) as { status: string; counts: Record<string, number> };
    const items = await h.api(`/api/migrations/${jobId}/items`);
    return { jobId, job, items: (items.json as Item[]).filter((item) => 'status' in item) };
  }

  const tidalLinks = () => onBoth.map((track) => `https://tidal.com/browse/track/${h.tidal.trackId(track.key)!}/u`).join('\n');
  const searchesOf = (fake: { requests: Array<{ path: string }> }) => fake.requests.filter((request) => request.path.includes('search')).length;

  it('TIDAL links to TIDAL: each song is written as linked, in order, without a search', async () => {
    const searchesBefore = searchesOf(h.tidal);
    const { job, items } = await migrate(await importText(`${tidalLinks()}\n`, 'TIDAL links'), 'tidal');
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(job.counts).toMatchObject({ written: onBoth.length, skipped: 0 });
    expect(items.map((item) => item.match_detail?.from)).toEqual(onBoth.map(() => 'source_uri'));
    expect(items.map((item) => item.target_uri)).toEqual(onBoth.map((track) => `tidal:track:${h.tidal.trackId(track.key)!}`));
    expect(searchesOf(h.tidal)).toBe(searchesBefore);
    const written = h.tidal.playlistsOf(h.tidalUser.userId).find((playlist) => playlist.name === 'TIDAL links')!;
    expect(h.tidal.playlistEntries(written.id)!.map((entry) => entry.id)).toEqual(onBoth.map((track) => h.tidal.trackId(track.key)));
  });

  /** The preflight's warnings for this import toward `target` (nothing is started). */
  async function preflightCodes(importId: string, target: Target): Promise<Array<Record<string, string>>> {
    const answer = await h.api('/api/migrations/preflight', {
      method: 'POST',
      body: JSON.stringify({ source_provider: 'import', source_account_id: importId, target_provider: target, target_account_id: accountOf(target), selection: { playlist_ids: ['0'] } }),
    });
    expect(answer.status, answer.text).toBe(200);
    return (answer.json as { warnings: Array<Record<string, string>> }).warnings;
  }

  it('TIDAL links to Spotify, with a TIDAL account connected: each read from TIDAL, then searched for on Spotify and written, no warning', async () => {
    const lookupsBefore = h.tidal.requests.filter((request) => request.path.endsWith('/tracks') && request.method === 'GET').length;
    // Another song, by its words (the same song twice would be written once).
    const named = everywhere[3]!;
    const text = `${tidalLinks()}\n${artistOf(named)} - ${named.title}\n`;
    const importId = await importText(text, 'Mixed list');
    // The owner's TIDAL account can say what the links are: nothing to warn about.
    expect((await preflightCodes(importId, 'tidal')).map((warning) => warning['code'])).not.toContain('links_for_another_service');
    expect((await preflightCodes(importId, 'spotify')).map((warning) => warning['code'])).not.toContain('links_for_another_service');
    const { job, items } = await migrate(importId, 'spotify');
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(job.counts).toMatchObject({ written: onBoth.length + 1, skipped: 0 });
    const links = items.slice(0, onBoth.length);
    expect(links.map((item) => item.target_uri)).toEqual(onBoth.map((track) => h.spotify.uriOf(track.key)));
    links.forEach((item, index) => {
      const track = onBoth[index]!;
      expect(item.status).toBe('written');
      expect(item.match_detail).toMatchObject({ looked_up: { provider: 'tidal', uri: `tidal:track:${h.tidal.trackId(track.key)!}`, title: expect.stringContaining(track.title) as string, isrc: track.isrc } });
      expect(item.reason).toMatch(/^Read from tidal as "/);
      // The item shows the song as TIDAL lists it (the pasted line named nothing).
      expect(item).toMatchObject({ title: expect.stringContaining(track.title) as string, artist: expect.stringContaining(artistOf(track)) as string, isrc: track.isrc });
    });
    // The links were read from TIDAL's catalogue in one batched request, and no empty search reached Spotify.
    expect(h.tidal.requests.filter((request) => request.path.endsWith('/tracks') && request.method === 'GET').length).toBe(lookupsBefore + 1);
    expect(h.spotify.requests.filter((request) => request.path.includes('search') && (request.query['q'] ?? '').trim() === '')).toEqual([]);
  });

  it('Spotify links to TIDAL, with a Spotify account connected: each read from Spotify (one Get Track each), then found on TIDAL', async () => {
    const reads = () => h.spotify.requests.filter((request) => request.method === 'GET' && /^\/v1\/tracks\/[^/]+$/.test(request.path)).length;
    const readsBefore = reads();
    const links = onBoth.map((track) => `https://open.spotify.com/track/${h.spotify.uriOf(track.key)!.split(':')[2]!}?si=x`).join('\n');
    const importId = await importText(`${links}\n`, 'Spotify links');
    expect((await preflightCodes(importId, 'tidal')).map((warning) => warning['code'])).not.toContain('links_for_another_service');
    const { job, items } = await migrate(importId, 'tidal');
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(job.counts).toMatchObject({ written: onBoth.length, skipped: 0 });
    expect(items.map((item) => item.target_uri)).toEqual(onBoth.map((track) => `tidal:track:${h.tidal.trackId(track.key)!}`));
    expect(items.map((item) => (item.match_detail as { looked_up?: { provider: string } } | null)?.looked_up?.provider)).toEqual(onBoth.map(() => 'spotify'));
    expect(reads() - readsBefore).toBe(onBoth.length);
  });

  const deezerLinks = () => onBoth.map((track) => `https://www.deezer.com/fr/track/${h.deezer!.trackIdOf(track.key)!}`);

  it('Deezer song pages to Deezer: each taken by the Deezer plugin as the song, in order, without a search or a warning', async () => {
    const searchesBefore = searchesOf(h.deezer!);
    const importId = await importText(`${deezerLinks().join('\n')}\n`, 'Deezer links');
    expect((await preflightCodes(importId, 'deezer')).map((warning) => warning['code'])).not.toContain('links_for_another_service');
    const { job, items } = await migrate(importId, 'deezer');
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(job.counts).toMatchObject({ written: onBoth.length, skipped: 0 });
    expect(items.map((item) => item.match_detail?.from)).toEqual(onBoth.map(() => 'source_uri'));
    expect(items.map((item) => item.target_uri)).toEqual(onBoth.map((track) => `deezer:track:${h.deezer!.trackIdOf(track.key)!}`));
    expect(searchesOf(h.deezer!)).toBe(searchesBefore);
    const written = h.deezer!.playlistByTitle(h.deezerUser!.userId, 'Deezer links')!;
    expect(written.trackIds).toEqual(onBoth.map((track) => h.deezer!.trackIdOf(track.key)));
  });

  it('song pages of other services to Spotify: a Deezer page is read from the Deezer account; YouTube and Apple Music pages, with no account, are warned about and skipped', async () => {
    const searchesBefore = searchesOf(h.spotify);
    const others = [deezerLinks()[0]!, 'https://youtu.be/FGBhQbmPwH8', 'https://music.apple.com/us/album/discovery/697194953?i=697195462'];
    const importId = await importText(`${others.join('\n')}\n`, 'Other services');
    expect((await preflightCodes(importId, 'spotify')).find((warning) => warning['code'] === 'links_for_another_service')).toEqual({
      code: 'links_for_another_service',
      message: '2 of the selected songs are only links to applemusic or youtube, with no title or artist: Spotify cannot be searched for them, so they will be skipped. Migrate them to applemusic or youtube instead, or add titles and artists to the file.',
      count: '2',
      providers: 'applemusic,youtube',
    });
    // Toward Deezer the Deezer page is its own song; the two others are warned about.
    expect((await preflightCodes(importId, 'deezer')).find((warning) => warning['code'] === 'links_for_another_service')).toMatchObject({ count: '2', providers: 'applemusic,youtube' });
    const { job, items } = await migrate(importId, 'spotify');
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(job.counts).toMatchObject({ written: 1, skipped: 2, failed: 0 });
    expect(items[0]).toMatchObject({ status: 'written', target_uri: h.spotify.uriOf(onBoth[0]!.key), match_detail: { looked_up: { provider: 'deezer', uri: others[0]! } } });
    expect(items.slice(1).map((item) => [item.status, item.match_detail?.from, item.reason])).toEqual([
      ['skipped', 'unsearchable', `No match found on spotify: it is only a youtube link (${others[1]!}), with no title, artist or album to search spotify by. Add the song's title and artist to the file, or migrate it to youtube.`],
      ['skipped', 'unsearchable', `No match found on spotify: it is only an applemusic link (${others[2]!}), with no title, artist or album to search spotify by. Add the song's title and artist to the file, or migrate it to applemusic.`],
    ]);
    // The song read from Deezer was found by its ISRC (the identity graph may know it already); no empty search.
    expect(searchesOf(h.spotify) - searchesBefore).toBeLessThanOrEqual(1);
    expect(h.spotify.requests.filter((request) => request.path.includes('search') && (request.query['q'] ?? '').trim() === '')).toEqual([]);
  });

  it('YouTube Music song links to Spotify, with a YouTube Music account connected: each read from YouTube Music (its player answer), then found on Spotify', async () => {
    const links = onBoth.map((track) => `https://music.youtube.com/watch?v=${h.ytmusic!.videoIdOf(track.key)!}`);
    const importId = await importText(`${links.join('\n')}\n`, 'YouTube Music links');
    expect((await preflightCodes(importId, 'spotify')).map((warning) => warning['code'])).not.toContain('links_for_another_service');
    const playersBefore = h.ytmusic!.requests.filter((request) => request.path.endsWith('/player')).length;
    const { jobId, job, items } = await migrate(importId, 'spotify');
    // YouTube Music names no ISRC: a song Spotify also has as a same-length remaster is left for
    // review rather than guessed, with the right song chosen; the reviewer approves it.
    expect(['completed', 'awaiting_review'], JSON.stringify(job)).toContain(job.status);
    expect(job.counts).toMatchObject({ skipped: 0, failed: 0 });
    expect(items.map((item) => item.target_uri)).toEqual(onBoth.map((track) => h.spotify.uriOf(track.key)));
    items.forEach((item, index) => {
      const track = onBoth[index]!;
      expect(item.reason).toMatch(/^Read from ytmusic as "/);
      expect(item.match_detail).toMatchObject({ looked_up: { provider: 'ytmusic', uri: links[index]!, title: expect.stringContaining(track.title) as string } });
      expect(item).toMatchObject({ title: expect.stringContaining(track.title) as string, artist: expect.stringContaining(artistOf(track)) as string });
    });
    for (const item of items.filter((candidate) => candidate.status === 'needs_review')) {
      const reviewed = await h.api(`/api/migrations/${jobId}/items/${item.id}/review`, { method: 'POST', body: JSON.stringify({ action: 'approve', target_uri: item.target_uri }) });
      expect(reviewed.status, reviewed.text).toBe(200);
    }
    const done = await h.waitForJob(jobId, finished);
    expect(done).toMatchObject({ status: 'completed', counts: { written: onBoth.length, skipped: 0 } });
    expect(h.spotify.playlistByName(h.spotifyUser.userId, 'YouTube Music links')?.uris).toEqual(onBoth.map((track) => h.spotify.uriOf(track.key)));
    // One player request per link: YouTube Music has no batch read.
    expect(h.ytmusic!.requests.filter((request) => request.path.endsWith('/player')).length - playersBefore).toBe(onBoth.length);
  });

  it('a link TIDAL cannot be asked about right now (503): skipped, and the reason says why, the other links go on', async () => {
    const importId = await importText(`${tidalLinks()}\n`, 'TIDAL down');
    // The batched lookup fails, and so does the first link asked again on its own.
    h.tidal.failNext({ kind: 'server_error', status: 503, method: 'GET', pathPrefix: '/v2/tracks', times: 2 });
    const { job, items } = await migrate(importId, 'spotify');
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(job.counts).toMatchObject({ written: onBoth.length - 1, skipped: 1 });
    const [skipped] = items.filter((item) => item.status === 'skipped');
    expect(skipped!.match_detail?.from).toBe('unsearchable');
    expect(skipped!.reason).toMatch(/^No match found on spotify: it is only a tidal link \(tidal:track:\d+\), .* or migrate it to tidal\. tidal could not be asked what it is right now: .+\.$/);
  });

  it('TIDAL keeps asking to slow down (429) while the links are read: the migration waits it out and every song is written', async () => {
    const importId = await importText(`${tidalLinks()}\n`, 'TIDAL busy');
    const lookups = () => h.tidal.requests.filter((request) => request.method === 'GET' && request.path.startsWith('/v2/tracks'));
    const before = lookups().length;
    // The host retries a short 429 twice by itself; the third reaches the plugin, and the lookup fails as RateLimited.
    h.tidal.failNext({ kind: 'rate_limit', retryAfterS: 1, method: 'GET', pathPrefix: '/v2/tracks', times: 3 });
    const { job, items } = await migrate(importId, 'spotify');
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(job.counts).toMatchObject({ written: onBoth.length, skipped: 0 });
    expect(items.map((item) => item.target_uri)).toEqual(onBoth.map((track) => h.spotify.uriOf(track.key)));
    for (const item of items) expect(item.reason).toMatch(/^Read from tidal as "/);
    // The batch TIDAL refused (three times) was asked again, whole, after the wait (not link by link).
    expect(lookups().length - before).toBe(4);
  });

  // Last: it disconnects the TIDAL account.
  it('TIDAL links to Spotify without a TIDAL account: warned before starting, skipped with the reason, never an empty search', async () => {
    expect((await h.api(`/api/auth/accounts/${h.tidalAccount}`, { method: 'DELETE' })).status).toBe(204);
    const searchesBefore = searchesOf(h.spotify);
    const importId = await importText(`${tidalLinks()}\n`, 'TIDAL links, no TIDAL');
    expect((await preflightCodes(importId, 'spotify')).find((warning) => warning['code'] === 'links_for_another_service')).toEqual({
      code: 'links_for_another_service',
      message: `${onBoth.length} of the selected songs are only links to tidal, with no title or artist: Spotify cannot be searched for them, so they will be skipped. Migrate them to tidal instead, or add titles and artists to the file.`,
      count: String(onBoth.length),
      providers: 'tidal',
    });
    const { job, items } = await migrate(importId, 'spotify');
    expect(job.status, JSON.stringify(job)).toBe('failed');
    expect(job.counts).toMatchObject({ written: 0, skipped: onBoth.length });
    for (const item of items) {
      expect(item.match_detail?.from).toBe('unsearchable');
      expect(item.reason).toMatch(/^No match found on spotify: it is only a tidal link \(tidal:track:\d+\), with no title, artist or album to search spotify by\. Add the song's title and artist to the file, or migrate it to tidal\.$/);
    }
    expect(searchesOf(h.spotify)).toBe(searchesBefore);
  });
});
