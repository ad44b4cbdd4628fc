import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { runOpl } from '../support/engine-process.ts';
import { startSyncHarness, type SyncHarness } from '../sync/sync-harness.ts';

/**
 * `opl sync` as a user runs it: the real CLI in a child process against a real engine — a rule made
 * from a finished migration, listed, run now (waiting for what it did), paused and resumed; usage
 * mistakes exit 64, refusals exit 1 with the engine's reason.
 */

const catalog = seedCatalog();
const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));

let h: SyncHarness;
let jobId = '';
let sourceId = '';

beforeAll(async () => {
  h = await startSyncHarness({ spotifyLibrary: { playlists: [{ name: 'Terminal Mix', trackKeys: onBoth.slice(20, 23).map((track) => track.key) }] } });
  sourceId = h.spotifyPlaylistId('Terminal Mix');
  jobId = await h.migrate(h.spotifyAccount, sourceId, 'tidal', h.tidalAccount);
}, 300_000);

afterAll(async () => {
  await h?.close();
});

async function opl(...args: string[]): Promise<{ code: number | null; output: string }> {
  const run = runOpl(['sync', ...args, ...(args.includes('--help') ? [] : ['--url', h.baseUrl])], {});
  const { code } = await run.exited;
  return { code, output: run.output() };
}

describe('opl sync', () => {
  it('creates, lists, runs, pauses and resumes a rule', async () => {
    const empty = await opl('list');
    expect(empty.code, empty.output).toBe(0);
    expect(empty.output).toContain('No sync rules');

    const created = await opl('create', '--migration', jobId, '--daily', '03:00', '--tz', 'Europe/Berlin');
    expect(created.code, created.output).toBe(0);
    const ruleId = /^([0-9a-f-]{36}) {2}"Terminal Mix" spotify → tidal {2}add_only, daily 03:00 Europe\/Berlin/m.exec(created.output)?.[1];
    expect(ruleId, created.output).toBeDefined();
    expect((await opl('list')).output).toContain(ruleId);

    await h.spotifyAdd(sourceId, [h.spotify.uriOf(onBoth[23]!.key)!]);
    const ran = await opl('run', ruleId!, '--wait');
    expect(ran.code, ran.output).toBe(0);
    expect(ran.output).toMatch(/completed: 1 new in the source, 1 added, 0 skipped \(migration [0-9a-f-]{36}\)/);
    const unchanged = await opl('run', ruleId!, '--wait');
    expect(unchanged.output).toContain('the source is unchanged');

    const paused = await opl('pause', ruleId!);
    expect(paused.code).toBe(0);
    expect(paused.output).toContain('paused: Paused by you.');
    const refused = await opl('run', ruleId!);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/opl sync: .*paused.*resume it first/);
    const resumed = await opl('resume', ruleId!);
    expect(resumed.code).toBe(0);
    expect(resumed.output).toContain(' next ');
  }, 300_000);

  it('refuses usage mistakes with exit 64 and prints the help', async () => {
    expect((await opl('--help')).output).toContain('opl sync create --migration');
    for (const args of [[], ['frobnicate'], ['create'], ['create', '--migration', jobId, '--every', '4'], ['create', '--migration', jobId, '--daily', '3am', '--tz', 'UTC'], ['create', '--migration', jobId, '--daily', '03:00'], ['pause'], ['pause', 'not-an-id']]) {
      const result = await opl(...args);
      expect(result.code, `${args.join(' ')}: ${result.output}`).toBe(64);
      expect(result.output).toContain('Usage:');
    }
  }, 300_000);
});
