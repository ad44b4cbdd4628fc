import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startSyncHarness, type RuleJson, type RunJson, type SyncHarness } from './sync-harness.ts';

/**
 * Mirror into YouTube Music, which moves entries by their `setVideoId` (InnerTube's
 * `browse/edit_playlist` with ACTION_MOVE_VIDEO_BEFORE): TIDAL source → YouTube Music target,
 * through HTTP against the fakes. The target ends in source order by removals and moves — the
 * entries that stay keep their `setVideoId`s (no rewrite) — a song the owner added by hand is left
 * alone, and a song the owner took off comes back at its place.
 */

const catalog = seedCatalog();
// Songs that match without review (YouTube Music has no ISRCs): no remaster or other version with
// the same title in the catalogue, and no music video or cover beside the official audio (the
// fake's catalogue gives every fourth song a video, every seventh a cover).
const all = [...catalog.tracks.values()];
const onYtmusic = all.filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'ytmusic'));
const unambiguous = (track: (typeof all)[number]) => !all.some((other) => other !== track && (other.title.startsWith(track.title) || track.title.startsWith(other.title)));
const onBoth = onYtmusic.filter((track, index) => index % 4 !== 0 && index % 7 !== 3 && isAvailableOn(track, 'tidal') && unambiguous(track));
const initial = onBoth.slice(0, 8);
const later = onBoth[9]!;
const byHand = onBoth[11]!;

let h: SyncHarness;
let sourceId = '';
let targetId = '';
let rule: RuleJson;

beforeAll(async () => {
  h = await startSyncHarness({ spotifyLibrary: {}, tidalLibrary: { playlists: [{ name: 'Night Drive', trackKeys: initial.map((track) => track.key) }] }, ytmusicLibrary: {} });
  sourceId = h.tidalPlaylistId('Night Drive');
}, 300_000);

afterAll(async () => {
  await h?.close();
});

const yt = () => h.ytmusic!;
const videoOf = (key: string) => yt().videoIdOf(key)!;
const target = () => yt().playlist(targetId)!;
const sourceKeys = () => h.tidalKeys(sourceId);
const expectedFromSource = () => sourceKeys().map(videoOf);
const ownEntries = () => target().videoIds.filter((videoId) => videoId !== videoOf(byHand.key));

const editSource = (keys: readonly string[]) => h.tidalEdit(sourceId, keys);

/** Edits the target as the owner's YouTube Music app would (the InnerTube edit call). */
async function ownerEdit(actions: Record<string, unknown>[]): Promise<void> {
  const response = await fetch(`${yt().baseUrl}/youtubei/v1/browse/edit_playlist`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.ytmusicUser!.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ context: { client: { clientName: 'WEB_REMIX', clientVersion: '1.20261101.01.00' } }, playlistId: targetId, actions }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function run(): Promise<{ run: RunJson; actions: string[] }> {
  const from = yt().requests.length;
  const ended = await h.runNow(rule.id);
  const actions = yt()
    .requests.slice(from)
    .filter((request) => request.path.startsWith('/youtubei/v1/browse/edit_playlist'))
    .flatMap((request) => (JSON.parse(request.body) as { actions: { action: string }[] }).actions.map((action) => action.action));
  return { run: ended, actions };
}

describe('mirror into YouTube Music', () => {
  it('YouTube Music offers mirror, and a removal, an addition and a new order end in source order by moves', async () => {
    const { providers } = (await h.api('/providers')).json as { providers: { name: string; can_mirror: boolean; capabilities: string[] }[] };
    expect(providers.find((provider) => provider.name === 'ytmusic')).toMatchObject({ can_mirror: true, capabilities: expect.arrayContaining(['REMOVE_TRACKS', 'REORDER']) });

    // YouTube Music has no ISRCs: matched by title, artist and length, accepted without review.
    ({ targetId, rule } = await h.ruleFrom({ account: h.tidalAccount, playlistId: sourceId }, { provider: 'ytmusic', account: h.ytmusicAccount! }, { mode: 'mirror' }, { strictness: 'best_effort' }));
    expect(target().videoIds).toEqual(initial.map((track) => videoOf(track.key)));
    await ownerEdit([{ action: 'ACTION_ADD_VIDEO', addedVideoId: videoOf(byHand.key), dedupeOption: 'DEDUPE_OPTION_SKIP' }]);
    const entryOf = new Map(target().videoIds.map((videoId, index) => [videoId, target().setVideoIds[index]]));

    const keys = initial.map((track) => track.key);
    // One song removed, the last moved to the top, two swapped, one new song.
    editSource([keys[7]!, keys[0]!, keys[2]!, keys[1]!, ...keys.slice(4, 7), later.key]);
    const { run: done, actions } = await run();
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed', stats: { mirror: 'done', removed: 1, replaced: false } });
    expect(ownEntries()).toEqual(expectedFromSource());
    expect(target().videoIds).toContain(videoOf(byHand.key));
    // Moves, not a rewrite: every entry that stayed has the setVideoId it had.
    for (const [index, videoId] of target().videoIds.entries()) if (entryOf.has(videoId)) expect(target().setVideoIds[index]).toBe(entryOf.get(videoId));
    const moves = actions.filter((action) => action === 'ACTION_MOVE_VIDEO_BEFORE').length;
    expect(moves).toBe(done.stats['moved']);
    expect(moves).toBeGreaterThan(0);
    expect(moves).toBeLessThanOrEqual(2);
    expect(actions.filter((action) => action === 'ACTION_REMOVE_VIDEO')).toHaveLength(1);
    const steps = await h.app.app.services.sync.execute({ text: `select kind, status from sync_mirror_step where run_id = ? order by seq`, values: [done.id] });
    expect(steps.map((step) => `${String(step['kind'])}:${String(step['status'])}`)).toEqual(['remove:done', ...Array.from({ length: moves }, () => 'move:done')]);
  }, 300_000);

  it('a song the owner took off comes back at its place, and the next new order is reached again', async () => {
    const lost = target().videoIds.indexOf(expectedFromSource()[2]!);
    await ownerEdit([{ action: 'ACTION_REMOVE_VIDEO', removedVideoId: target().videoIds[lost], setVideoId: target().setVideoIds[lost] }]);
    editSource([...sourceKeys()].reverse());
    const { run: done } = await run();
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed', stats: { mirror: 'done', readded: 1, removed: 0 } });
    expect(ownEntries()).toEqual(expectedFromSource());
    expect(target().videoIds.filter((videoId) => videoId === videoOf(byHand.key))).toHaveLength(1);
    expect(new Set(target().videoIds).size).toBe(target().videoIds.length);
  }, 300_000);
});
