import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import type { JobJson } from '../migrations/migration-harness.ts';
import { startSyncHarness, type RuleJson, type SyncHarness } from './sync-harness.ts';

/**
 * Mirror into a target that can remove and reorder but has no single-entry move (Deezer: its
 * reorder call takes the whole order): the run falls back to one full replacement of the computed
 * sequence, recorded in the ledger, and the target ends in source order. TIDAL source → Deezer
 * target, through HTTP against the fakes.
 */

const catalog = seedCatalog();
const onAll = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'deezer') && isAvailableOn(track, 'tidal') && isAvailableOn(track, 'spotify'));
const initial = onAll.slice(0, 6);

let h: SyncHarness;
let sourceId = '';
let targetId = '';
let rule: RuleJson;

beforeAll(async () => {
  h = await startSyncHarness({ spotifyLibrary: {}, tidalLibrary: { playlists: [{ name: 'Replace Me', trackKeys: initial.map((track) => track.key) }] }, deezerLibrary: {} });
  sourceId = h.tidal.playlistsOf(h.tidalUser.userId).find((playlist) => playlist.name === 'Replace Me')!.id;
}, 300_000);

afterAll(async () => {
  await h?.close();
});

const deezerIds = () => [...h.deezer!.playlist(targetId)!.trackIds];

describe('mirror by replacement', () => {
  it('a removal and a new order reach a Deezer target by one replacement', async () => {
    const jobId = await h.migrate(h.tidalAccount, sourceId, 'deezer', h.deezerAccount!);
    targetId = ((await h.api(`/api/migrations/${jobId}`)).json as JobJson).collections[0]!.target_playlist_id!;
    expect(deezerIds()).toEqual(initial.map((track) => h.deezer!.trackIdOf(track.key)));
    rule = await h.createRule(jobId, { mode: 'mirror' });

    const playlist = h.tidal.state.playlists.get(sourceId)!;
    const [first, second, , ...rest] = playlist.items;
    playlist.items = [...rest.reverse(), second!, first!];
    playlist.lastModifiedAt = h.tidal.state.timestamp();
    const expected = playlist.items.map((item) => h.deezer!.trackIdOf([...catalog.tracks.values()].find((track) => h.tidal.trackId(track.key) === item.id)!.key));

    const started = await h.api(`/api/syncs/${rule.id}/run`, { method: 'POST' });
    expect(started.status, started.text).toBe(202);
    const run = await h.waitRun(rule.id, (started.json as { id: string }).id, ['completed', 'failed']);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'completed', stats: { mirror: 'done', removed: 1, replaced: true } });
    expect(deezerIds()).toEqual(expected);
    const steps = await h.app.app.services.sync.execute({ text: `select kind, status from sync_mirror_step where run_id = ? order by seq`, values: [run.id] });
    expect(steps.map((step) => `${String(step['kind'])}:${String(step['status'])}`)).toEqual(['remove:done', 'move:failed', 'replace:done']);
  }, 300_000);
});
