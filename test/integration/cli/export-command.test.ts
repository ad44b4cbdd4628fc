import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';
import { CLI, oplOutputs } from '../support/engine-process.ts';

/**
 * `opl export` as a user runs it: the real CLI in a child process against a real engine (Spotify
 * fake and TIDAL fake through the sandboxed plugins, real format plugins): single files and ZIP64
 * archives from an account, an import and a finished migration, warnings in words, file names from
 * Content-Disposition kept inside the chosen directory, no overwrite without --force, exit codes.
 */

const run = promisify(execFile);
const catalog = seedCatalog();
const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const keys = (tracks: readonly SeedTrack[]) => tracks.map((track) => track.key);
const small = onBoth.slice(0, 4);
const other = onBoth.slice(10, 13);

let h: MigrationHarness;
let work = '';
let playlistIds: Record<string, string> = {};

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `opl export …` in `cwd`, with no OPL_* variables. */
function opl(args: string[], cwd = work, url = h.baseUrl): Promise<CliRun> {
  return oplOutputs(['export', ...(url ? ['--url', url] : []), ...args], cwd);
}

async function freshDir(name: string): Promise<string> {
  const dir = join(work, name);
  await mkdir(dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  h = await startMigrationHarness({
    spotifyLibrary: {
      playlists: [
        { name: 'Small Set', trackKeys: keys(small) },
        { name: 'Other Set', trackKeys: keys(other) },
        { name: 'Nothing Here', trackKeys: [] },
      ],
    },
    tidalLibrary: {},
  });
  work = await mkdtemp(join(tmpdir(), 'opl-export-cli-'));
  const { json } = await h.api(`/api/playlists?account_id=${h.spotifyAccount}`);
  playlistIds = Object.fromEntries((json as { playlists: { id: string; name: string }[] }).playlists.map((playlist) => [playlist.name, playlist.id]));
}, 240_000);

