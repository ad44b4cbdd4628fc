import type { PlaylistInput } from '@opl/plugin-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeedTrack } from '../../fakes/seed-catalog.ts';
import { big, bundle, catalog, keys, MAX_BYTES, MAX_TRACKS, onBoth, openApiProblems, small, type OpenPlaylistJson, type ProblemJson } from './open-playlists-kit.ts';
import { startMigrationHarness, type JobJson, type MigrationHarness } from '../migrations/migration-harness.ts';

/**
 * The Open Playlist interchange API end to end: Spotify (fake) and TIDAL (fake) accounts connected
 * through the real OAuth flow, provider plugins in the sandbox, migrations on a real worker.
 */

let h: MigrationHarness;
const finished = (job: JobJson) => ['completed', 'failed', 'cancelled'].includes(job.status);
const post = (path: string, body: unknown) => h.api(path, { method: 'POST', body: JSON.stringify(body) });

const { expectProblem } = openApiProblems((path) => h.api(path));
const READ = '/open-playlists/{id}';
const EXPORT = '/open-playlists/export';

beforeAll(async () => {
  h = await startMigrationHarness({
    spotifyLibrary: {
      playlists: [
        { name: 'Small Set', trackKeys: keys(small) },
        { name: 'Big Set', trackKeys: keys(big) },
      ],
      likedTrackKeys: keys(onBoth.slice(80, 83)),
    },
    tidalLibrary: { playlists: [{ name: 'Already There', trackKeys: keys(onBoth.slice(90, 92)) }] },
    env: { OPL_IMPORT_MAX_BYTES: String(MAX_BYTES), OPL_IMPORT_MAX_TRACKS: String(MAX_TRACKS) },
  });
}, 240_000);

afterAll(async () => {
  await h?.close();
});

