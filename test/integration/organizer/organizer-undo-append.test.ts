import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';
import { buildPluginBundle } from '../support/build-plugin.ts';
import { createPublisher, createTestRegistry, publishTestPlugin } from '../support/plugin-registry.ts';
import { organizerClient, type OrganizerJobJson } from './organizer-harness.ts';

/**
 * Undo on a provider that cannot insert at a position. No first-party provider is like that, so
 * the Spotify plugin is built and signed here (with the SDK, as a third party would) with a
 * manifest that declares `positional_insert: false`: the engine must then append the removed
 * entries in their old order, verify the result by reading, and say per item which entries could
 * not regain their place — never pretend the order was restored.
 */

const catalog = seedCatalog();
const onSpotify = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify')).map((track) => track.key);
const [a, b, c, d, e] = onSpotify as [string, string, string, string, string];

let h: MigrationHarness;
let client: ReturnType<typeof organizerClient>;

async function appendOnlyPlugins(): Promise<{ env: Record<string, string>; remove(): Promise<void> }> {
  const publisher = createPublisher('organizer-append-only');
  const registry = await createTestRegistry([publisher]);
  for (const name of ['spotify', 'tidal']) {
    const project = fileURLToPath(new URL(`../../../plugins/providers/${name}`, import.meta.url));
    const source = JSON.parse(await readFile(`${project}/plugin.json`, 'utf8')) as { publisher: { key_id: string }; provider: { organizer: { remove_songs: { positional_insert: boolean } } } };
    source.publisher.key_id = publisher.keyId;
    if (name === 'spotify') source.provider.organizer.remove_songs.positional_insert = false;
    const { code } = await buildPluginBundle(project);
    await publishTestPlugin(registry, { manifestSource: source, code, publisher });
  }
  return { env: registry.env, remove: () => registry.cleanup() };
}

beforeAll(async () => {
  h = await startMigrationHarness({
    spotifyLibrary: { playlists: [{ name: 'Five Songs', trackKeys: [a, b, c, d, e] }, { name: 'Tail', trackKeys: [a, b, c] }] },
    tidalLibrary: {},
    plugins: await appendOnlyPlugins(),
  });
  client = organizerClient(h);
}, 300_000);

afterAll(async () => {
  await h?.close();
});

const playlist = (name: string) => h.spotify.playlistByName(h.spotifyUser.userId, name)!;

async function undo(jobId: string): Promise<OrganizerJobJson & { restore_order: string | null }> {
  const answer = await h.api(`/api/organizer/jobs/${jobId}/undo`, { method: 'POST' });
  expect(answer.status, answer.text).toBe(202);
  return (await client.waitForJob((answer.json as OrganizerJobJson).id)) as OrganizerJobJson & { restore_order: string | null };
}

describe('undo where the provider can only append', () => {
  it('re-adds the removed entries at the end in their old order, and says which did not regain their place', async () => {
    const five = playlist('Five Songs');
    const [uriA, uriB, uriC, uriD, uriE] = five.uris;
    const { job } = await client.run({ account_id: h.spotifyAccount, action: 'remove_tracks', playlist_id: five.id, entries: [{ position: 1, uri: uriB }, { position: 3, uri: uriD }] });
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(playlist('Five Songs').uris).toEqual([uriA, uriC, uriE]);

    const undone = await undo(job.id);
    expect(undone).toMatchObject({ status: 'completed', action: 'restore_tracks', restore_order: 'appended' });
    // Exactly the removed entries came back, once each, in their old order at the end.
    expect(playlist('Five Songs').uris).toEqual([uriA, uriC, uriE, uriB, uriD]);
    const notes = undone.items[0]!.notes;
    expect(notes[0]).toMatch(/^Order not restored: Spotify can only add songs at the end of a playlist, so 2 entries are back but not where they were\./);
    expect(notes.slice(1)).toEqual([expect.stringMatching(/was at position 1, now at position 3 \(the end\)/), expect.stringMatching(/was at position 3, now at position 4 \(the end\)/)]);

    // The playlist is no longer the removal's result: a second undo is refused, nothing added.
    const twice = await h.api(`/api/organizer/jobs/${job.id}/undo`, { method: 'POST' });
    expect(twice.status).toBe(409);
    expect(playlist('Five Songs').uris).toEqual([uriA, uriC, uriE, uriB, uriD]);
  });

  it('says the order is intact when the removed entries were at the end anyway', async () => {
    const tail = playlist('Tail');
    const { job } = await client.run({ account_id: h.spotifyAccount, action: 'remove_tracks', playlist_id: tail.id, entries: [{ position: 2, uri: tail.uris[2] }] });
    expect(job.status).toBe('completed');
    const undone = await undo(job.id);
    expect(undone).toMatchObject({ status: 'completed', restore_order: 'appended' });
    expect(undone.items[0]!.notes).toEqual(['1 removed entry was added back at the end, which is where it was.']);
    expect(playlist('Tail').uris).toEqual(tail.uris);
  });

  it('lists the removal and its undo in the job list, each with its items', async () => {
    const list = await h.api('/api/organizer/jobs');
    expect(list.status).toBe(200);
    const jobs = (list.json as { jobs: (OrganizerJobJson & { undo_of: string | null })[] }).jobs;
    expect(jobs).toHaveLength(4);
    expect(jobs.map((job) => job.action).sort()).toEqual(['remove_tracks', 'remove_tracks', 'restore_tracks', 'restore_tracks']);
    for (const job of jobs) expect(job.items).toHaveLength(1);
    const undos = jobs.filter((job) => job.action === 'restore_tracks');
    expect(new Set(undos.map((job) => job.undo_of))).toEqual(new Set(jobs.filter((job) => job.action === 'remove_tracks').map((job) => job.id)));
  });
});
