import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';
import { runOpl } from '../support/engine-process.ts';

/**
 * `opl organize` as a script runs it: the real CLI in a child process against a real engine whose
 * Spotify is the fake. A preflight prints the token and the phrase; the job starts only with the
 * exact phrase and removes exactly the chosen entry.
 */

const catalog = seedCatalog();
const [a, b, c] = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify')).map((track) => track.key) as [string, string, string];

let h: MigrationHarness;

beforeAll(async () => {
  h = await startMigrationHarness({ spotifyLibrary: { playlists: [{ name: 'Scripted', trackKeys: [a, b, c, b] }, { name: 'scripted!', trackKeys: [a, b] }] }, tidalLibrary: {} });
}, 300_000);

afterAll(async () => {
  await h?.close();
});

async function opl(args: string[]): Promise<{ code: number | null; output: string }> {
  const run = runOpl(['organize', ...args, '--url', h.baseUrl], {});
  const { code } = await run.exited;
  return { code, output: run.output() };
}

describe('opl organize', () => {
  it('preflights, refuses a wrong phrase, then removes exactly the chosen entry', async () => {
    const target = h.spotify.playlistByName(h.spotifyUser.userId, 'Scripted')!;
    const preflight = await opl(['preflight', '--account', h.spotifyAccount, '--action', 'remove_tracks', '--playlist', target.id, '--entry', `3:${target.uris[3]}`]);
    expect(preflight.code, preflight.output).toBe(0);
    const token = /Token ([0-9a-f-]{36})/.exec(preflight.output)?.[1];
    expect(token, preflight.output).toBeDefined();
    expect(preflight.output).toContain('--confirm "remove 1 song"');
    const wrong = await opl(['run', '--token', token!, '--confirm', 'remove 2 songs']);
    expect(wrong.code).toBe(1);
    expect(wrong.output).toContain('organizer_confirmation_mismatch');
    expect(h.spotify.playlistByName(h.spotifyUser.userId, 'Scripted')!.uris).toEqual(target.uris);
    const ran = await opl(['run', '--token', token!, '--confirm', 'remove 1 song']);
    expect(ran.code, ran.output).toBe(0);
    expect(ran.output).toMatch(/completed, 1 of 1 done/);
    expect(h.spotify.playlistByName(h.spotifyUser.userId, 'Scripted')!.uris).toEqual(target.uris.slice(0, 3));
    const status = await opl(['status']);
    expect(status.code).toBe(0);
    expect(status.output).toContain('(remove_tracks): completed');

    // Undo puts the entry back where it was; nothing is left to retry.
    const jobId = /Job ([0-9a-f-]{36}) \(remove_tracks\)/.exec(status.output)![1]!;
    const undone = await opl(['undo', '--job', jobId]);
    expect(undone.code, undone.output).toBe(0);
    expect(undone.output).toMatch(/\(restore_tracks\): completed/);
    expect(undone.output).toContain('1 removed entry was put back at its position (3).');
    expect(h.spotify.playlistByName(h.spotifyUser.userId, 'Scripted')!.uris).toEqual(target.uris);
    const retry = await opl(['retry', '--job', jobId]);
    expect(retry.code).toBe(1);
    expect(retry.output).toContain('organizer_state_conflict');
  });

  it('scans for duplicate playlists read-only, and answers a bad command line with its usage', async () => {
    const scan = await opl(['duplicates', '--account', h.spotifyAccount]);
    expect(scan.code, scan.output).toBe(0);
    expect(scan.output).toContain('"normalized_name": "scripted"');
    const bad = await opl(['preflight', '--account', h.spotifyAccount, '--action', 'delete_everything', '--playlist', 'x']);
    expect(bad.code).toBe(64);
    expect(bad.output).toContain('usage: opl organize');
  });
});