describe('GET /open-playlists/{userId}', () => {
  it("lists every connected account's playlists for `me`, each id a reference that reads it whole", async () => {
    const { status, json } = await h.api('/open-playlists/me');
    expect(status).toBe(200);
    const list = json as OpenPlaylistJson[];
    const names = list.map((playlist) => playlist.name);
    expect(names).toEqual(expect.arrayContaining(['Small Set', 'Big Set', 'Already There']));
    const smallSet = list.find((playlist) => playlist.name === 'Small Set')!;
    expect(smallSet.id).toMatch(new RegExp(`^spotify:${h.spotifyAccount}:.+`));
    expect(smallSet.tracks).toEqual([]);
    expect(list.find((playlist) => playlist.name === 'Already There')!.id).toMatch(new RegExp(`^tidal:${h.tidalAccount}:`));
    // Liked songs of the account (Spotify reads the library) come first, as the `liked` collection.
    // open-playlist.yaml's words for the kind, not the bundle's PLAYLIST / LIKED_TRACKS.
    expect(new Set(list.map((playlist) => playlist.kind))).toEqual(new Set(['standard', 'liked_tracks']));
    const liked = list.find((playlist) => playlist.kind === 'liked_tracks')!;
    expect(liked.id).toBe(`spotify:${h.spotifyAccount}:liked`);

    const one = await h.api(`/open-playlists/${encodeURIComponent(smallSet.id)}`);
    expect(one.status).toBe(200);
    const playlist = one.json as OpenPlaylistJson;
    expect(playlist.id).toBe(smallSet.id);
    expect(playlist.tracks.map((track) => track.title)).toEqual(small.map((track) => track.title));
    expect(playlist.tracks[0]!.provider_uris['spotify']).toMatch(/^spotify:track:/);
    // The yaml's duration_s is an integer: Spotify's milliseconds are rounded to whole seconds here,
    // while the model behind it (the playlists API) keeps them.
    expect(playlist.tracks.map((track) => track.duration_s)).toEqual(small.map((track) => Math.round(track.durationMs / 1000)));
    const model = await h.api(`/api/playlists/${encodeURIComponent(smallSet.id.split(':').slice(2).join(':'))}?account_id=${h.spotifyAccount}`);
    expect(model.status, model.text).toBe(200);
    const modelDurations = (model.json as { playlist: { tracks: Array<{ duration_s: number }> } }).playlist.tracks.map((track) => track.duration_s);
    expect(modelDurations).toEqual(small.map((track) => track.durationMs / 1000));
    expect(modelDurations.some((seconds) => !Number.isInteger(seconds))).toBe(true);

    const likedRead = await h.api(`/open-playlists/${encodeURIComponent(liked.id)}`);
    expect((likedRead.json as OpenPlaylistJson).tracks).toHaveLength(3);
    // An account id spelled in upper case reads the same playlist, answered under the one id the list gives it.
    const shouted = await h.api(`/open-playlists/${encodeURIComponent(`spotify:${h.spotifyAccount.toUpperCase()}:liked`)}`);
    expect(shouted.status, shouted.text).toBe(200);
    expect((shouted.json as OpenPlaylistJson).id).toBe(liked.id);
  });

  it('resolves the owner on the server: its own id equals `me`, any other user id is not found', async () => {
    const me = await h.api('/open-playlists/me');
    const local = await h.api('/open-playlists/local');
    expect(local.status).toBe(200);
    expect(local.json).toEqual(me.json);
    const filtered = await h.api('/open-playlists/me?provider=tidal');
    // The yaml's spelling of a provider key narrows the list as the engine's does.
    expect((await h.api('/open-playlists/me?provider=youtube_music')).json).toEqual((await h.api('/open-playlists/me?provider=ytmusic')).json);
    expect((filtered.json as OpenPlaylistJson[]).filter((playlist) => playlist.kind !== 'liked_tracks').map((playlist) => playlist.name)).toEqual(['Already There']);
    // A provider no plugin provides is a mistake to name, not a provider without playlists.
    const misspelt = await h.api('/open-playlists/me?provider=spotfy');
    expect(misspelt.status, misspelt.text).toBe(400);
    expect(misspelt.json).toMatchObject({ reason: 'unknown_provider', providers: expect.arrayContaining(['spotify', 'tidal']) as unknown });
    expect((misspelt.json as { detail: string }).detail).toMatch(/No provider named "spotfy" is loaded on this instance; provider can be .*spotify/);
    for (const other of ['someone-else', 'admin', 'import', '..%2F..%2Fetc']) {
      const response = await h.api(`/open-playlists/${other}`);
      expect(response.status, other).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect((response.json as ProblemJson).code).toBe('not_found');
    }
  });

  it('refuses references to accounts, imports and playlists that are not the owner’s or do not exist', async () => {
    const unknownAccount = await expectProblem(await h.api(`/open-playlists/spotify:00000000-0000-4000-8000-000000000000:abc`), 'get', READ, 404, 'not_found');
    expect(unknownAccount.detail).toContain('no account with that id is connected');
    const missingPlaylist = await h.api(`/open-playlists/spotify:${h.spotifyAccount}:doesnotexist000000000`);
    await expectProblem(missingPlaylist, 'get', READ, 404, 'not_found');
    const unknownImport = await h.api(`/open-playlists/import:00000000-0000-4000-8000-000000000000:0`);
    await expectProblem(unknownImport, 'get', READ, 404, 'not_found');
    const badIndex = await h.api(`/open-playlists/import:00000000-0000-4000-8000-000000000000:01`);
    await expectProblem(badIndex, 'get', READ, 404, 'not_found');
  });

  it('answers a reference whose provider is not its account’s provider with a 404 that says so', async () => {
    for (const playlistId of ['liked', 'abc']) {
      const ref = `tidal:${h.spotifyAccount}:${playlistId}`;
      const problem = await expectProblem(await h.api(`/open-playlists/${encodeURIComponent(ref)}`), 'get', READ, 404, 'not_found');
      expect(problem.detail).toBe(`"${ref}" names no playlist: account ${h.spotifyAccount} is a spotify account, not tidal. Its playlists are referenced as spotify:${h.spotifyAccount}:<playlist id>.`);
      expect(problem.reason).toBe('account_provider_mismatch');
      expect(problem['account_provider']).toBe('spotify');
    }
    // The reference the detail points to reads.
    expect((await h.api(`/open-playlists/${encodeURIComponent(`spotify:${h.spotifyAccount}:liked`)}`)).status).toBe(200);
  });

  it('says which part of a malformed reference is wrong', async () => {
    const ACCOUNT = '00000000-0000-4000-8000-000000000000';
    const cases: [string, RegExp][] = [
      ['spotify:abc:def', /^"spotify:abc:def" names the spotify account "abc", which is not an account id \(account ids are UUIDs, as GET \/api\/auth\/accounts lists them\), so there is no such account\.$/],
      ['someone-else', /^"someone-else" is not this owner \(use `me`.*\) and not a playlist reference \(<provider>:<account id>:<playlist id> or import:<import id>:<index>\)\.$/],
      [`spotify:${ACCOUNT}`, /has two parts; a playlist reference has three/],
      [`Spotify:${ACCOUNT}:x`, /starts with "Spotify", which is not a provider key/],
      ['import:nope:0', /names the import "nope", which is not an import id \(import ids are UUIDs\), so there is no such import/],
      [`import:${ACCOUNT}:01`, /the index must be a whole number from 0, without leading zeros/],
    ];
    for (const [ref, message] of cases) {
      const problem = await expectProblem(await h.api(`/open-playlists/${encodeURIComponent(ref)}`), 'get', READ, 404, 'not_found');
      expect(problem.detail, ref).toMatch(message);
      expect(problem.reason, ref).toBeUndefined();
    }
    // A reference of the right form is never told it is not of that form.
    const wellFormed = await h.api(`/open-playlists/${encodeURIComponent('spotify:abc:def')}`);
    expect((wellFormed.json as ProblemJson).detail).not.toContain('is neither');
  });

  it('cuts a long reference in its detail between characters, never inside one', async () => {
    // An emoji (two UTF-16 units) right across the 120-unit cut of the quoted reference.
    const problem = await expectProblem(await h.api(`/open-playlists/${encodeURIComponent(`${'a'.repeat(119)}😀`)}`), 'get', READ, 404, 'not_found');
    expect(problem.detail.isWellFormed(), problem.detail).toBe(true);
    expect(problem.detail).toMatch(/^"a{119}" is not this owner/);
  });

  it('lists every error it answers in the OpenAPI document', async () => {
    await expectProblem(await h.api('/open-playlists/me?refresh=maybe'), 'get', READ, 400, 'validation_failed');
    await expectProblem(await h.api('/open-playlists/me?provider='), 'get', READ, 400, 'validation_failed');
  });

  it('leaves out an account whose connection turns out to be expired while listing, instead of failing the list', async () => {
    // The access token is refused, and again after the refresh: the engine marks the account for reconnection.
    h.spotify.failNext({ kind: 'expired_token', pathPrefix: '/v1/me/playlists', times: 2 });
    try {
      const { status, json, text } = await h.api('/open-playlists/me?refresh=true');
      expect(status, text).toBe(200);
      const ids = (json as OpenPlaylistJson[]).map((playlist) => playlist.id);
      expect(ids.some((id) => id.startsWith(`tidal:${h.tidalAccount}:`))).toBe(true);
      expect(ids.filter((id) => id.startsWith('spotify:'))).toEqual([]);
    } finally {
      await h.app.app.services.database.orm.em.getConnection().execute(`update provider_account set status = 'connected' where id = ?`, [h.spotifyAccount]);
    }
    expect(((await h.api('/open-playlists/me?refresh=true')).json as OpenPlaylistJson[]).some((playlist) => playlist.id.startsWith('spotify:'))).toBe(true);
  });
});

