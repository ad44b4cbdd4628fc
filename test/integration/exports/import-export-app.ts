import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Playlist, PlaylistInput, TrackInput } from '@opl/plugin-sdk';
import { playlistSchema } from '@opl/plugin-sdk/schemas';
import { afterAll, beforeAll, expect } from 'vitest';
import { LOCAL_OWNER_ID } from '../../../core/services/owner/owner.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The engine the import-record export tests share: the real first-party format plugins in the
 * sandbox, a scratch directory, and the helpers that make records, ask for exports and open what
 * comes back. Call it at the top of a `describe`: it starts the engine before the tests and
 * stops it after them.
 */

export const run = promisify(execFile);

export const track = (title: string, extra: Partial<TrackInput> = {}): TrackInput => ({
  title,
  artist: 'Artist',
  provider_uris: { spotify: `spotify:track:${title.replace(/\W/g, '').padEnd(22, '0').slice(0, 22)}` },
  ...extra,
});
export const playlist = (name: string, tracks: TrackInput[], extra: Partial<PlaylistInput> = {}): Playlist => playlistSchema.parse({ name, tracks, ...extra });

export interface Problem {
  code: string;
  detail: string;
  reason?: string;
  writable_formats?: string[];
  max_playlists?: number;
}

export type ExportTestApp = ReturnType<typeof importExportTestApp>;

export function importExportTestApp() {
  let plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;
  let t: TestApp;
  let scratch: string;

  beforeAll(async () => {
    plugins = await firstPartyPlugins();
    t = await startTestApp({ ...plugins.env, OPL_SCHEMA_BASE_URL: 'https://engine.example.test/schemas' });
    scratch = await mkdtemp(join(tmpdir(), 'opl-export-test-'));
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await plugins?.remove();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  const sql = (text: string, values: unknown[] = []) => t.app.services.database.orm.em.getConnection().execute<Array<Record<string, unknown>>>(text, values);
  const record = async (playlists: Playlist[], name = 'Library.m3u8') =>
    (await t.app.services.imports.records.create({ ownerId: LOCAL_OWNER_ID, kind: 'file', name, format: 'm3u8', playlists, issues: [] })).id;
  const exportOf = (body: Record<string, unknown>) => t.app.http!.inject({ method: 'POST', url: '/api/exports', payload: body });
  const tempEntries = () =>
    readdir(t.app.services.exports.temporaryDirectory).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
  const eventuallyEmpty = async (attempts = 100) => {
    for (let attempt = 0; attempt < attempts && (await tempEntries()).length > 0; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await tempEntries()).toEqual([]);
  };
  const unzip = async (bytes: Buffer) => {
    const file = join(scratch, `archive-${Math.random().toString(36).slice(2)}.zip`);
    await writeFile(file, bytes);
    const tested = await run('unzip', ['-t', file]);
    const listed = await run('unzip', ['-Z1', file]);
    const manifest = await run('unzip', ['-p', file, 'manifest.json'], { maxBuffer: 64 * 1024 * 1024 });
    return { tested: tested.stdout, names: listed.stdout.trim().split('\n'), manifest: JSON.parse(manifest.stdout) as unknown, file };
  };

  const roadTrip = () =>
    playlist('Road Trip: Été ☀', [track('Alpha', { isrc: 'USRC17607839', duration_s: 201 }), track('Bravo'), track('=cmd|calc')], { id: 'pl-road' });

  return {
    get t(): TestApp {
      return t;
    },
    get plugins(): Awaited<ReturnType<typeof firstPartyPlugins>> {
      return plugins;
    },
    get scratch(): string {
      return scratch;
    },
    sql,
    record,
    exportOf,
    tempEntries,
    eventuallyEmpty,
    unzip,
    roadTrip,
  };
}