afterAll(async () => {
  await h?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('opl export', () => {
  it('writes one playlist as a CSV file named by the engine into the -o directory', async () => {
    const dir = await freshDir('single');
    const result = await opl(['--source', `spotify:${h.spotifyAccount}`, '--playlist', playlistIds['Small Set']!, '--format', 'csv', '-o', `${dir}/`]);
    expect(result.code, result.stderr).toBe(0);
    expect(await readdir(dir)).toEqual(['Small Set.csv']);
    const csv = await readFile(join(dir, 'Small Set.csv'), 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.split('\n')[0]).toContain('"schema_version","playlist_id","playlist_name"');
    for (const track of small) expect(csv).toContain(track.title);
    expect(result.stdout.trim()).toBe(join(dir, 'Small Set.csv'));
    expect(result.stderr).toContain('No warnings.');
  });

  it('writes several playlists as a ZIP64 archive in the current directory and prints the manifest’s warnings in words', async () => {
    const dir = await freshDir('archive');
    const result = await opl(['--source', h.spotifyAccount, '--playlist', playlistIds['Small Set']!, '--playlist', playlistIds['Nothing Here']!, '--format', 'json'], dir);
    expect(result.code, result.stderr).toBe(0);
    const [name] = await readdir(dir);
    expect(name).toMatch(/\.zip$/);
    const tested = await run('unzip', ['-t', join(dir, name!)]);
    expect(tested.stdout).toContain('No errors detected');
    const listed = (await run('unzip', ['-Z1', join(dir, name!)])).stdout.trim().split('\n').sort();
    expect(listed).toEqual(['manifest.json', 'open-playlist-bundle.json']);
    expect(result.stderr).toContain('2 playlists, 4 tracks');
    expect(result.stderr).toMatch(/1 warning:\n {2}! "Nothing Here": .+ \[empty_playlist\]/);
  });

  it('names a playlist that could not be read among several (an error entry of the manifest)', async () => {
    const dir = await freshDir('unreadable');
    const result = await opl(['--source', h.spotifyAccount, '--playlist', playlistIds['Small Set']!, '--playlist', 'NoSuchPlaylist000000000', '--format', 'csv'], dir);
    expect(result.code, result.stderr).toBe(0);
    const [name] = await readdir(dir);
    const listed = (await run('unzip', ['-Z1', join(dir, name!)])).stdout.trim().split('\n').sort();
    expect(listed).toEqual(['Small Set.csv', 'manifest.json']);
    expect(result.stderr).toMatch(/2 playlists, 4 tracks; 1 could not be read: "[^"]+"\./);
    expect(result.stderr).toMatch(/1 warning:\n {2}! .+ \[playlist_read_failed\]/);
    expect(result.stderr).not.toContain('is not an export manifest v1');
  });

  it('exports a selection of tracks (partial_selection) and an import record as M3U8 to a named file', async () => {
    const dir = await freshDir('partial');
    const partial = await opl(['--source', `spotify:${h.spotifyAccount}`, '--tracks', `${playlistIds['Small Set']!}=pos:0,pos:2`, '--format', 'txt', '-o', join(dir, 'two.txt')]);
    expect(partial.code, partial.stderr).toBe(0);
    const txt = await readFile(join(dir, 'two.txt'), 'utf8');
    expect(txt).toContain(small[0]!.title);
    expect(txt).toContain(small[2]!.title);
    expect(txt).not.toContain(small[1]!.title);
    expect(partial.stderr).toContain('1 warning:\n  ! only the selected tracks were exported [partial_selection]');

    const pasted = await h.api('/api/imports/text-preview', { method: 'POST', body: JSON.stringify({ text: 'Artist One - Song One\nArtist Two - Song Two', name: 'Pasted' }) });
    expect(pasted.status).toBe(201);
    const importId = (pasted.json as { id: string }).id;
    const imported = await opl(['--source', `import:${importId}`, '--format', 'm3u8', '-o', join(dir, 'pasted.m3u8')]);
    expect(imported.code, imported.stderr).toBe(0);
    const m3u8 = await readFile(join(dir, 'pasted.m3u8'), 'utf8');
    expect(m3u8.startsWith('#EXTM3U')).toBe(true);
    expect(m3u8).toContain('Song Two');
  });

  it('exports a finished migration from its history', async () => {
    const created = await h.api('/api/migrations', {
      method: 'POST',
      body: JSON.stringify({ source_account_id: h.spotifyAccount, target_provider: 'tidal', target_account_id: h.tidalAccount, acknowledge_warnings: true, selection: { playlist_ids: [playlistIds['Other Set']!] } }),
    });
    expect(created.status, created.text).toBe(202);
    const jobId = (created.json as { id: string }).id;
    await h.waitForJob(jobId, (job) => ['completed', 'failed', 'cancelled'].includes(job.status));
    const dir = await freshDir('history');
    const result = await opl(['--migration', jobId, '--format', 'xspf', '-o', dir]);
    expect(result.code, result.stderr).toBe(0);
    const [name] = await readdir(dir);
    const xspf = await readFile(join(dir, name!), 'utf8');
    expect(xspf).toContain('<playlist');
    for (const track of other) expect(xspf).toContain(track.title);
  });

  it('never overwrites a file without --force, and leaves nothing behind when the engine refuses', async () => {
    const dir = await freshDir('overwrite');
    const target = join(dir, 'mine.csv');
    await writeFile(target, 'precious');
    const refused = await opl(['--source', `spotify:${h.spotifyAccount}`, '--playlist', playlistIds['Small Set']!, '--format', 'csv', '-o', target]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('already exists');
    expect(await readFile(target, 'utf8')).toBe('precious');
    const forced = await opl(['--source', `spotify:${h.spotifyAccount}`, '--playlist', playlistIds['Small Set']!, '--format', 'csv', '-o', target, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await readFile(target, 'utf8')).toContain(small[0]!.title);

    const missing = await opl(['--source', `spotify:${h.spotifyAccount}`, '--playlist', 'doesnotexist00000000000', '--format', 'csv', '-o', `${dir}/`]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/opl export: .+\((not_found|playlist_access_denied)\)/);
    const unknownAccount = await opl(['--source', '00000000-0000-4000-8000-000000000000', '--format', 'csv', '-o', `${dir}/`]);
    expect(unknownAccount.code).toBe(1);
    expect(unknownAccount.stderr).toContain('No connected account');
    expect(await readdir(dir)).toEqual(['mine.csv']);

    // An output directory that is not one says which way it is wrong.
    const args = ['--source', `spotify:${h.spotifyAccount}`, '--playlist', playlistIds['Small Set']!, '--format', 'csv'];
    const underFile = await opl([...args, '-o', join(target, 'x.csv')]);
    expect(underFile.code).toBe(1);
    expect(underFile.stderr).toContain(`The output directory ${target} is a file, not a directory.`);
    const deeper = await opl([...args, '-o', `${join(target, 'sub')}/`]);
    expect(deeper.code).toBe(1);
    expect(deeper.stderr).toContain('a part of its path is a file, not a directory');
    const absent = await opl([...args, '-o', join(dir, 'no-such-dir', 'x.csv')]);
    expect(absent.code).toBe(1);
    expect(absent.stderr).toContain(`The output directory ${join(dir, 'no-such-dir')} does not exist.`);
    expect(await readdir(dir)).toEqual(['mine.csv']);
  });

  it('refuses, before writing, an archive under a name without .zip and a single file named .zip', async () => {
    const dir = await freshDir('named');
    const all = await opl(['--source', `spotify:${h.spotifyAccount}`, '--format', 'csv', '-o', join(dir, 'all.csv')]);
    expect(all.code).toBe(1);
    expect(all.stderr).toContain(`all.csv does not end in .zip. Nothing was written: choose -o ${join(dir, 'all.zip')}, or -o ${dir}/`);
    const one = await opl(['--source', `spotify:${h.spotifyAccount}`, '--playlist', playlistIds['Small Set']!, '--format', 'csv', '-o', join(dir, 'one.zip')]);
    expect(one.code).toBe(1);
    expect(one.stderr).toContain(`one.zip ends in .zip. Nothing was written: choose -o ${join(dir, 'one.csv')}, or -o ${dir}/`);
    expect(await readdir(dir)).toEqual([]);
    const archive = await opl(['--source', `spotify:${h.spotifyAccount}`, '--format', 'csv', '-o', join(dir, 'all.zip')]);
    expect(archive.code, archive.stderr).toBe(0);
    expect((await run('unzip', ['-t', join(dir, 'all.zip')])).stdout).toContain('No errors detected');
  });

  it('answers usage errors with exit 64 and a sentence, and an unreachable engine with exit 1', async () => {
    const noFormat = await opl(['--source', `spotify:${h.spotifyAccount}`]);
    expect(noFormat.code).toBe(64);
    expect(noFormat.stderr).toContain('--format is required');
    const badSource = await opl(['--source', 'spotify', '--format', 'csv']);
    expect(badSource.code).toBe(64);
    const badTracks = await opl(['--source', `spotify:${h.spotifyAccount}`, '--tracks', 'nothing', '--format', 'csv']);
    expect(badTracks.code).toBe(64);
    const both = await opl(['--migration', '00000000-0000-4000-8000-000000000000', '--source', 'import:00000000-0000-4000-8000-000000000000', '--format', 'csv']);
    expect(both.code).toBe(64);
    const help = await opl(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('opl export --source');
    const unreachable = await opl(['--source', `spotify:${h.spotifyAccount}`, '--format', 'csv'], work, 'http://127.0.0.1:9');
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('Cannot reach the engine');
  });
});

describe('opl export against a hostile Content-Disposition', () => {
  let server: Server;
  let url = '';
  /** The `filename*` of the next downloads, in order. */
  const queue: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/api/me') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ owner_id: 'local', session: { required: false, authenticated: false } }));
        return;
      }
      const name = queue.shift() ?? 'x.csv';
      const body = '"schema_version"\n"1"\n';
      response.writeHead(200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        'content-disposition': `attachment; filename="x.csv"; filename*=UTF-8''${encodeURIComponent(name)}`,
        'x-open-playlist-warning-count': '0',
      });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('keeps every download inside the chosen directory under a safe name', async () => {
    const root = await freshDir('hostile');
    const dir = await freshDir('hostile/inside');
    const names = ['../../escaped.csv', '/etc/passwd', '..\\..\\win.csv', 'CON.csv', '\u0000\u0007.csv', '....'];
    queue.push(...names);
    const written: string[] = [];
    for (let index = 0; index < names.length; index += 1) {
      const result = await opl(['--source', 'import:00000000-0000-4000-8000-000000000000', '--format', 'csv', '-o', dir], work, url);
      expect(result.code, result.stderr).toBe(0);
      written.push(result.stdout.trim());
    }
    for (const path of written) expect(path.startsWith(`${dir}/`)).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(['_CON.csv', '__.csv', 'escaped.csv', 'opl-export.csv', 'passwd', 'win.csv'].sort());
    expect((await readdir(root)).sort()).toEqual(['inside']);
  });

  // Nor may a name disguise the file (a bidirectional override, a C1 control, a line separator) or
  // overflow a file name: at most 200 UTF-8 bytes, extension kept, so the download and its
  // `.<name>.<pid>.partial` beside it never fail with ENAMETOOLONG.
  it('saves names that would disguise the file or overflow a file name under plain names of at most 200 bytes', async () => {
    const dir = await freshDir('disguised');
    const cases: [sent: string, saved: string][] = [
      ['\u202egnp.exe.csv', 'gnp.exe.csv'],
      ['\u009b31mRed.csv', '_31mRed.csv'],
      ['a\u2028b\u0085c.csv', 'a_b_c.csv'],
      [`${'夜'.repeat(150)}.csv`, `${'夜'.repeat(65)}.csv`],
      [`${'😀'.repeat(150)}.csv`, `${'😀'.repeat(49)}.csv`],
      [`${'é'.repeat(99)}😀${'x'.repeat(50)}.m3u8`, `${'é'.repeat(97)}.m3u8`],
    ];
    queue.push(...cases.map(([sent]) => sent));
    for (const [sent, saved] of cases) {
      const result = await opl(['--source', 'import:00000000-0000-4000-8000-000000000000', '--format', 'csv', '-o', `${dir}/`], work, url);
      expect(result.code, `${JSON.stringify(sent)}: ${result.stderr}`).toBe(0);
      // Printed as written: nothing in the path can drive the terminal.
      expect(result.stdout, JSON.stringify(sent)).toBe(`${join(dir, saved)}\n`);
    }
    const files = await readdir(dir);
    expect(files.sort()).toEqual(cases.map(([, saved]) => saved).sort());
    for (const file of files) expect(Buffer.byteLength(file), file).toBeLessThanOrEqual(200);
  });
});

describe('opl export interrupted by Ctrl-C', () => {
  let server: Server;
  let url = '';

  beforeAll(async () => {
    // An engine that sends the head of a large file and then nothing more: the download stays open.
    server = createServer((request, response) => {
      if (request.url === '/api/me') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ owner_id: 'local', session: { required: false, authenticated: false } }));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-length': String(10_000_000), 'content-disposition': 'attachment; filename="big.csv"', 'x-open-playlist-warning-count': '0' });
      response.write('"schema_version"\n'.repeat(1_000));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('removes the partial file and exits 130 when Ctrl-C arrives twice (from the terminal and through the launcher)', async () => {
    const dir = await freshDir('interrupted');
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OPL_')));
    const child = spawn(process.execPath, ['--no-node-snapshot', CLI, 'export', '--url', url, '--source', 'import:00000000-0000-4000-8000-000000000000', '--format', 'csv', '-o', dir], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    const deadline = Date.now() + 30_000;
    while ((await readdir(dir)).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await readdir(dir)).toHaveLength(1);
    child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 1));
    child.kill('SIGINT');
    expect(await exited, stderr).toEqual({ code: 130, signal: null });
    expect(stderr).toContain('interrupted; nothing was written');
    expect(await readdir(dir)).toEqual([]);
  });
});