describe('POST /open-playlists/import', () => {
  it('stores a posted bundle as an import record and answers its first playlist with a reference that reads it again', async () => {
    const posted = bundle([
      {
        id: 'mine-1',
        name: 'Morning ☕ Mix',
        description: 'Ünïcode and "quotes"',
        tracks: [
          { title: 'Première', artist: 'Zoë', album: 'Été', isrc: 'FRZ011900001', duration_s: 201, provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' } },
          { title: 'Première', artist: 'Zoë' },
        ],
      },
      { name: 'Empty one', tracks: [] },
    ]);
    const response = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: posted });
    expect(response.status, response.text).toBe(201);
    const importId = response.headers.get('x-open-playlist-import-id')!;
    expect(response.headers.get('x-open-playlist-playlist-count')).toBe('2');
    const playlist = response.json as OpenPlaylistJson;
    expect(playlist.id).toBe(`import:${importId}:0`);
    expect(response.headers.get('location')).toBe(`/open-playlists/${encodeURIComponent(playlist.id)}`);
    expect(playlist.tracks.map((track) => [track.title, track.artist])).toEqual([
      ['Première', 'Zoë'],
      ['Première', 'Zoë'],
    ]);

    const again = await h.api(response.headers.get('location')!);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(playlist);
    const second = await h.api(`/open-playlists/import:${importId}:1`);
    expect((second.json as OpenPlaylistJson).name).toBe('Empty one');
    expect((await h.api(`/open-playlists/import:${importId}:2`)).status).toBe(404);
    // The same record the import API shows.
    const record = await h.api(`/api/imports/${importId}`);
    expect(record.status).toBe(200);
    expect((record.json as { playlist_count: number }).playlist_count).toBe(2);
  });

  it("takes the yaml's kind words and the model's, and answers in the yaml's", async () => {
    for (const [posted, stored] of [
      ['liked_tracks', 'LIKED_TRACKS'],
      ['standard', 'PLAYLIST'],
      ['LIKED_TRACKS', 'LIKED_TRACKS'],
    ] as const) {
      const single = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: { name: `Kind ${posted}`, kind: posted, tracks: [{ title: 'A', artist: 'B', duration_s: 200 }] } });
      expect(single.status, single.text).toBe(201);
      expect((single.json as OpenPlaylistJson).kind).toBe(stored === 'PLAYLIST' ? 'standard' : 'liked_tracks');
      const record = await h.api(`/api/imports/${single.headers.get('x-open-playlist-import-id')}`);
      expect((record.json as { playlists: Array<{ kind: string }> }).playlists[0]!.kind, posted).toBe(stored);
    }
    const inBundle = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: bundle([{ name: 'Liked', kind: 'liked_tracks', tracks: [] } as unknown as PlaylistInput]) });
    expect((inBundle.json as OpenPlaylistJson).kind).toBe('liked_tracks');
    const unknown = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: { name: 'X', kind: 'favourites', tracks: [] } });
    expect(unknown.status, unknown.text).toBe(400);
    // Refused in the words of the yaml a client knows, not only the bundle's.
    expect(unknown.json).toMatchObject({ reason: 'invalid_document', issues: [{ path: 'kind', message: expect.stringContaining('use "standard" or "liked_tracks"') as unknown }] });
    const unknownInBundle = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: bundle([{ name: 'Y', tracks: [] }, { name: 'Z', kind: 7, tracks: [] } as unknown as PlaylistInput]) });
    expect(unknownInBundle.status, unknownInBundle.text).toBe(400);
    expect((unknownInBundle.json as { detail: string }).detail).toMatch(/playlists\.1\.kind: 7 is not a playlist kind: use "standard" or "liked_tracks"/);
  });

  it('takes one universal Playlist as provider_data, and a snapshot of a connected account’s playlist', async () => {
    const single = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: { name: 'Just one', tracks: [{ title: 'A', artist: 'B' }] } });
    expect(single.status, single.text).toBe(201);
    expect((single.json as OpenPlaylistJson).tracks).toHaveLength(1);

    const list = (await h.api('/open-playlists/me?provider=spotify')).json as OpenPlaylistJson[];
    const smallRef = list.find((playlist) => playlist.name === 'Small Set')!.id;
    const playlistId = smallRef.split(':').slice(2).join(':');
    const snapshot = await post('/open-playlists/import', { source_provider: 'spotify', provider_data: { account_id: h.spotifyAccount, playlist_id: playlistId } });
    expect(snapshot.status, snapshot.text).toBe(201);
    expect((snapshot.json as OpenPlaylistJson).id).toMatch(/^import:/);
    expect((snapshot.json as OpenPlaylistJson).tracks.map((track) => track.title)).toEqual(small.map((track) => track.title));

    const mismatch = await post('/open-playlists/import', { source_provider: 'tidal', provider_data: { account_id: h.spotifyAccount, playlist_id: playlistId } });
    expect(mismatch.status).toBe(422);
    const malformed = await post('/open-playlists/import', { source_provider: 'spotify', provider_data: { account: 'x' } });
    expect(malformed.status).toBe(400);
    expect((malformed.json as ProblemJson).reason).toBe('invalid_document');
  });

  it('reads a bundle as leniently as the file importer: $schema, warnings, source_provider and schema_version may be left out', async () => {
    const bare = { playlists: [{ name: 'Bare', tracks: [{ title: 'Song One', artist: 'Artist One' }, { title: 'Song Two', artist: 'Artist Two', isrc: 'USRC17607839' }] }] };
    const asFile = async (document: unknown) => {
      const response = await h.api('/api/imports/preview?filename=bare.json', { method: 'POST', body: JSON.stringify(document), headers: { 'content-type': 'application/octet-stream' } });
      expect(response.status, response.text).toBe(201);
      return response.json as { playlists: { name: string; tracks: { title: string; artist: string; isrc: string | null }[] }[]; issues: { code: string; severity: string }[] };
    };
    const asInterchange = async (document: unknown) => {
      const response = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: document });
      expect(response.status, response.text).toBe(201);
      const record = await h.api(`/api/imports/${response.headers.get('x-open-playlist-import-id')!}`);
      return record.json as Awaited<ReturnType<typeof asFile>>;
    };
    const shape = (record: Awaited<ReturnType<typeof asFile>>) => ({
      playlists: record.playlists.map((playlist) => [playlist.name, playlist.tracks.map((track) => [track.title, track.artist, track.isrc])]),
      issues: record.issues.map((issue) => [issue.code, issue.severity]),
    });
    // No version at all: both read it as version 1 and say so.
    const file = shape(await asFile(bare));
    expect(file).toEqual({
      playlists: [['Bare', [['Song One', 'Artist One', null], ['Song Two', 'Artist Two', 'USRC17607839']]]],
      issues: [['missing_schema_version', 'warning']],
    });
    expect(shape(await asInterchange(bare))).toEqual(file);
    // schema_version alone, or the version in $schema alone: no warning.
    expect(shape(await asInterchange({ schema_version: 1, ...bare })).issues).toEqual([]);
    expect(shape(await asInterchange({ $schema: 'https://elsewhere.example/schemas/export/open-playlist-bundle-v1.json', ...bare })).issues).toEqual([]);
    // A version 2 named only by $schema is still refused, and an export manifest is named for what it is.
    const version2 = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: { $schema: 'https://open-playlist.org/schemas/export/open-playlist-bundle-v2.json', ...bare } });
    expect(version2.status).toBe(422);
    expect((version2.json as ProblemJson).code).toBe('unsupported_schema_version');
    const manifest = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: { $schema: 'https://open-playlist.org/schemas/export/open-playlist-export-manifest-v1.json', schema_version: 1, entries: [] } });
    expect(manifest.status).toBe(400);
    expect((manifest.json as ProblemJson).detail).toContain('manifest.json of an export archive');
  });

  it('refuses an unsupported schema_version, invalid documents and empty bundles with the reason', async () => {
    for (const version of [2, 0, '1', null]) {
      const response = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: bundle([{ name: 'x', tracks: [] }], { schema_version: version }) });
      expect(response.status, String(version)).toBe(422);
      const problem = response.json as ProblemJson;
      expect(problem.code).toBe('unsupported_schema_version');
      expect(problem['supported_schema_versions']).toEqual([1]);
    }
    const invalid = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: { ...bundle([]), playlists: [{ name: 'x', tracks: [{ title: 5 }] }] } });
    expect(invalid.status).toBe(400);
    const problem = invalid.json as ProblemJson & { issues: { path: string; message: string }[] };
    expect(problem.reason).toBe('invalid_document');
    expect(problem.issues.map((issue) => issue.path)).toEqual(expect.arrayContaining(['playlists.0.tracks.0.title', 'playlists.0.tracks.0.artist']));
    const empty = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: bundle([]) });
    expect(empty.status).toBe(422);
    expect((empty.json as ProblemJson).reason).toBe('no_playlists');
    const notAnObject = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: [1, 2] });
    expect(notAnObject.status).toBe(400);
    const extra = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: {}, user_id: 'someone' });
    expect(extra.status).toBe(400);
  });

  it('refuses hostile input: deeply nested JSON, oversized bodies, too many tracks, broken JSON', async () => {
    const deep = `${'{"next":'.repeat(5_000)}"bottom"${'}'.repeat(5_000)}`;
    const nested = await h.api('/open-playlists/import', { method: 'POST', body: `{"source_provider":"open_playlist","provider_data":{"name":"deep","tracks":[],"metadata":${deep}}}` });
    expect(nested.status).toBe(400);
    expect((nested.json as ProblemJson).reason).toBe('too_deep');

    const deepArray = `{"source_provider":"open_playlist","provider_data":{"name":"x","metadata":{"a":${'['.repeat(50_000)}${']'.repeat(50_000)}}}}`;
    const arrays = await h.api('/open-playlists/import', { method: 'POST', body: deepArray });
    expect([400, 413]).toContain(arrays.status);
    expect(arrays.headers.get('content-type')).toContain('application/problem+json');

    const huge = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: { name: 'huge', description: 'x'.repeat(MAX_BYTES), tracks: [] } });
    expect(huge.status).toBe(413);
    expect((huge.json as ProblemJson).code).toBe('payload_too_large');

    const many = await post('/open-playlists/import', {
      source_provider: 'open_playlist',
      provider_data: { name: 'many', tracks: Array.from({ length: MAX_TRACKS + 1 }, (_, index) => ({ title: `t${index}`, artist: 'a' })) },
    });
    expect(many.status).toBe(422);
    expect((many.json as ProblemJson).reason).toBe('too_many_tracks');

    const broken = await h.api('/open-playlists/import', { method: 'POST', body: '{"source_provider": "open_playlist", "provider_data": {' });
    expect(broken.status).toBe(400);
    // The engine is still fine.
    expect((await h.api('/open-playlists/me')).status).toBe(200);
  });
});

