import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import type { RecordedFakeRequest } from '../../fakes/fake-provider.ts';
import { startSyncHarness, type SyncHarness } from '../sync/sync-harness.ts';

/**
 * Recent imports as Library members through HTTP: an imported playlist is grouped with the
 * account's copy by the songs they share (by ISRC), its coverage counted like any member's, a diff
 * against it read from the import record with no provider request. Its songs without an ISRC are
 * resolved on the compared account's provider (searches counted on the fake), each match
 * remembered for the import — the next diff compares them with no request — owner-scoped and gone
 * with the import.
 */

const catalog = seedCatalog();
const songs = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && track.isrc !== null && isAvailableOn(track, 'spotify'));
const artistOf = (track: SeedTrack) => catalog.artists.get(track.artistKeys[0]!)?.name ?? 'Unknown';
/** A song as a plain list has it: no ISRC, no link — only a search can tell which recording it is. */
const withoutCode = (track: SeedTrack) => ({ title: track.title, artist: artistOf(track), album: catalog.albums.get(track.albumKey)?.title ?? null, duration_s: Math.round(track.durationMs / 1000) });

interface MemberJson {
  key: string;
  provider: string;
  account_id: string;
  name: string;
  tracks_read: boolean;
  holds: number;
  missing: number;
  unknown: number;
}
interface WorkspaceJson {
  imports: { import_id: string; kind: string; label: string | null; playlists: number }[];
  groups: { id: string; songs: number; members: MemberJson[]; reasons: { kind: string }[] }[];
}

interface DiffTrackJson {
  title: string;
}
interface ImportDiffJson {
  both: { a: DiffTrackJson; b: DiffTrackJson }[];
  only_b: DiffTrackJson[];
  not_compared: { a: DiffTrackJson[]; b: DiffTrackJson[] };
  searches_needed: number;
}

let h: SyncHarness;
let importId = '';

beforeAll(async () => {
  h = await startSyncHarness({ spotifyLibrary: { playlists: [{ name: 'Evening Set', trackKeys: songs.slice(0, 6).map((track) => track.key) }] } });
  const bundle = JSON.stringify({
    $schema: 'https://open-playlist.org/schemas/export/open-playlist-bundle-v1.json',
    schema_version: 1,
    source_provider: null,
    playlists: [
      // Five of the six songs, and one the account does not have: the same playlist by its songs.
      { name: 'My Evening Export', tracks: [...songs.slice(0, 5), songs[20]!].map((track) => ({ title: track.title, artist: artistOf(track), isrc: track.isrc })) },
      // No ISRC: nothing to compare it by without a search.
      { name: 'Scribbled List', tracks: [{ title: 'Unknown Song', artist: 'Someone' }] },
      // Two of the account's songs without their codes, the first one twice (one search settles both).
      { name: 'Noted Down', tracks: [withoutCode(songs[0]!), withoutCode(songs[1]!), withoutCode(songs[0]!)] },
    ],
  });
  const imported = await h.api(`/api/imports/preview?filename=${encodeURIComponent('Evening.json')}`, { method: 'POST', body: bundle });
  expect(imported.status, imported.text).toBe(201);
  importId = (imported.json as { id: string }).id;
  const refreshed = await h.api(`/api/library/accounts/${h.spotifyAccount}/refresh`, { method: 'POST', body: JSON.stringify({ full: false }) });
  expect(refreshed.status, refreshed.text).toBe(200);
}, 300_000);

afterAll(async () => {
  await h?.close();
});

async function withoutProviders<T>(work: () => Promise<T>): Promise<T> {
  const spotifyFrom = h.spotify.requests.length;
  const tidalFrom = h.tidal.requests.length;
  const result = await work();
  const requests: RecordedFakeRequest[] = [...h.spotify.requests.slice(spotifyFrom), ...h.tidal.requests.slice(tidalFrom)];
  expect(requests).toEqual([]);
  return result;
}

