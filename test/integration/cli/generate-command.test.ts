import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeChatModel, type FakeChatModel } from '../../fakes/chat-model/index.ts';
import { seedCatalog } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';
import { CLI, runOpl } from '../support/engine-process.ts';

/**
 * `opl generate` as a user runs it: the real CLI in a child process against a real engine whose
 * generator talks to the fake model, resolving songs on the connected TIDAL account; then
 * `--confirm` starts the migration that writes them, and confirming again changes nothing.
 */

let h: MigrationHarness;
let model: FakeChatModel;

beforeAll(async () => {
  model = await startFakeChatModel();
  h = await startMigrationHarness({ spotifyLibrary: { playlists: [{ name: 'Kept Songs', trackKeys: libraryTracks.map((track) => track.key) }] }, tidalLibrary: {}, env: { OPL_GENERATOR_URL: model.url, OPL_GENERATOR_MODEL: 'fake-model' } });
}, 300_000);

const libraryTracks = [...seedCatalog().tracks.values()].filter((track) => track.mediaType === 'track' && !track.explicit && (!track.availableOn || track.availableOn.includes('spotify'))).slice(0, 5);

afterAll(async () => {
  await h?.close();
  await model?.close();
});

async function opl(args: string[], input: string | null = null): Promise<{ code: number | null; output: string }> {
  if (input === null) {
    const run = runOpl(['generate', ...args], {});
    const { code } = await run.exited;
    return { code, output: run.output() };
  }
  const child = spawn(process.execPath, ['--no-node-snapshot', CLI, 'generate', ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OPL_'))) });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdin.end(input);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, output };
}

describe('opl generate', () => {
  // First, while nothing is read yet: a migration of a later test (the one from standard input is
  // not awaited) reads the target account's playlists, and what it reads becomes library songs.
  it('--from-library: chooses only among songs the engine has read from your accounts, and says so when there are none', async () => {
    const empty = await opl(['calm', '--to', 'spotify', '--from-library', '--url', h.baseUrl]);
    expect(empty.code, empty.output).toBe(1);
    expect(empty.output).toContain('Your library has no song to choose from');
    const { json } = await h.api(`/api/playlists?account_id=${h.spotifyAccount}`);
    const playlist = (json as { playlists: { id: string; name: string }[] }).playlists.find((entry) => entry.name === 'Kept Songs')!;
    expect((await h.api(`/api/playlists/${encodeURIComponent(playlist.id)}?account_id=${h.spotifyAccount}`)).status).toBe(200);
    const made = await opl(['calm', '--to', 'spotify', '--from-library', '--seed', '5', '--tracks', '3', '--url', h.baseUrl]);
    expect(made.code, made.output).toBe(0);
    const lines = made.output.split('\n').filter((line) => /^ {2}\d\. /.test(line));
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(libraryTracks.some((track) => line.includes(`✓ ${track.title} — `))).toBe(true);
    expect((model.requests.at(-1)!.body['messages'] as { content: string }[]).at(-1)!.content).toContain("The listener's library");
    const usage = await opl(['calm', '--to', 'spotify', '--seed', '5', '--url', h.baseUrl]);
    expect(usage.code).toBe(64);
  });

  it('prints a draft of songs found on the account, then confirms it into a migration — once', async () => {
    const made = await opl(['golden summer river lights', '--to', 'tidal', '--tracks', '4', '--url', h.baseUrl]);
    expect(made.code, made.output).toBe(0);
    const draftId = /Draft ([0-9a-f-]{36})/.exec(made.output)?.[1];
    expect(draftId, made.output).toBeDefined();
    expect(made.output).toMatch(/ {2}1\. [✓~?] /);
    expect(made.output).toContain(`opl generate --draft ${draftId} --confirm`);

    const confirmed = await opl(['--draft', draftId!, '--confirm', '--yes', '--url', h.baseUrl]);
    expect(confirmed.code, confirmed.output).toBe(0);
    const jobId = /Started migration ([0-9a-f-]{36})/.exec(confirmed.output)?.[1];
    expect(jobId, confirmed.output).toBeDefined();
    const job = await h.waitForJob(jobId!, (state) => ['completed', 'failed'].includes(state.status));
    expect(job).toMatchObject({ status: 'completed', source_kind: 'generated' });

    const again = await opl(['--draft', draftId!, '--confirm', '--url', h.baseUrl]);
    expect(again.code).toBe(0);
    expect(again.output).toContain(`Already confirmed as migration ${jobId}`);
  });

  it('reads the request from standard input with -, and generates and confirms in one go', async () => {
    const run = await opl(['-', '--to', 'tidal', '--tracks', '2', '--confirm', '--yes', '--url', h.baseUrl], 'midnight electric storm\n');
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/Started migration [0-9a-f-]{36}/);
    const empty = await opl(['-', '--to', 'tidal', '--url', h.baseUrl], '   \n');
    expect(empty.code).toBe(1);
    expect(empty.output).toContain('the request is empty');
  });

  it('says what is wrong: no account of that provider, a usage mistake, a model failure', async () => {
    const none = await opl(['x', '--to', 'deezer', '--url', h.baseUrl]);
    expect(none.code).toBe(1);
    expect(none.output).toContain('no connected deezer account');
    for (const args of [['--to', 'tidal'], ['x'], ['x', '--to', 'tidal', '--tracks', '99'], ['x', '--to', 'tidal', '--explicit', 'maybe'], ['--draft', 'nope', '--confirm']]) {
      const wrong = await opl([...args, '--url', h.baseUrl]);
      expect(wrong.code, args.join(' ')).toBe(64);
      expect(wrong.output).toContain('Usage:');
    }
    model.failNext({ kind: 'status', status: 429, retryAfter: '600' });
    const limited = await opl(['x', '--to', 'tidal', '--url', h.baseUrl]);
    expect(limited.code).toBe(1);
    expect(limited.output).toMatch(/busy \(429\).*600 s/);
  });
});