describe('POST /open-playlists/export', () => {
  it('pushes a provider playlist to the only connected target account as a migration job', async () => {
    const list = (await h.api('/open-playlists/me?provider=spotify')).json as OpenPlaylistJson[];
    const smallRef = list.find((playlist) => playlist.name === 'Small Set')!.id;
    const response = await post('/open-playlists/export', { playlist_id: smallRef, target_provider: 'tidal' });
    expect(response.status, response.text).toBe(202);
    const queued = response.json as { job_id: string; job_url: string; status: string; provider: string; target_account_id: string; tracks_matched: number };
    expect(queued).toMatchObject({ status: 'queued', provider: 'tidal', target_account_id: h.tidalAccount, tracks_matched: 0, job_url: `/api/migrations/${queued.job_id}` });
    const job = await h.waitForJob(queued.job_id, finished);
    expect(job.status).toBe('completed');
    const created = h.tidal.playlistsOf(h.tidalUser.userId).find((playlist) => playlist.name === 'Small Set');
    expect(created).toBeDefined();
    expect(h.tidal.playlistEntries(created!.id)).toHaveLength(small.length);
  });

  it('applies the migration preflight: a 60-track playlist needs the warnings acknowledged', async () => {
    const list = (await h.api('/open-playlists/me?provider=spotify')).json as OpenPlaylistJson[];
    const bigRef = list.find((playlist) => playlist.name === 'Big Set')!.id;
    const refused = await post('/open-playlists/export', { playlist_id: bigRef, target_provider: 'tidal' });
    const problem = (await expectProblem(refused, 'post', EXPORT, 409, 'migration_warnings')) as ProblemJson & { warnings: Record<string, unknown>[]; summary: Record<string, unknown> };
    expect(problem.summary).toMatchObject({ playlists: 1, tracks: 60 });
    // Warning fields are the message's parameters: strings, as the reference API and the OpenAPI
    // MigrationWarning schema say (numbers in decimal).
    expect(problem.warnings.find((warning) => warning['code'] === 'too_many_tracks')).toEqual({
      code: 'too_many_tracks',
      message: 'This migration moves 60 tracks; the safe default is 50 per job.',
      count: '60',
      limit: '50',
    });
    for (const warning of problem.warnings) {
      for (const [field, value] of Object.entries(warning)) expect(typeof value, `${String(warning['code'])}.${field}`).toBe('string');
      if (warning['code'] === 'jobs_too_close') expect(warning).toMatchObject({ seconds: expect.stringMatching(/^\d+$/) as unknown, limit: '120' });
    }
    const schema = ((await h.api('/openapi.json')).json as { components: { schemas: Record<string, { additionalProperties: unknown; description: string }> } }).components.schemas['MigrationWarning']!;
    expect(schema.additionalProperties).toEqual({ type: 'string' });
    expect(schema.description).toContain('parameters the message was written from');
  });

  it('pushes an imported playlist, and refuses unknown targets and references clearly', async () => {
    const imported = await post('/open-playlists/import', {
      source_provider: 'open_playlist',
      provider_data: bundle([{ name: 'From A File', tracks: small.slice(0, 2).map((track) => ({ title: track.title, artist: catalog.artists.get(track.artistKeys[0]!)!.name, isrc: track.isrc })) }]),
    });
    expect(imported.status).toBe(201);
    const ref = (imported.json as OpenPlaylistJson).id;
    const pushed = await post('/open-playlists/export', { playlist_id: ref, target_provider: 'tidal', target_account_id: h.tidalAccount, acknowledge_warnings: true });
    expect(pushed.status, pushed.text).toBe(202);
    const job = await h.waitForJob((pushed.json as { job_id: string }).job_id, finished);
    expect(job.status).toBe('completed');

    // The job consumed the import: the source is what is wrong, whatever the target.
    const consumed = await expectProblem(await post('/open-playlists/export', { playlist_id: ref, target_provider: 'deezer' }), 'post', EXPORT, 404, 'not_found');
    expect(consumed.detail).toMatch(/^No import [0-9a-f-]{36} exists for this owner\.$/);
    // Deezer is a loaded provider that can receive playlists, with no account connected.
    const again = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: { name: 'For Deezer', tracks: [{ title: 'A', artist: 'B' }] } });
    const noAccount = await expectProblem(await post('/open-playlists/export', { playlist_id: (again.json as OpenPlaylistJson).id, target_provider: 'deezer' }), 'post', EXPORT, 422, 'unprocessable_content');
    expect(noAccount.reason).toBe('no_target_account');
    expect(noAccount['action']).toEqual({ type: 'connect_target_account', provider: 'deezer' });
    const notARef = await expectProblem(await post('/open-playlists/export', { playlist_id: 'me', target_provider: 'tidal' }), 'post', EXPORT, 404, 'not_found');
    expect(notARef.detail).toMatch(/^"me" names the owner, not one playlist: use a playlist reference/);
    const garbage = await expectProblem(await post('/open-playlists/export', { playlist_id: 'spotify:not-a-uuid:1', target_provider: 'tidal' }), 'post', EXPORT, 404, 'not_found');
    expect(garbage.detail).toContain('"not-a-uuid", which is not an account id');
    await expectProblem(await post('/open-playlists/export', { playlist_id: ref }), 'post', EXPORT, 400, 'validation_failed');
    await expectProblem(await h.api('/open-playlists/export', { method: 'POST', body: '<x/>', headers: { 'content-type': 'application/xml' } }), 'post', EXPORT, 415, 'unsupported_media_type');
  });

  it('refuses a target provider that does not exist or is no provider, without asking to connect it', async () => {
    const imported = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: { name: 'Nowhere To Go', tracks: [{ title: 'A', artist: 'B' }] } });
    const ref = (imported.json as OpenPlaylistJson).id;
    for (const target of ['nosuch', 'import', 'open_playlist']) {
      const problem = await expectProblem(await post('/open-playlists/export', { playlist_id: ref, target_provider: target }), 'post', EXPORT, 422, 'unprocessable_content');
      expect(problem.reason, target).toBe('unknown_target_provider');
      expect(problem['action'], target).toBeUndefined();
      expect(problem.detail, target).not.toMatch(/connect/);
      expect(problem.detail, target).toMatch(target === 'nosuch' ? /^No provider named "nosuch" is loaded on this instance\. target_provider can be / : new RegExp(`^"${target}" is not a provider: import records and Open Playlist JSON can be exported from`));
      expect(problem['target_providers'], target).toEqual(expect.arrayContaining(['deezer', 'spotify', 'tidal']));
    }
    // Liked songs need a target that writes liked songs: TIDAL cannot, whatever its accounts.
    const liked = await expectProblem(await post('/open-playlists/export', { playlist_id: `spotify:${h.spotifyAccount}:liked`, target_provider: 'tidal' }), 'post', EXPORT, 422, 'unsupported_target_type');
    expect(liked).toMatchObject({ reason: 'target_cannot_receive', unsupported: [{ entity: 'liked_tracks', missing: ['WRITE_LIBRARY'] }] });
    expect(liked['action']).toBeUndefined();
  });

  it("takes the yaml's spelling of a target provider key (youtube_music is ytmusic)", async () => {
    const imported = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: { name: 'To YouTube Music', tracks: [{ title: 'A', artist: 'B' }] } });
    const ref = (imported.json as OpenPlaylistJson).id;
    // No YouTube Music account here: the provider is known, so the answer asks to connect one.
    const problem = await expectProblem(await post('/open-playlists/export', { playlist_id: ref, target_provider: 'youtube_music' }), 'post', EXPORT, 422, 'unprocessable_content');
    expect(problem.reason).toBe('no_target_account');
    expect(problem['action']).toMatchObject({ type: 'connect_target_account', provider: 'ytmusic' });
  });

  it('reports a bad source reference before a missing target account', async () => {
    const imported = await post('/open-playlists/import', { source_provider: 'open_playlist', provider_data: { name: 'One Only', tracks: [] } });
    const importId = imported.headers.get('x-open-playlist-import-id')!;
    // With a target account (TIDAL) and without one (Deezer), the same 404 about the source.
    for (const target of ['tidal', 'deezer', 'nosuch']) {
      const beyond = await expectProblem(await post('/open-playlists/export', { playlist_id: `import:${importId}:99`, target_provider: target }), 'post', EXPORT, 404, 'not_found');
      expect(beyond.detail, target).toBe(`Import ${importId} has 1 playlist(s); index 99 does not exist (indexes start at 0).`);
      const unknownImport = await expectProblem(await post('/open-playlists/export', { playlist_id: 'import:00000000-0000-4000-8000-000000000000:0', target_provider: target }), 'post', EXPORT, 404, 'not_found');
      expect(unknownImport.detail, target).toContain('No import 00000000-0000-4000-8000-000000000000');
      await expectProblem(await post('/open-playlists/export', { playlist_id: `spotify:${h.spotifyAccount}:doesnotexist000000000`, target_provider: target }), 'post', EXPORT, 404, 'not_found');
      const mismatch = await expectProblem(await post('/open-playlists/export', { playlist_id: `tidal:${h.spotifyAccount}:liked`, target_provider: target }), 'post', EXPORT, 404, 'not_found');
      expect(mismatch.reason, target).toBe('account_provider_mismatch');
    }
    // A target_account_id of another provider is a request whose two fields disagree: 422.
    const list = (await h.api('/open-playlists/me?provider=spotify')).json as OpenPlaylistJson[];
    const smallRef = list.find((playlist) => playlist.name === 'Small Set')!.id;
    const wrongTarget = await expectProblem(await post('/open-playlists/export', { playlist_id: smallRef, target_provider: 'tidal', target_account_id: h.spotifyAccount }), 'post', EXPORT, 422, 'unprocessable_content');
    expect(wrongTarget.reason).toBe('account_provider_mismatch');
  });
});

