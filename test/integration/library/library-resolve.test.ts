import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedFakeRequest } from '../../fakes/fake-provider.ts';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { startSyncHarness, type SyncHarness } from '../sync/sync-harness.ts';

/**
 * Resolving the songs a Library diff could not compare (no edge in the identity graph, no ISRC)
 * through HTTP against the Spotify and TIDAL fakes: the diff says first how many searches it
 * takes at most, the resolution reports how many it made — counted on the fakes — and afterwards
 * the diff compares those songs from the graph; a second resolution searches nothing again, and
 * a provider that keeps failing stops it (what was resolved stays resolved).
 */

const catalog = seedCatalog();
const tracks = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track');
const withIsrc = tracks.filter((track) => track.isrc !== null && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const noIsrcBoth = tracks.filter((track) => track.isrc === null && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const keys = (list: readonly SeedTrack[]) => list.map((track) => track.key);

interface DiffJson {
  only_a: { title: string }[];
  only_b: { title: string }[];
  both: { a: { title: string } }[];
  not_compared: { a: { title: string }[]; b: { title: string }[] };
  searches_needed: number;
}
interface ResolveJson {
  searches: number;
  resolved: number;
  unmatched: number;
  remaining: number;
  stopped: { error: string; retry_after_s: number | null } | null;
  diff: DiffJson;
}

let h: SyncHarness;
let tidalIds: Record<string, string> = {};

beforeAll(async () => {
  h = await startSyncHarness({
    spotifyLibrary: {
      playlists: [
        { name: 'Mixed', trackKeys: [...keys(withIsrc.slice(0, 3)), noIsrcBoth[0]!.key, noIsrcBoth[1]!.key] },
        { name: 'Later', trackKeys: [...keys(withIsrc.slice(3, 5)), noIsrcBoth[2]!.key] },
      ],
    },
    tidalLibrary: {
      playlists: [
        { name: 'Mixed', trackKeys: [...keys(withIsrc.slice(0, 3)), noIsrcBoth[0]!.key] },
        { name: 'Later', trackKeys: keys(withIsrc.slice(3, 5)) },
      ],
    },
  });
  for (const account of [h.spotifyAccount, h.tidalAccount]) {
    const refreshed = await h.api(`/api/library/accounts/${account}/refresh`, { method: 'POST', body: JSON.stringify({ full: false }) });
    expect(refreshed.status, refreshed.text).toBe(200);
  }
  tidalIds = Object.fromEntries(h.tidal.playlistsOf(h.tidalUser.userId).map((playlist) => [playlist.name, playlist.id]));
}, 300_000);

afterAll(async () => {
  await h?.close();
});

async function requestsDuring<T>(work: () => Promise<T>): Promise<{ result: T; requests: RecordedFakeRequest[] }> {
  const spotifyFrom = h.spotify.requests.length;
  const tidalFrom = h.tidal.requests.length;
  const result = await work();
  return { result, requests: [...h.spotify.requests.slice(spotifyFrom), ...h.tidal.requests.slice(tidalFrom)] };
}

const searchesIn = (requests: readonly RecordedFakeRequest[]) => requests.filter((request) => /search/i.test(request.path)).length;
const pair = (name: string) => ({ a: `${h.spotifyAccount}/${h.spotifyPlaylistId(name)}`, b: `${h.tidalAccount}/${tidalIds[name]}` });

async function diff(name: string): Promise<DiffJson> {
  const { a, b } = pair(name);
  const { result, requests } = await requestsDuring(() => h.api(`/api/library/diff?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`));
  expect(result.status, result.text).toBe(200);
  expect(requests).toEqual([]);
  return result.json as DiffJson;
}

async function resolve(name: string): Promise<{ answer: ResolveJson; searches: number }> {
  const { result, requests } = await requestsDuring(() => h.api('/api/library/diff/resolve', { method: 'POST', body: JSON.stringify(pair(name)) }));
  expect(result.status, result.text).toBe(200);
  return { answer: result.json as ResolveJson, searches: searchesIn(requests) };
}

describe('resolving songs not compared yet', () => {
  it('says first how many searches it takes, makes no more than that, and then compares them from the graph', async () => {
    const before = await diff('Mixed');
    expect(before.not_compared.a.map((track) => track.title).sort()).toEqual([noIsrcBoth[0]!.title, noIsrcBoth[1]!.title].sort());
    expect(before.not_compared.b.map((track) => track.title)).toEqual([noIsrcBoth[0]!.title]);
    expect(before.both).toHaveLength(3);
    expect(before.searches_needed).toBe(3);

    const { answer, searches } = await resolve('Mixed');
    // The fakes saw exactly the searches reported; the TIDAL copy of the shared song was settled
    // by the Spotify side's match, with no search of its own.
    expect(answer.searches).toBe(searches);
    expect(answer.searches).toBe(2);
    expect(answer).toMatchObject({ resolved: 2, unmatched: 0, remaining: 0, stopped: null });
    expect(answer.diff.both.map((entry) => entry.a.title)).toContain(noIsrcBoth[0]!.title);
    expect(answer.diff.only_a.map((track) => track.title)).toEqual([noIsrcBoth[1]!.title]);
    expect(answer.diff.not_compared).toEqual({ a: [], b: [] });
    expect(answer.diff.searches_needed).toBe(0);

    // The diff itself now compares them from the graph, still without a provider request.
    const after = await diff('Mixed');
    expect(after.both).toHaveLength(4);

    // Nothing is left to resolve: a second request searches nothing.
    const again = await resolve('Mixed');
    expect(again.searches).toBe(0);
    expect(again.answer).toMatchObject({ searches: 0, resolved: 0, unmatched: 0, stopped: null });
  }, 120_000);

  it('stops when the provider keeps failing, and resolves the rest on the next request', async () => {
    expect((await diff('Later')).searches_needed).toBe(1);
    h.tidal.failNext({ kind: 'server_error', times: 1_000 });
    let failing: ResolveJson;
    try {
      failing = (await resolve('Later')).answer;
    } finally {
      h.tidal.clearFailures();
    }
    expect(failing.stopped).toEqual({ error: expect.any(String), retry_after_s: null });
    expect(failing).toMatchObject({ resolved: 0, remaining: 1 });
    expect(failing.diff.not_compared.a.map((track) => track.title)).toEqual([noIsrcBoth[2]!.title]);

    const { answer, searches } = await resolve('Later');
    expect(answer).toMatchObject({ searches: 1, resolved: 1, remaining: 0, stopped: null });
    expect(searches).toBe(1);
    expect(answer.diff.only_a.map((track) => track.title)).toEqual([noIsrcBoth[2]!.title]);
  }, 120_000);

  it('refuses members that are not in the workspace', async () => {
    const response = await h.api('/api/library/diff/resolve', { method: 'POST', body: JSON.stringify({ a: `${h.spotifyAccount}/nope`, b: pair('Mixed').b }) });
    expect(response.status).toBe(409);
    expect((await h.api('/api/library/diff/resolve', { method: 'POST', body: JSON.stringify({ a: 'not a member', b: pair('Mixed').b }) })).status).toBe(400);
  });
});
