import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import type { RecordedFakeRequest } from '../../fakes/fake-provider.ts';
import { startSyncHarness, type SyncHarness } from '../sync/sync-harness.ts';

/**
 * Recent imports as Library members through HTTP: an imported playlist is grouped with the
 * account's copy by the songs they share (by ISRC), its coverage counted like any member's, a diff
 * against it read from the import record, and never a provider request — an import is not
 * searched (resolving songs not compared yet is refused for it).
 */

const catalog = seedCatalog();
const songs = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && track.isrc !== null && isAvailableOn(track, 'spotify'));
const artistOf = (track: SeedTrack) => catalog.artists.get(track.artistKeys[0]!)?.name ?? 'Unknown';

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
    expect(view.imports).toEqual([expect.objectContaining({ import_id: importId, kind: 'file', playlists: 2 })]);

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

    const resolve = await withoutProviders(() => h.api('/api/library/diff/resolve', { method: 'POST', body: JSON.stringify({ a: imported.key, b: spotifyKey }) }));
    expect(resolve.status, resolve.text).toBe(422);
    const missing = await h.api(`/api/library/diff?a=${encodeURIComponent(`${importId}/nope`)}&b=${encodeURIComponent(spotifyKey)}`);
    expect(missing.status).toBe(404);
  });

  it('leaves an import out once it is gone', async () => {
    expect((await h.api(`/api/imports/${importId}`, { method: 'DELETE' })).status).toBe(204);
    const view = (await h.api('/api/library/workspace')).json as WorkspaceJson;
    expect(view.imports).toEqual([]);
    expect(view.groups.flatMap((group) => group.members).some((member) => member.provider === 'import')).toBe(false);
  });
});
