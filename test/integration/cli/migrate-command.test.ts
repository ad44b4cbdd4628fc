import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';
import { CLI, runOpl } from '../support/engine-process.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { GATE_OWNER_SECRET, SESSION_GATE_ENV, startTestApp } from '../support/test-app.ts';

/**
 * `opl migrate` as a user runs it: the real CLI in a child process against a real engine (HTTP +
 * worker, Spotify fake → TIDAL fake through the sandboxed plugins). Warnings refused without
 * --yes, a migration to completion with its progress lines (through a proxy that drops the event
 * stream once, so the CLI must resume with Last-Event-ID), review prompts answered on stdin, the
 * outcome exit codes, the history and the report.
 */

const catalog = seedCatalog();
const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const keys = (tracks: readonly SeedTrack[]) => tracks.map((track) => track.key);
const artistOf = (track: SeedTrack) => catalog.artists.get(track.artistKeys[0]!)!.name;

const small = onBoth.slice(0, 5);
const big = onBoth.slice(20, 80);
// Pasted lines whose titles lose their last two letters: the matcher suggests the right song but
// is not sure enough, so these wait for review. Exact lines match on their own.
const exact = onBoth.slice(100, 102);
const clipped = onBoth.slice(110, 113);
// Other songs for the second review: review decisions are remembered per source song.
const clippedLater = onBoth.slice(120, 123);
const clippedLine = (track: SeedTrack) => `${artistOf(track)} - ${track.title.slice(0, -2)}`;

let h: MigrationHarness;
let proxy: Server;
let proxyUrl = '';
let droppedStreams = 0;
let playlistIds: Record<string, string> = {};
let workDir = '';

interface CliRun {
  code: number | null;
  output: string;
}

