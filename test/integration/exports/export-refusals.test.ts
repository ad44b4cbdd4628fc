import { mkdtemp, readdir, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Playlist } from '@opl/plugin-sdk';
import { exportManifestSchema, openPlaylistBundleSchema } from '@opl/plugin-sdk/schemas';
import { describe, expect, it, vi } from 'vitest';
import { temporaryStorageError } from '../../../core/services/exports/temporary-storage.ts';
import { LOCAL_OWNER_ID } from '../../../core/services/owner/owner.ts';
import { oplOutputs } from '../support/engine-process.ts';
import { importExportTestApp, playlist, track, type Problem } from './import-export-app.ts';

describe('POST /api/exports from import records: refusals, names, temporary files', () => {
  const ctx = importExportTestApp();
  const { sql, record, exportOf, tempEntries, eventuallyEmpty, unzip, roadTrip } = ctx;

  describe('refusals', () => {
    it('unknown import ⇒ 404, another owner’s import ⇒ 404, expired ⇒ 410', async () => {
      const missing = await exportOf({ source_provider: 'import', source_account_id: '00000000-0000-4000-8000-000000000000', format: 'csv' });
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['content-type']).toMatch(/application\/problem\+json/);
      expect((await exportOf({ source_provider: 'import', source_account_id: 'not-a-uuid', format: 'csv' })).statusCode).toBe(404);
      const theirs = (await ctx.t.app.services.imports.records.create({ ownerId: 'someone-else', kind: 'text', name: null, format: 'txt', playlists: [roadTrip()], issues: [] })).id;
      expect((await exportOf({ source_provider: 'import', source_account_id: theirs, format: 'csv' })).statusCode).toBe(404);
      const id = await record([roadTrip()]);
      await sql(`update import_record set expires_at = now() - interval '1 hour' where id = ?`, [id]);
      const expired = await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv' });
      expect(expired.statusCode).toBe(410);
      expect(expired.json<Problem>()).toMatchObject({ code: 'gone' });
    });

    it('filename* follows the Windows rules of filename and never splits a character', async () => {
      const con = await record([playlist('CON', [track('A')], { id: 'con' })]);
      const reserved = await exportOf({ source_provider: 'import', source_account_id: con, format: 'csv' });
      expect(reserved.statusCode, reserved.body).toBe(200);
      expect(reserved.headers['content-disposition']).toBe(`attachment; filename="_CON.csv"; filename*=UTF-8''_CON.csv`);
      // 149 characters, then an emoji (two UTF-16 units) across the 150-character cut.
      const long = `${'A'.repeat(149)}😀 tail`;
      const emoji = await record([playlist(long, [track('A')], { id: 'e' })]);
      const cut = await exportOf({ source_provider: 'import', source_account_id: emoji, format: 'csv' });
      expect(cut.statusCode, cut.body).toBe(200);
      const encoded = /filename\*=UTF-8''(.+)$/.exec(String(cut.headers['content-disposition']))![1]!;
      expect(decodeURIComponent(encoded)).toBe(`${'A'.repeat(149)}😀.csv`);
      await eventuallyEmpty();
    });

    it('a JSON body sent as text/plain ⇒ 415, not parsed', async () => {
      const id = await record([roadTrip()]);
      const response = await ctx.t.app.http!.inject({ method: 'POST', url: '/api/exports', headers: { 'content-type': 'text/plain' }, payload: JSON.stringify({ source_provider: 'import', source_account_id: id, format: 'csv' }) });
      expect(response.statusCode, response.body).toBe(415);
      expect(response.json<Problem>().code).toBe('unsupported_media_type');
    });

    it('unknown format ⇒ 422 listing the writable formats', async () => {
      const id = await record([roadTrip()]);
      const response = await exportOf({ source_provider: 'import', source_account_id: id, format: 'pls' });
      expect(response.statusCode).toBe(422);
      const problem = response.json<Problem>();
      expect(problem).toMatchObject({ code: 'unprocessable_content', reason: 'unknown_format' });
      expect(problem.writable_formats).toEqual(['csv', 'txt', 'm3u8', 'xspf', 'json']);
      expect(problem.detail).toContain('csv, txt, m3u8, xspf, json');
    });

    it('an account of another provider, or an unknown account ⇒ 422 unsupported_source / 404', async () => {
      const unknown = await exportOf({ source_provider: 'spotify', source_account_id: '00000000-0000-4000-8000-000000000001', format: 'csv' });
      expect(unknown.statusCode, unknown.body).toBe(404);
      expect((await exportOf({ source_provider: 'spotify', source_account_id: 'acc-1', format: 'csv' })).statusCode).toBe(404);
    });

    it('more playlists than OPL_EXPORT_MAX_PLAYLISTS (100) ⇒ 422 with the limit', async () => {
      const id = await record(Array.from({ length: 101 }, (_, index) => playlist(`P${index}`, [])));
      const response = await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv' });
      expect(response.statusCode).toBe(422);
      expect(response.json<Problem>()).toMatchObject({ reason: 'too_many_playlists', max_playlists: 100, playlist_count: 101 });
      const fine = await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv', selection: { playlist_ids: Array.from({ length: 100 }, (_, index) => String(index)) } });
      expect(fine.statusCode, fine.body).toBe(200);
      expect((await unzip(fine.rawPayload)).names).toHaveLength(101);
      await eventuallyEmpty();
    });

    it('invalid selections ⇒ 400 (shape) or 422 (not in the import)', async () => {
      const id = await record([playlist('Only', [track('A', { id: 't1' })], { id: 'only' })]);
      expect((await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv', selection: { playlist_ids: 'only' } })).statusCode).toBe(400);
      expect((await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv', selection: { playlist_ids: ['only'], extra: true } })).statusCode).toBe(400);
      expect((await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv', extra: true })).statusCode).toBe(400);
      expect((await exportOf({ source: { type: 'import', id }, format: 'csv' })).statusCode).toBe(400);
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ playlist_ids: ['0'] }, /no playlist "0".*"only"/],
        [{ playlist_ids: ['nope', 'only'] }, /no playlist "nope"/],
        [{ playlist_ids: ['only', 'only'] }, /"only" twice/],
        [{ playlist_ids: [] }, /empty/],
        [{ playlist_ids: ['only'], tracks: { only: ['pos:5'] } }, /no track "pos:5"/],
        [{ playlist_ids: [], tracks: { only: ['t1', 'zz'] } }, /no track "zz"/],
      ];
      for (const [selection, detail] of cases) {
        const response = await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv', selection });
        expect(response.statusCode, JSON.stringify(selection)).toBe(422);
        expect(response.json<Problem>().reason).toBe('invalid_selection');
        expect(response.json<Problem>().detail).toMatch(detail);
      }
    });

    it('a playlist whose id Object.prototype also has (constructor, toString) is exported whole, never a 500', async () => {
      const id = await record([playlist('Built', [track('A'), track('B')], { id: 'constructor' }), playlist('Text', [track('C')], { id: 'toString' })]);
      // `tracks` names another playlist only: these two carry no track selection of their own.
      const response = await exportOf({ source_provider: 'import', source_account_id: id, format: 'json', selection: { playlist_ids: ['constructor', 'toString'], tracks: { toString: ['pos:0'] } } });
      expect(response.statusCode, response.body).toBe(200);
      const { manifest } = await unzip(response.rawPayload);
      expect(exportManifestSchema.parse(manifest).entries.map((entry) => [entry.playlist_id, entry.track_count, entry.warning_codes])).toEqual([
        ['constructor', 2, []],
        ['toString', 1, []],
      ]);
      const single = await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv', selection: { playlist_ids: ['constructor'], tracks: {} } });
      expect(single.statusCode, single.body).toBe(200);
      expect(single.headers['x-open-playlist-warning-count']).toBe('0');
    });
  });

  describe('names from the source in file names and messages', () => {
    const unicodeFileName = (disposition: unknown) => decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(String(disposition))![1]!);

    it('filename* keeps no bidirectional override, C1 control or line separator (a name cannot disguise its file)', async () => {
      // U+202E shows "gnp.exe.csv" as "vsc.exe.png"; U+009B is the one-character CSI of C1.
      const spoof = await record([playlist('\u202egnp.exe', [track('A')], { id: 'spoof' })]);
      const spoofed = await exportOf({ source_provider: 'import', source_account_id: spoof, format: 'csv' });
      expect(spoofed.statusCode, spoofed.body).toBe(200);
      expect(unicodeFileName(spoofed.headers['content-disposition'])).toBe('gnp.exe.csv');
      const c1 = await record([playlist('\u009b31mRed\u0085x\u2028y\u2066z\u2069', [track('A')], { id: 'c1' })]);
      const controls = await exportOf({ source_provider: 'import', source_account_id: c1, format: 'csv' });
      expect(controls.statusCode, controls.body).toBe(200);
      expect(unicodeFileName(controls.headers['content-disposition'])).toBe('_31mRed_x_yz.csv');
      // An archive takes its name from the import record, by the same rules.
      const archive = await record([playlist('One', [track('A')]), playlist('Two', [track('B')])], 'Mix\u202e3pm.m3u8');
      const zipped = await exportOf({ source_provider: 'import', source_account_id: archive, format: 'csv' });
      expect(zipped.statusCode, zipped.body).toBe(200);
      expect(unicodeFileName(zipped.headers['content-disposition'])).toBe('Mix3pm.zip');
      await eventuallyEmpty();
    });

    it('an archive is named after its import record without a file extension, but keeps a dot that is none', async () => {
      const two = [playlist('A', [track('A')]), playlist('B', [track('B')])];
      // A record of posted Open Playlist JSON or pasted text is named after its first playlist.
      const posted = (await ctx.t.app.services.imports.records.create({ ownerId: LOCAL_OWNER_ID, kind: 'text', name: 'Now 2024.Vol2', format: 'json', playlists: two, issues: [] })).id;
      const named = await exportOf({ source_provider: 'import', source_account_id: posted, format: 'csv' });
      expect(named.statusCode, named.body).toBe(200);
      expect(named.headers['content-disposition']).toBe(`attachment; filename="Now 2024.Vol2.zip"; filename*=UTF-8''Now%202024.Vol2.zip`);
      const file = await record(two, 'Summer Mix.M3U8');
      const fromFile = await exportOf({ source_provider: 'import', source_account_id: file, format: 'csv' });
      expect(fromFile.headers['content-disposition']).toBe(`attachment; filename="Summer Mix.zip"; filename*=UTF-8''Summer%20Mix.zip`);
      await eventuallyEmpty();
    });

    it('messages and manifest entries cut a long name between characters, never inside one', async () => {
      // An emoji (two UTF-16 units) right across the 200-unit cut of warning messages.
      const long = `${'c'.repeat(199)}😀 and more`;
      const id = await record([playlist(long, [], { id: 'long' }), playlist('Other', [track('A')], { id: 'other' })]);
      const archive = await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv' });
      expect(archive.statusCode, archive.body).toBe(200);
      const manifest = exportManifestSchema.parse((await unzip(archive.rawPayload)).manifest);
      expect(manifest.warnings.map((warning) => warning.code)).toEqual(['empty_playlist']);
      expect(manifest.warnings[0]!.message.isWellFormed(), manifest.warnings[0]!.message).toBe(true);
      expect(manifest.warnings[0]!.message).toContain(`"${'c'.repeat(199)}"`);
      const single = await exportOf({ source_provider: 'import', source_account_id: id, format: 'json', selection: { playlist_ids: ['long'] } });
      expect(single.statusCode, single.body).toBe(200);
      const bundle = openPlaylistBundleSchema.parse(single.json());
      expect(bundle.warnings[0]!.message.isWellFormed(), bundle.warnings[0]!.message).toBe(true);
      // The same for a refusal's detail (80 units of the name there).
      const named = await record([playlist(`${'d'.repeat(79)}😀`, [track('A')], { id: 'named' })]);
      const refused = await exportOf({ source_provider: 'import', source_account_id: named, format: 'csv', selection: { playlist_ids: [], tracks: { named: ['nope'] } } });
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json<Problem>().detail.isWellFormed(), refused.json<Problem>().detail).toBe(true);
      // And for an id that is no id (cut at 100 units).
      const unknown = await exportOf({ source_provider: 'import', source_account_id: `${'e'.repeat(99)}😀`, format: 'csv' });
      expect(unknown.statusCode, unknown.body).toBe(404);
      expect(unknown.json<Problem>().detail.isWellFormed(), unknown.json<Problem>().detail).toBe(true);
      await eventuallyEmpty();
    });
  });

  it('opl export saves a playlist with a long or disguising name under a name a file system takes, extension kept', async () => {
    const port = (ctx.t.app.http!.server.address() as AddressInfo).port;
    const dir = await mkdtemp(join(ctx.scratch, 'cli-names-'));
    const opl = (args: string[]) => oplOutputs(['export', '--url', `http://127.0.0.1:${port}`, ...args], dir);
    // The engine's filename* holds up to 150 characters: 450 bytes of CJK, 600 of emoji; a file
    // name (and the CLI's `.<name>.<pid>.partial` beside it) has 255 bytes on Linux and macOS.
    const names: [string, string][] = [
      ['夜'.repeat(150), `${'夜'.repeat(65)}.csv`],
      ['😀'.repeat(150), `${'😀'.repeat(49)}.csv`],
      ['\u202egnp.exe', 'gnp.exe.csv'],
      ['\u009b31mRed', '_31mRed.csv'],
    ];
    for (const [name, expected] of names) {
      const id = await record([playlist(name, [track('A')], { id: 'p' })]);
      const result = await opl(['--source', `import:${id}`, '--format', 'csv', '-o', `${dir}/`]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trim()).toBe(join(dir, expected));
    }
    const files = await readdir(dir);
    expect(files.sort()).toEqual(names.map(([, expected]) => expected).sort());
    for (const file of files) expect(Buffer.byteLength(file), file).toBeLessThanOrEqual(200);
    await eventuallyEmpty();
  }, 120_000);

  it('the OpenAPI document gives the file downloads their real content types and headers (and the 413 / 415 refusals)', async () => {
    const doc = (await ctx.t.app.http!.inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }> }>> }>();
    const files = ['text/csv', 'text/plain', 'application/vnd.apple.mpegurl', 'application/xspf+xml', 'application/vnd.open-playlist+json', 'application/zip'];
    for (const path of ['/api/exports', '/api/exports/migrations/{job_id}', '/open-playlists/export/file']) {
      const responses = doc.paths[path]!['post']!.responses;
      expect(Object.keys(responses['200']!.content ?? {}).sort(), path).toEqual([...files].sort());
      // The download's headers are part of the contract a generated client reads.
      expect(Object.keys(responses['200']!.headers ?? {}), path).toEqual(['Content-Disposition', 'Content-Length', 'X-Open-Playlist-Schema-Version', 'X-Open-Playlist-Warning-Count', 'X-Open-Playlist-Warning-Codes']);
      expect(Object.keys(responses), path).toEqual(expect.arrayContaining(['413', '415']));
    }
  });

  it('a format whose plugin is quarantined ⇒ 503 format_unavailable saying so, and fine again once released', async () => {
    const formats = async () => {
      const answer = await ctx.t.app.http!.inject({ method: 'GET', url: '/api/exports/formats' });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<{ formats: { format: string; available: boolean }[]; max_playlists: number }>();
    };
    const everyFormat = ['csv', 'txt', 'm3u8', 'xspf', 'json'];
    expect(await formats()).toEqual({ formats: everyFormat.map((format) => ({ format, available: true })), max_playlists: ctx.t.app.services.config.exportMaxPlaylists });
    const id = await record([roadTrip()]);
    await ctx.t.app.services.plugins.catalogue.quarantine('opl.format.csv', 'test: broke its limits');
    try {
      // The list says so before anyone tries.
      expect((await formats()).formats).toEqual(everyFormat.map((format) => ({ format, available: format !== 'csv' })));
      const refused = await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv' });
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.json<Problem>()).toMatchObject({ code: 'service_unavailable', reason: 'format_unavailable' });
      expect(refused.json<Problem>().detail).toMatch(/refused or quarantined/);
      expect(refused.json<Problem>().writable_formats).toEqual(['txt', 'm3u8', 'xspf', 'json']);
    } finally {
      expect((await ctx.t.app.http!.inject({ method: 'POST', url: '/api/admin/plugins/opl.format.csv/release' })).statusCode).toBe(200);
    }
    expect((await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv' })).statusCode).toBe(200);
    expect((await formats()).formats.every((format) => format.available)).toBe(true);
    await eventuallyEmpty();
  });

  it('a full temporary filesystem ⇒ 503 temporary_storage_full saying the server\'s space is full (not the request\'s or the plugin\'s fault)', async () => {
    const id = await record([roadTrip()]);
    const full = temporaryStorageError(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' }));
    const exporting = vi.spyOn(ctx.t.app.services.exports, 'export').mockRejectedValueOnce(full);
    try {
      const response = await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv' });
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json<Problem>()).toMatchObject({ code: 'service_unavailable', reason: 'temporary_storage_full', errno: 'ENOSPC' });
      expect(response.json<Problem>().detail).toMatch(/^The server's temporary space is full/);
    } finally {
      exporting.mockRestore();
    }
  });

  describe('temporary files', () => {
    it('are private (0700 directory, 0600 files) and gone after a completed download', async () => {
      const id = await record([roadTrip(), playlist('Second', [track('X')])]);
      const response = await exportOf({ source_provider: 'import', source_account_id: id, format: 'txt' });
      expect(response.statusCode).toBe(200);
      expect((await stat(ctx.t.app.services.exports.temporaryDirectory)).mode & 0o777).toBe(0o700);
      await eventuallyEmpty();
      const artifact = await ctx.t.app.services.exports.export(LOCAL_OWNER_ID, { source_provider: 'import', source_account_id: id, format: 'csv' });
      expect((await stat(artifact.path)).mode & 0o777).toBe(0o600);
      expect(artifact.manifest?.playlist_count).toBe(2);
      await artifact.dispose();
      await artifact.dispose();
      expect(await tempEntries()).toEqual([]);
    });

    it('are removed when the client cancels the download mid-stream', async () => {
      const tracks = Array.from({ length: 40_000 }, (_, index) => track(`Track number ${index} with a fairly long title to make the file big`));
      const id = await record([playlist('Huge', tracks)]);
      let total = 0;
      const port = (ctx.t.app.http!.server.address() as AddressInfo).port;
      const received = await new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/exports', headers: { 'content-type': 'application/json' } }, (response) => {
          total = Number(response.headers['content-length']);
          let bytes = 0;
          response.once('data', (chunk: Buffer) => {
            bytes += chunk.length;
            req.destroy();
            resolve(response.statusCode === 200 ? bytes : -1);
          });
        });
        req.on('error', (error) => {
          if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
        });
        req.end(JSON.stringify({ source_provider: 'import', source_account_id: id, format: 'txt' }));
      });
      expect(received).toBeGreaterThan(0);
      expect(total).toBeGreaterThan(4 * 1024 * 1024);
      expect(received).toBeLessThan(total);
      await eventuallyEmpty();
    }, 60_000);

    it('are removed when the client disconnects while the file is still being built', async () => {
      const tracks = Array.from({ length: 40_000 }, (_, index) => track(`Track number ${index} with a fairly long title to make the file big`));
      const id = await record([playlist('Slow', tracks), playlist('Slow too', tracks)]);
      const port = (ctx.t.app.http!.server.address() as AddressInfo).port;
      let answered = false;
      await new Promise<void>((resolve) => {
        const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/exports', headers: { 'content-type': 'application/json' } }, () => {
          answered = true;
        });
        req.on('error', () => resolve());
        req.end(JSON.stringify({ source_provider: 'import', source_account_id: id, format: 'txt' }));
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 300);
      });
      expect(answered).toBe(false);
      // The build finishes in the background; then everything it wrote goes.
      await new Promise((resolve) => setTimeout(resolve, 500));
      // On a loaded machine the handler may even start after the client left, so "empty once" is not
      // enough: wait until the directory has stayed empty for three seconds in a row.
      const deadline = Date.now() + 120_000;
      let emptySince: number | null = null;
      while (Date.now() < deadline) {
        const empty = (await tempEntries()).length === 0;
        emptySince = empty ? (emptySince ?? Date.now()) : null;
        if (emptySince !== null && Date.now() - emptySince >= 3_000) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await tempEntries()).toEqual([]);
    }, 150_000);

    it('are removed when writing fails part-way (no partial archive left behind)', async () => {
      // The second playlist breaks the serialize contract (an unknown media type): the first is already written.
      const broken = { ...playlist('Broken', [track('B')]), tracks: [{ ...playlist('x', [track('B')]).tracks[0]!, media_type: 'hologram' }] } as unknown as Playlist;
      const id = await record([playlist('Fine', [track('A')]), broken]);
      const response = await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv' });
      expect(response.statusCode).toBe(422);
      expect(response.json<Problem>()).toMatchObject({ reason: 'write_failed' });
      expect(response.json<Problem>().detail).toContain('"Broken"');
      await eventuallyEmpty();
    });
  });
});