describe('recent imports in the workspace', () => {
  it('groups an imported playlist with the account copy sharing its songs, with coverage, and no provider request', async () => {
    const response = await withoutProviders(() => h.api('/api/library/workspace'));
    expect(response.status, response.text).toBe(200);
    const view = response.json as WorkspaceJson;
    expect(view.imports).toEqual([expect.objectContaining({ import_id: importId, kind: 'file', playlists: 3 })]);

    const spotifyKey = `${h.spotifyAccount}/${h.spotifyPlaylistId('Evening Set')}`;
    const group = view.groups.find((candidate) => candidate.members.some((member) => member.key === spotifyKey))!;
    const imported = group.members.find((member) => member.provider === 'import');
    expect(imported).toMatchObject({ account_id: importId, name: 'My Evening Export', tracks_read: true, holds: 6, missing: 1, unknown: 0 });
    expect(group.members.find((member) => member.key === spotifyKey)).toMatchObject({ holds: 6, missing: 1 });
    expect(group.songs).toBe(7);
    expect(group.reasons.map((reason) => reason.kind)).toEqual(['track_overlap']);

    const scribbled = view.groups.flatMap((candidate) => candidate.members).find((member) => member.name === 'Scribbled List')!;
    expect(scribbled).toMatchObject({ provider: 'import', holds: 0, unknown: 1 });
  });

  it('compares an import with an account playlist from the record, and refuses to search on an import', async () => {
    const view = (await h.api('/api/library/workspace')).json as WorkspaceJson;
    const imported = view.groups.flatMap((group) => group.members).find((member) => member.name === 'My Evening Export')!;
    const spotifyKey = `${h.spotifyAccount}/${h.spotifyPlaylistId('Evening Set')}`;
    const diff = await withoutProviders(() => h.api(`/api/library/diff?a=${encodeURIComponent(imported.key)}&b=${encodeURIComponent(spotifyKey)}`));
    expect(diff.status, diff.text).toBe(200);
    const body = diff.json as { a: { provider: string }; only_a: { title: string }[]; only_b: { title: string }[]; both: unknown[]; searches_needed: number };
    expect(body.a.provider).toBe('import');
    expect(body.only_a.map((track) => track.title)).toEqual([songs[20]!.title]);
    expect(body.only_b.map((track) => track.title)).toEqual([songs[5]!.title]);
    expect(body.both).toHaveLength(5);
    expect(body.searches_needed).toBe(0);

    // Nothing to resolve: no search. Two imports cannot be searched at all.
    const resolve = await withoutProviders(() => h.api('/api/library/diff/resolve', { method: 'POST', body: JSON.stringify({ a: imported.key, b: spotifyKey }) }));
    expect(resolve.status, resolve.text).toBe(200);
    expect(resolve.json).toMatchObject({ searches: 0, resolved: 0, remaining: 0, stopped: null });
    const scribbled = view.groups.flatMap((group) => group.members).find((member) => member.name === 'Scribbled List')!;
    const twoImports = await withoutProviders(() => h.api('/api/library/diff/resolve', { method: 'POST', body: JSON.stringify({ a: imported.key, b: scribbled.key }) }));
    expect(twoImports.status, twoImports.text).toBe(422);
    const missing = await h.api(`/api/library/diff?a=${encodeURIComponent(`${importId}/nope`)}&b=${encodeURIComponent(spotifyKey)}`);
    expect(missing.status).toBe(404);
  });

  it("resolves an import's songs not compared yet on the account's provider, and remembers them for the next diff", async () => {
    const view = (await h.api('/api/library/workspace')).json as WorkspaceJson;
    const noted = view.groups.flatMap((group) => group.members).find((member) => member.name === 'Noted Down')!;
    const spotifyKey = `${h.spotifyAccount}/${h.spotifyPlaylistId('Evening Set')}`;
    const diffUrl = `/api/library/diff?a=${encodeURIComponent(noted.key)}&b=${encodeURIComponent(spotifyKey)}`;
    const before = (await withoutProviders(() => h.api(diffUrl))).json as ImportDiffJson;
    expect(before.not_compared.a).toHaveLength(3);
    expect(before.both).toEqual([]);
    // The count shown first: one search per distinct song of the import (the repeated one once).
    expect(before.searches_needed).toBe(2);

    const spotifyFrom = h.spotify.requests.length;
    const tidalFrom = h.tidal.requests.length;
    const resolved = await h.api('/api/library/diff/resolve', { method: 'POST', body: JSON.stringify({ a: noted.key, b: spotifyKey }) });
    expect(resolved.status, resolved.text).toBe(200);
    const answer = resolved.json as { searches: number; resolved: number; unmatched: number; remaining: number; stopped: unknown; diff: ImportDiffJson };
    const searched = h.spotify.requests.slice(spotifyFrom).filter((request) => /search/i.test(request.path));
    expect(h.tidal.requests.slice(tidalFrom)).toEqual([]);
    // Only the unknown songs were searched, as many times as reported and announced.
    expect(searched).toHaveLength(2);
    expect(answer).toMatchObject({ searches: 2, resolved: 2, unmatched: 0, remaining: 0, stopped: null });
    expect(answer.diff.not_compared).toEqual({ a: [], b: [] });
    expect(answer.diff.both.map((pair) => pair.b.title).sort()).toEqual([songs[0]!.title, songs[1]!.title].sort());
    expect(answer.diff.searches_needed).toBe(0);

    // The next diff compares them from what was remembered: no provider request at all.
    const after = (await withoutProviders(() => h.api(diffUrl))).json as ImportDiffJson;
    expect(after.not_compared).toEqual({ a: [], b: [] });
    expect(after.both.map((pair) => pair.a.title).sort()).toEqual([songs[0]!.title, songs[1]!.title].sort());
    expect(after.only_b).toHaveLength(4);
    expect(after.searches_needed).toBe(0);
    const again = await withoutProviders(() => h.api('/api/library/diff/resolve', { method: 'POST', body: JSON.stringify({ a: noted.key, b: spotifyKey }) }));
    expect(again.json).toMatchObject({ searches: 0, resolved: 0 });

    // Another owner sees neither the import nor its matches.
    const owner = await ownerOf(h.spotifyAccount);
    const rows = await h.app.app.services.migrations.store.execute({ text: 'select owner_id, provider from library_import_match where import_record_id = ?', values: [importId] });
    expect(rows).toEqual([
      { owner_id: owner, provider: 'spotify' },
      { owner_id: owner, provider: 'spotify' },
    ]);
    const workspace = h.app.app.services.workspace;
    await expect(workspace.diff('someone-else', noted.key, spotifyKey)).rejects.toMatchObject({ code: 'not_found' });
    await expect(workspace.resolve('someone-else', noted.key, spotifyKey)).rejects.toMatchObject({ code: 'not_found' });
  }, 120_000);

  it('leaves an import out once it is gone', async () => {
    expect((await h.api(`/api/imports/${importId}`, { method: 'DELETE' })).status).toBe(204);
    const view = (await h.api('/api/library/workspace')).json as WorkspaceJson;
    expect(view.imports).toEqual([]);
    expect(view.groups.flatMap((group) => group.members).some((member) => member.provider === 'import')).toBe(false);
    // Its remembered matches went with it.
    expect(await h.app.app.services.migrations.store.execute({ text: 'select 1 from library_import_match where import_record_id = ?', values: [importId] })).toEqual([]);
  });
});

async function ownerOf(accountId: string): Promise<string> {
  const [row] = await h.app.app.services.migrations.store.execute({ text: 'select owner_id from provider_account where id = ?', values: [accountId] });
  return String(row!['owner_id']);
}
