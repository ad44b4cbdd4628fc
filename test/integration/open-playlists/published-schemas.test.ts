import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020, type ValidateFunction as Validator } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The JSON Schemas the engine serves at `{schema_base}/export/…` are checked with an independent
 * JSON Schema (draft 2020-12) validator against what the engine really writes: bundles and
 * manifests of live exports, and the interchange API's playlists. A schema that drifted from the
 * writers (or accepted anything) would let third-party tools trust documents the engine refuses.
 */

const run = promisify(execFile);
const SCHEMA_BASE = 'https://schemas.example.test/opl';

const bundle = {
  $schema: 'https://elsewhere.example/schemas/export/open-playlist-bundle-v1.json',
  schema_version: 1,
  source_provider: 'spotify',
  warnings: [],
  playlists: [
    {
      id: 'pl-1',
      name: 'Road Trip: Été ☀',
      description: 'for the car',
      created_at: '2024-01-02T03:04:05.123+02:00',
      tracks: [
        {
          title: 'One More Time',
          artist: 'Daft Punk',
          album: 'Discovery',
          duration_s: 320,
          isrc: 'GBDUW0000059',
          release_date: '2000-11-30',
          explicit: false,
          provider_uris: { spotify: 'spotify:track:0DiWol3AO6WpXZgp0goxAV' },
          added_at: '2023-05-06T07:08:09Z',
        },
        { title: 'An Episode', artist: 'A Podcast', media_type: 'episode' },
        { title: 'From Disk', artist: 'Me', is_local: true },
      ],
    },
    { id: 'pl-2', name: 'road trip: été ☀', tracks: [] },
    { id: 'pl-3', name: 'CON', tracks: [{ title: '=SUM(A1)', artist: '@me' }] },
  ],
};