describe('POST /open-playlists/export of an import whose playlists share an id', () => {
  it('pushes the playlist the reference names by position, not another with the same id', async () => {
    const tracksOf = (tracks: readonly SeedTrack[]) => tracks.map((track) => ({ title: track.title, artist: catalog.artists.get(track.artistKeys[0]!)!.name, isrc: track.isrc }));
    // A successful job removes its import: each push gets a fresh copy of the same file.
    for (const [index, tag, count] of [
      [0, 'First', 2],
      [1, 'Second', 1],
    ] as const) {
      const imported = await post('/open-playlists/import', {
        source_provider: 'open_playlist',
        provider_data: bundle([
          { id: 'same', name: `Same ${tag} (first)`, tracks: tracksOf(small.slice(0, 2)) },
          { id: 'same', name: `Same ${tag} (second)`, tracks: tracksOf(small.slice(2, 3)) },
        ]),
      });
      expect(imported.status, imported.text).toBe(201);
      const importId = imported.headers.get('x-open-playlist-import-id')!;
      expect(((await h.api(`/api/imports/${importId}`)).json as { collection_ids: string[] }).collection_ids).toEqual(['same', 'same#1']);
      const pushed = await post('/open-playlists/export', { playlist_id: `import:${importId}:${index}`, target_provider: 'tidal', acknowledge_warnings: true });
      expect(pushed.status, pushed.text).toBe(202);
      const job = await h.waitForJob((pushed.json as { job_id: string }).job_id, finished);
      expect(job.status, JSON.stringify(job)).toBe('completed');
      const names = h.tidal.playlistsOf(h.tidalUser.userId).map((playlist) => playlist.name);
      const [wanted, other] = index === 0 ? ['(first)', '(second)'] : ['(second)', '(first)'];
      expect(names).toContain(`Same ${tag} ${wanted}`);
      expect(names).not.toContain(`Same ${tag} ${other}`);
      const created = h.tidal.playlistsOf(h.tidalUser.userId).find((playlist) => playlist.name === `Same ${tag} ${wanted}`)!;
      expect(h.tidal.playlistEntries(created.id)).toHaveLength(count);
    }
  });
});