/** The CLI with a stdin we control (runOpl's is closed): answers are written before the questions. */
async function opl(args: string[], input: string | null = null, url = h.baseUrl): Promise<CliRun> {
  if (input === null) {
    const run = runOpl(['migrate', '--url', url, ...args], {});
    const { code } = await run.exited;
    return { code, output: run.output() };
  }
  const child = spawn(process.execPath, ['--no-node-snapshot', CLI, 'migrate', '--url', url, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OPL_'))) });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdin.end(input);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, output };
}

function tidalEntries(name: string): string[] {
  const playlists = h.tidal.playlistsOf(h.tidalUser.userId).filter((candidate) => candidate.name === name);
  expect(playlists).toHaveLength(1);
  return (h.tidal.playlistEntries(playlists[0]!.id) ?? []).map((entry) => entry.id);
}

async function paste(name: string, lines: string[]): Promise<string> {
  const { status, json } = await h.api('/api/imports/text-preview', { method: 'POST', body: JSON.stringify({ text: lines.join('\n'), name }) });
  expect(status).toBe(201);
  return (json as { id: string }).id;
}

async function jobIds(): Promise<string[]> {
  return ((await h.api('/api/migrations?limit=200')).json as { id: string }[]).map((job) => job.id);
}

/**
 * A plain HTTP proxy in front of the engine that cuts the first event stream it carries after the
 * first events went through — a dropped connection in the middle of a migration.
 */
async function startDroppingProxy(target: string): Promise<Server> {
  const upstream = new URL(target);
  const server = createServer((request, response) => {
    const outgoing = httpRequest({ host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      const cut = request.url?.endsWith('/events') && droppedStreams === 0;
      let seen = '';
      answer.on('data', (chunk: Buffer) => {
        response.write(chunk);
        seen += chunk.toString();
        if (cut && droppedStreams === 0 && (seen.match(/\nevent: /g) ?? []).length >= 2) {
          droppedStreams++;
          answer.destroy();
          response.socket?.destroy();
        }
      });
      answer.on('end', () => response.end());
    });
    outgoing.on('error', () => response.destroy());
    // The client went away (the CLI exits once the job finished): close the upstream stream too.
    response.on('close', () => outgoing.destroy());
    request.pipe(outgoing);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  h = await startMigrationHarness({
    spotifyLibrary: { playlists: [{ name: 'Small Set', trackKeys: keys(small) }, { name: 'Big Set', trackKeys: keys(big) }] },
    tidalLibrary: {},
  });
  const { json } = await h.api(`/api/playlists?account_id=${h.spotifyAccount}`);
  playlistIds = Object.fromEntries((json as { playlists: { id: string; name: string }[] }).playlists.map((playlist) => [playlist.name, playlist.id]));
  proxy = await startDroppingProxy(h.baseUrl);
  const address = proxy.address();
  proxyUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  workDir = await mkdtemp(join(tmpdir(), 'opl-migrate-cli-'));
}, 300_000);

afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await h?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('opl migrate', () => {
  it('tells the old database form where it went, and refuses a half command', async () => {
    const old = await opl(['--db']);
    expect(old.code).toBe(64);
    expect(old.output).toMatch(/opl db migrate/);
    const half = await opl(['--from', h.spotifyAccount]);
    expect(half.code).toBe(64);
    expect(half.output).toMatch(/--to/);
  });

  it('applies database migrations under its new name, opl db migrate', async () => {
    const database = await createTestDatabase();
    try {
      const run = runOpl(['db', 'migrate'], { OPL_DATABASE_URL: database.url, OPL_DATA_DIR: workDir, OPL_LOG_LEVEL: 'info' });
      const { code } = await run.exited;
      expect(code, run.output()).toBe(0);
      expect(run.output()).toMatch(/database is up to date/);
    } finally {
      await database.drop();
    }
  });

  it('refuses to start when warnings are not acknowledged and stdin is not a terminal', async () => {
    const run = await opl(['--from', h.spotifyAccount, '--to', h.tidalAccount, '--playlist', playlistIds['Big Set']!]);
    expect(run.code, run.output).toBe(1);
    expect(run.output).toMatch(/too_many_tracks/);
    expect(run.output).toMatch(/Re-run with --yes/);
    expect(await jobIds()).toEqual([]);
    expect(h.tidal.playlistsOf(h.tidalUser.userId).filter((playlist) => playlist.name === 'Big Set')).toHaveLength(0);
  });

  it('migrates to completion with progress lines, resuming a dropped event stream, and exits 0', async () => {
    const run = await opl(['--from', h.spotifyAccount, '--to', h.tidalAccount, '--playlist', playlistIds['Small Set']!, '--yes'], null, proxyUrl);
    expect(run.code, run.output).toBe(0);
    expect(droppedStreams).toBe(1);
    expect(run.output).toMatch(/reconnecting/);
    expect(run.output).toMatch(/\[#{28}\] 100% 5\/5 · written 5 · skipped 0 · completed/);
    const [jobId] = await jobIds();
    expect(run.output).toContain(`Migration ${jobId} completed: 5 written, 0 skipped, 0 failed of 5.`);
    expect(tidalEntries('Small Set')).toEqual(keys(small).map((key) => h.tidal.trackId(key)));
  });

  it('lists the history and writes the report to a file', async () => {
    const [jobId] = await jobIds();
    const list = await opl(['--list']);
    expect(list.code).toBe(0);
    expect(list.output).toMatch(new RegExp(`${jobId}\\s+completed\\s+spotify → tidal\\s+5/5 written`));
    const out = join(workDir, 'report.json');
    const report = await opl(['--report', jobId!, '--format', 'json', '--out', out]);
    expect(report.code, report.output).toBe(0);
    const json = JSON.parse(await readFile(out, 'utf8')) as { report_version: number; items: { status: string }[] };
    expect(json.report_version).toBe(2);
    expect(json.items.map((item) => item.status)).toEqual(['written', 'written', 'written', 'written', 'written']);
    const csv = await opl(['--report', jobId!]);
    expect(csv.output.split('\r\n').filter(Boolean)).toHaveLength(6);
    expect((await opl(['--report', '00000000-0000-4000-8000-000000000000'])).code).toBe(1);
  });

  it('asks about each item waiting for review, posts the answers, and exits 0: a song skipped in review is the user\'s choice, not a loss', async () => {
    const importId = await paste('Pasted Review', [...exact.map((track) => `${artistOf(track)} - ${track.title}`), ...clipped.map(clippedLine)]);
    // Answers, in order: skip the first clipped song, pick candidate 1 for the second, approve the third.
    const run = await opl(['--from', `import:${importId}`, '--to', h.tidalAccount, '--playlist', '0', '--yes', '--interactive'], 's\n1\na\n');
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/3 items need your review/);
    for (const [index, track] of clipped.entries()) expect(run.output).toContain(`Review ${index + 1}/3: ${artistOf(track)} — ${track.title.slice(0, -2)}`);
    expect(run.output).toMatch(/1\. .+ score \d+% \(suggested\)/);
    expect(run.output).toMatch(/completed: 4 written, 1 skipped, 0 failed of 5/);
    expect(run.output).toMatch(/skipped: .+Skipped in review/);
    expect(tidalEntries('Pasted Review')).toEqual([...exact, ...clipped.slice(1)].map((track) => h.tidal.trackId(track.key)));
  });

  it('leaves review for later without a terminal (exit 3), then --follow reviews it; skipping every song is done as asked (exit 0)', async () => {
    const importId = await paste('Pasted Later', clippedLater.map(clippedLine));
    const first = await opl(['--from', `import:${importId}`, '--to', h.tidalAccount, '--playlist', '0', '--yes']);
    expect(first.code, first.output).toBe(3);
    const [jobId] = await jobIds();
    expect(first.output).toContain(`3 items wait for review; the migration continues once they are decided. Review them in a terminal with \`opl migrate --follow ${jobId}\``);
    expect(((await h.api(`/api/migrations/${jobId}`)).json as { status: string }).status).toBe('awaiting_review');
    // "S" skips all the rest in one batch call.
    const follow = await opl(['--follow', jobId!, '--interactive'], 'S\n');
    expect(follow.code, follow.output).toBe(0);
    expect(follow.output).toMatch(/Skipped 3 item\(s\)/);
    expect(follow.output).toContain(`Migration ${jobId} completed: 0 written, 3 skipped, 0 failed of 3.`);
  });

  it('logs in with OPL_OWNER_SECRET when the owner-session gate is on', async () => {
    const gated = await startTestApp(SESSION_GATE_ENV);
    try {
      const address = gated.app.http!.server.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const anonymous = runOpl(['migrate', '--url', url, '--list'], {});
      expect((await anonymous.exited).code).toBe(1);
      expect(anonymous.output()).toMatch(/requires an owner session: set OPL_OWNER_SECRET/);
      const wrong = runOpl(['migrate', '--url', url, '--list'], { OPL_OWNER_SECRET: 'not the secret' });
      expect((await wrong.exited).code).toBe(1);
      expect(wrong.output()).toMatch(/owner secret is not correct/);
      const owner = runOpl(['migrate', '--url', url, '--list'], { OPL_OWNER_SECRET: GATE_OWNER_SECRET });
      expect((await owner.exited).code, owner.output()).toBe(0);
      expect(owner.output()).toContain('No migrations yet.');
    } finally {
      await gated.close();
    }
  });

  it('stops with a clear message when the engine is not there', async () => {
    const run = await opl(['--list'], null, 'http://127.0.0.1:9');
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/Cannot reach the engine at http:\/\/127\.0\.0\.1:9/);
  });
});