describe('the published export schemas validate what the engine writes', () => {
  let plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;
  let t: TestApp;
  let scratch: string;
  let importId: string;
  const validators = new Map<string, Validator>();

  const served = async (path: string): Promise<Validator> => {
    const cached = validators.get(path);
    if (cached) return cached;
    const response = await t.app.http!.inject({ method: 'GET', url: `/schemas/${path}` });
    expect(response.statusCode, path).toBe(200);
    const schema = response.json<{ $id: string }>();
    expect(schema.$id).toBe(`${SCHEMA_BASE}/${path}`);
    // The patterns in the schemas pin the date-time shape; the format keyword is only annotated.
    const validator = new Ajv2020({ allErrors: true, strict: true, formats: { 'date-time': true } }).compile(schema);
    validators.set(path, validator);
    return validator;
  };
  const expectValid = (validator: Validator, document: unknown, what: string) => {
    const valid = validator(document);
    expect(valid ? [] : validator.errors, what).toEqual([]);
  };
  const exportOf = async (format: string, playlistIds?: string[]) => {
    const response = await t.app.http!.inject({
      method: 'POST',
      url: '/api/exports',
      payload: { source_provider: 'import', source_account_id: importId, format, ...(playlistIds ? { selection: { playlist_ids: playlistIds } } : {}) },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response;
  };
  const unzipEntry = async (bytes: Buffer, entry: string): Promise<unknown> => {
    const file = join(scratch, `archive-${Math.random().toString(36).slice(2)}.zip`);
    await writeFile(file, bytes);
    return JSON.parse((await run('unzip', ['-p', file, entry], { maxBuffer: 16 * 1024 * 1024 })).stdout) as unknown;
  };

  beforeAll(async () => {
    plugins = await firstPartyPlugins();
    t = await startTestApp({ ...plugins.env, OPL_SCHEMA_BASE_URL: SCHEMA_BASE });
    scratch = await mkdtemp(join(tmpdir(), 'opl-schema-test-'));
    const imported = await t.app.http!.inject({ method: 'POST', url: '/open-playlists/import', payload: { source_provider: 'open_playlist', provider_data: bundle } });
    expect(imported.statusCode, imported.body).toBe(201);
    importId = imported.headers['x-open-playlist-import-id'] as string;
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await plugins?.remove();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('a multi-playlist archive: its manifest.json against the export manifest v1 schema, in every format', { timeout: 120_000 }, async () => {
    const manifestSchema = await served('export/open-playlist-export-manifest-v1.json');
    for (const format of ['csv', 'txt', 'm3u8', 'xspf', 'json']) {
      const response = await exportOf(format);
      expect(response.headers['content-type']).toBe('application/zip');
      const manifest = (await unzipEntry(response.rawPayload, 'manifest.json')) as { $schema: string; entries: { warning_codes: string[] }[] };
      expectValid(manifestSchema, manifest, `${format} manifest`);
      expect(manifest.$schema).toBe(`${SCHEMA_BASE}/export/open-playlist-export-manifest-v1.json`);
      // The warnings the schema enumerates are really exercised, not just an empty list.
      expect(manifest.entries.flatMap((entry) => entry.warning_codes)).toEqual(expect.arrayContaining(['unsupported_items', 'empty_playlist']));
    }
  });

  it('JSON exports: the archive’s open-playlist-bundle.json and a single playlist’s bundle against the bundle v1 schema', { timeout: 120_000 }, async () => {
    const bundleSchema = await served('export/open-playlist-bundle-v1.json');
    const archived = (await unzipEntry((await exportOf('json')).rawPayload, 'open-playlist-bundle.json')) as { $schema: string; playlists: { tracks: unknown[] }[] };
    expectValid(bundleSchema, archived, 'archived bundle');
    expect(archived.$schema).toBe(`${SCHEMA_BASE}/export/open-playlist-bundle-v1.json`);
    expect(archived.playlists.map((playlist) => playlist.tracks.length)).toEqual([3, 0, 1]);
    for (const id of ['pl-1', 'pl-2']) {
      const single = await exportOf('json', [id]);
      expect(single.headers['content-type']).toBe('application/vnd.open-playlist+json');
      expectValid(bundleSchema, JSON.parse(single.rawPayload.toString('utf8')), `single bundle ${id}`);
    }
  });

  it('the interchange API’s playlists against the universal Playlist schema, but for the yaml’s kind words', { timeout: 60_000 }, async () => {
    const playlistSchema = await served('playlist.schema.json');
    for (const index of [0, 1, 2]) {
      const response = await t.app.http!.inject({ method: 'GET', url: `/open-playlists/import:${importId}:${index}` });
      expect(response.statusCode, response.body).toBe(200);
      // open-playlist.yaml says standard / liked_tracks where the model says PLAYLIST / LIKED_TRACKS (README).
      const playlist = response.json<Record<string, unknown>>();
      expect(['standard', 'liked_tracks']).toContain(playlist['kind']);
      expectValid(playlistSchema, { ...playlist, kind: playlist['kind'] === 'liked_tracks' ? 'LIKED_TRACKS' : 'PLAYLIST' }, `playlist ${index}`);
    }
  });

  it('and refuses documents that are not v1: another schema_version, unknown statuses and warning codes, wrong types', { timeout: 60_000 }, async () => {
    const bundleSchema = await served('export/open-playlist-bundle-v1.json');
    const manifestSchema = await served('export/open-playlist-export-manifest-v1.json');
    const real = JSON.parse((await exportOf('json', ['pl-1'])).rawPayload.toString('utf8')) as Record<string, unknown> & { playlists: Record<string, unknown>[] };
    const manifest = (await unzipEntry((await exportOf('csv')).rawPayload, 'manifest.json')) as Record<string, unknown> & { entries: Record<string, unknown>[] };
    const wrongBundles: Array<[string, unknown]> = [
      ['schema_version 2', { ...real, schema_version: 2 }],
      ['schema_version "1"', { ...real, schema_version: '1' }],
      ['no schema_version', Object.fromEntries(Object.entries(real).filter(([key]) => key !== 'schema_version'))],
      ['a $schema of another document', { ...real, $schema: `${SCHEMA_BASE}/export/open-playlist-export-manifest-v1.json` }],
      ['a track title that is a number', { ...real, playlists: [{ ...real.playlists[0], tracks: [{ ...(real.playlists[0]!['tracks'] as object[])[0], title: 5 }] }] }],
      ['playlists that is not an array', { ...real, playlists: {} }],
    ];
    for (const [what, document] of wrongBundles) expect(bundleSchema(document), what).toBe(false);
    const wrongManifests: Array<[string, unknown]> = [
      ['schema_version 2', { ...manifest, schema_version: 2 }],
      ['format wav', { ...manifest, format: 'wav' }],
      ['an unknown entry status', { ...manifest, entries: [{ ...manifest.entries[0], status: 'great' }] }],
      ['an ok entry with a warning code', { ...manifest, entries: [{ ...manifest.entries[0], status: 'ok', warning_codes: ['partial_selection'] }] }],
      ['a warning entry without one', { ...manifest, entries: [{ ...manifest.entries[0], status: 'warning', warning_codes: [] }] }],
      ['an error entry that names a file', { ...manifest, entries: [{ ...manifest.entries[0], status: 'error', filename: 'x.csv', warning_codes: ['playlist_read_failed'] }] }],
      ['the field names before the reference ones', { ...manifest, entries: manifest.entries.map(({ playlist_name, filename, ...entry }) => ({ ...entry, name: playlist_name, file: filename })) }],
      ['no source provider', { ...manifest, source_provider: null }],
      ['an unknown warning code', { ...manifest, entries: [{ ...manifest.entries[0], warning_codes: ['made_up'] }] }],
      ['a negative track count', { ...manifest, entries: [{ ...manifest.entries[0], track_count: -1 }] }],
      ['no entries', Object.fromEntries(Object.entries(manifest).filter(([key]) => key !== 'entries'))],
    ];
    for (const [what, document] of wrongManifests) expect(manifestSchema(document), what).toBe(false);
    // And the engine's reader agrees with the schema about the version.
    const refused = await t.app.http!.inject({ method: 'POST', url: '/open-playlists/import', payload: { source_provider: 'open_playlist', provider_data: { ...real, schema_version: 2 } } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ code: string }>().code).toBe('unsupported_schema_version');
  });
});
