import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startHostedHarness, type HostedHarness, type Listener } from './hosted-harness.ts';

/**
 * Per-user limits of a hosted instance, through HTTP with real sign-ins, plugins and fakes. Twenty
 * parallel requests of one user never get past a limit (the admission counts under the user's
 * advisory lock in the insert transaction); refusals are 429 `user_limit_reached` naming the limit,
 * its variable and when it resets; one user's use never limits another.
 */

const CONCURRENT = 3;
const PER_DAY = 5;
const IMPORT_BYTES = 4096;
const SNAPSHOT_BYTES = 10_000;

const catalog = seedCatalog();
const songs = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal')).slice(0, 3);

type Problem = { code: string; limit: string; maximum: number; used: number; variable: string; resets_at: string | null; resets_when: string; detail: string };

let h: HostedHarness;
let ana: Listener;
let ben: Listener;
let playlistOf: Record<string, string>;

beforeAll(async () => {
  h = await startHostedHarness({
    env: {
      OPL_USER_MAX_CONCURRENT_JOBS: String(CONCURRENT),
      OPL_USER_MAX_JOBS_PER_DAY: String(PER_DAY),
      OPL_USER_MAX_IMPORT_BYTES_PER_DAY: String(IMPORT_BYTES),
      OPL_USER_MAX_SNAPSHOT_BYTES: String(SNAPSHOT_BYTES),
    },
  });
  const library = { playlists: [{ name: 'Limits Mix', trackKeys: songs.map((song) => song.key) }] };
  ana = await h.listener('ana', { spotify: library });
  ben = await h.listener('ben', { spotify: library });
  playlistOf = {};
  for (const listener of [ana, ben]) {
    const listed = await h.call('GET', `/api/playlists?account_id=${listener.spotifyAccount}`, listener.cookie);
    expect(listed.statusCode, listed.body).toBe(200);
    playlistOf[listener.subject] = listed.json<{ playlists: Array<{ id: string; name: string }> }>().playlists.find((playlist) => playlist.name === 'Limits Mix')!.id;
  }
}, 180_000);

afterAll(async () => {
  await h?.close();
});

const migrate = (listener: Listener) =>
  h.call('POST', '/api/migrations', listener.cookie, {
    source_account_id: listener.spotifyAccount,
    target_provider: 'tidal',
    target_account_id: listener.tidalAccount,
    acknowledge_warnings: true,
    selection: { playlist_ids: [playlistOf[listener.subject]] },
  });

const jobsOf = async (listener: Listener) => Number((await h.sql(`select count(*)::int as n from migration_job j join app_user u on u.id::text = j.owner_id where u.subject = ?`, [listener.subject]))[0]!['n']);

