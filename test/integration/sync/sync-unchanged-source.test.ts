import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { connectByRedirect, type JobJson } from '../migrations/migration-harness.ts';
import { startSyncHarness, type SyncHarness } from './sync-harness.ts';

/**
 * The cost promise: a hundred scheduled runs of an unchanged 1,000-track source make no
 * search and no write. The schedule's clock is the test's (each run is the next hourly slot), and
 * the fakes count what reached them: per run one cheap read of the source, nothing else. The rule
 * keeps a playlist of a second Spotify account in sync (a migration within one service needs no
 * search, so the 1,000-song origin migration stays quick under Spotify's pacing).
 */

const SOURCE_TRACKS = 1_000;
const RUNS = 100;

const catalog = seedCatalog();
const onSpotify = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify'));
// 1,000 entries: the catalogue's songs again and again, as a long playlist with repeats.
const keys = Array.from({ length: SOURCE_TRACKS }, (_, index) => onSpotify[index % onSpotify.length]!.key);

let h: SyncHarness;
let sourceId = '';
let targetId = '';

beforeAll(async () => {
  h = await startSyncHarness({ spotifyLibrary: { playlists: [{ name: 'Everything', trackKeys: keys }] } });
  sourceId = h.spotifyPlaylistId('Everything');
}, 300_000);

afterAll(async () => {
  await h?.close();
});

describe('an unchanged 1,000-track source', () => {
  it(`costs ${RUNS} runs one source read each: no search and no write anywhere`, async () => {
    const second = h.spotify.createAccount({ displayName: 'Second Listener' });
    h.spotify.setAuthorizeUser(second.userId);
    const secondAccount = await connectByRedirect(h.baseUrl, 'spotify');
    const jobId = await h.migrate(h.spotifyAccount, sourceId, 'spotify', secondAccount);
    targetId = ((await h.api(`/api/migrations/${jobId}`)).json as JobJson).collections[0]!.target_playlist_id!;
    const rule = await h.createRule(jobId);
    expect(h.spotify.playlist(sourceId)!.uris).toHaveLength(SOURCE_TRACKS);
    const targetBefore = h.spotify.playlist(targetId)!.snapshotId;
    const spotifyFrom = h.spotify.requests.length;
    const tidalFrom = h.tidal.requests.length;

    for (let run = 0; run < RUNS; run++) {
      h.advance(60);
      const { created } = await h.evaluate();
      expect(created).toHaveLength(1);
      const done = await h.waitRun(rule.id, created[0]!);
      expect(done).toMatchObject({ status: 'completed', migration_job_id: null, stats: { unchanged: true, provider_reads: 1 } });
    }

    const spotify = h.spotify.requests.slice(spotifyFrom).filter((request) => request.path.startsWith('/v1/'));
    const tidal = h.tidal.requests.slice(tidalFrom);
    expect(spotify.filter((request) => request.path.startsWith('/v1/search'))).toEqual([]);
    expect(spotify.filter((request) => request.method !== 'GET')).toEqual([]);
    // Per run: the profile and the source playlist object (its snapshot id), never its 1,000 entries nor the target.
    expect(spotify.map((request) => `${request.method} ${request.path}`)).toEqual(Array.from({ length: RUNS }, () => ['GET /v1/me', `GET /v1/playlists/${sourceId}`]).flat());
    expect(tidal).toEqual([]);
    expect(h.spotify.playlist(targetId)!.snapshotId).toBe(targetBefore);
    expect((await h.runs(rule.id)).filter((run) => run.migration_job_id !== null)).toEqual([]);
  }, 600_000);
});