describe('per-user limits in hosted mode', () => {
  it('lets 3 of 20 parallel migrations of one user in, refuses the rest naming the limit, and leaves another user free', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => migrate(ana)));
    const started = answers.filter((answer) => answer.statusCode === 202);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(started.length, answers.map((answer) => `${answer.statusCode} ${answer.body.slice(0, 200)}`).join('\n')).toBe(CONCURRENT);
    expect(refused).toHaveLength(20 - CONCURRENT);
    expect(await jobsOf(ana)).toBe(CONCURRENT);
    for (const answer of refused) {
      expect(String(answer.headers['content-type'])).toContain('application/problem+json');
      const problem = answer.json<Problem>();
      expect(problem).toMatchObject({ code: 'user_limit_reached', limit: 'concurrent_jobs', maximum: CONCURRENT, used: CONCURRENT, variable: 'OPL_USER_MAX_CONCURRENT_JOBS', resets_at: null });
      expect(problem.resets_when).toContain('ends');
      expect(answer.headers['retry-after']).toBeUndefined();
    }
    // Ben's jobs are his own: Ana's three do not count against him.
    expect((await migrate(ben)).statusCode).toBe(202);
  }, 120_000);

  it('frees a place when a job ends, then stops at the jobs of 24 hours and says when the window has room', async () => {
    const [running] = await h.sql(`select j.id from migration_job j join app_user u on u.id::text = j.owner_id where u.subject = 'ana' order by j.created_at limit 1`);
    expect((await h.call('POST', `/api/migrations/${String(running!['id'])}/cancel`, ana.cookie)).statusCode).toBe(200);
    expect((await migrate(ana)).statusCode).toBe(202);
    const cancelled = await h.sql(`select j.id from migration_job j join app_user u on u.id::text = j.owner_id where u.subject = 'ana' and j.status = 'queued' order by j.created_at limit 1`);
    expect((await h.call('POST', `/api/migrations/${String(cancelled[0]!['id'])}/cancel`, ana.cookie)).statusCode).toBe(200);
    expect((await migrate(ana)).statusCode).toBe(202);
    expect(await jobsOf(ana)).toBe(PER_DAY);

    const [oldest] = await h.sql(`select j.created_at from migration_job j join app_user u on u.id::text = j.owner_id where u.subject = 'ana' order by j.created_at limit 1`);
    const [queued] = await h.sql(`select j.id from migration_job j join app_user u on u.id::text = j.owner_id where u.subject = 'ana' and j.status = 'queued' order by j.created_at limit 1`);
    expect((await h.call('POST', `/api/migrations/${String(queued!['id'])}/cancel`, ana.cookie)).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 20 }, () => migrate(ana)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array.from({ length: 20 }, () => 429));
    const problem = answers[0]!.json<Problem>();
    expect(problem).toMatchObject({ code: 'user_limit_reached', limit: 'jobs_per_day', maximum: PER_DAY, used: PER_DAY, variable: 'OPL_USER_MAX_JOBS_PER_DAY' });
    expect(problem.resets_at).toBe(new Date(new Date(String(oldest!['created_at'])).getTime() + 24 * 3_600_000).toISOString());
    expect(problem.detail).toContain(problem.resets_at);
    expect(Number(answers[0]!.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    expect(await jobsOf(ana)).toBe(PER_DAY);
  }, 120_000);

  it('admits parallel imports only up to the bytes of 24 hours', async () => {
    // Each text is exactly 500 bytes: 8 fit into 4096, whatever order the 20 arrive in.
    const text = (n: number) => `Artist ${String(n).padStart(2, '0')} - Song`.padEnd(500, ' x');
    expect(new TextEncoder().encode(text(1)).byteLength).toBe(500);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => h.call('POST', '/api/imports/text-preview', ana.cookie, { text: text(n) })));
    const admitted = answers.filter((answer) => answer.statusCode === 201);
    expect(admitted.length, answers.map((answer) => `${answer.statusCode} ${answer.body.slice(0, 160)}`).join('\n')).toBe(8);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused).toHaveLength(12);
    const problem = refused[0]!.json<Problem>();
    expect(problem).toMatchObject({ code: 'user_limit_reached', limit: 'import_bytes_per_day', maximum: IMPORT_BYTES, used: 4000, variable: 'OPL_USER_MAX_IMPORT_BYTES_PER_DAY' });
    const [first] = await h.sql(`select min(used_at) as at from user_usage s join app_user u on u.id::text = s.user_id where u.subject = 'ana'`);
    expect(problem.resets_at).toBe(new Date(new Date(String(first!['at'])).getTime() + 24 * 3_600_000).toISOString());
    // One import larger than the whole allowance never fits: no reset time, and the advice is to split it.
    const huge = await h.call('POST', '/api/imports/text-preview', ben.cookie, { text: 'A - B\n'.repeat(1000) });
    expect(huge.statusCode).toBe(429);
    expect(huge.json<Problem>()).toMatchObject({ limit: 'import_bytes_per_day', used: 0, resets_at: null });
    expect((await h.call('POST', '/api/imports/text-preview', ben.cookie, { text: 'Air - La Femme d’Argent' })).statusCode).toBe(201);
  }, 120_000);

  it('refuses a snapshot once the kept archives reach the storage limit', async () => {
    const [user] = await h.sql(`select id from app_user where subject = 'ben'`);
    const profile = await h.call('POST', '/api/snapshots/profiles', ben.cookie, { name: 'Ben’s library', selection: { accounts: [{ account_id: ben.spotifyAccount, collections: 'all' }] } });
    expect(profile.statusCode, profile.body).toBe(201);
    await h.sql(`insert into snapshot (owner_id, library_id, status, origin, archive_bytes) values (?, gen_random_uuid(), 'completed', 'uploaded', ?)`, [String(user!['id']), SNAPSHOT_BYTES]);
    const refused = await h.call('POST', '/api/snapshots', ben.cookie, { profile_id: profile.json<{ id: string }>().id });
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json<Problem>()).toMatchObject({ code: 'user_limit_reached', limit: 'snapshot_bytes', maximum: SNAPSHOT_BYTES, used: SNAPSHOT_BYTES, variable: 'OPL_USER_MAX_SNAPSHOT_BYTES', resets_at: null });
    expect(refused.json<Problem>().resets_when).toContain('delete');
    // Ana keeps nothing: her snapshot starts.
    const anaProfile = await h.call('POST', '/api/snapshots/profiles', ana.cookie, { name: 'Ana’s library', selection: { accounts: [{ account_id: ana.spotifyAccount, collections: 'all' }] } });
    expect((await h.call('POST', '/api/snapshots', ana.cookie, { profile_id: anaProfile.json<{ id: string }>().id })).statusCode).toBe(202);
  }, 60_000);
});
