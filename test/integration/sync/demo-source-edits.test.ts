import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER_TOKEN } from '../../fakes/applemusic/index.ts';
import { startConnectionApp, type ConnectionApp, type JsonAnswer } from '../support/connection-app.ts';

/**
 * Demo mode's "change the source" (`POST /api/demo/playlists/change`) through HTTP against the
 * engine's own demo providers: for each of the five, adding, moving and removing a song changes
 * what the provider's API then returns to the engine, and the provider's version marker moves
 * (Spotify snapshot id, TIDAL lastModifiedAt, Deezer checksum, Apple lastModifiedDate; YouTube
 * Music has none, its new entry gets a new setVideoId). Refused outside demo mode, for an unknown
 * or another owner's account, and for a playlist the demo listener does not own.
 *
 * Then sync in demo mode, with the schedule's clock in the test's hand, into a demo TIDAL, Spotify,
 * YouTube Music and Deezer target: a mirror rule runs at its slot after the demo source changed and
 * the new song goes before every entry the rule owns (on top where the rule owns the whole target),
 * the owner's own entries untouched; the same rule add-only appends the next new song.
 */

interface Outcome {
  change: string;
  playlist_id: string;
  title: string;
  artist: string;
  from: number | null;
  to: number | null;
  track_count: number;
  version_before: string | null;
  version_after: string | null;
}

interface ReadTrack {
  title: string;
  artist: string;
  source_item_id?: string | null;
}

interface UriTrack extends ReadTrack {
  provider_uris: Record<string, string | undefined>;
}

let app: ConnectionApp;
const accounts = new Map<string, string>();
let clock = Date.parse('2026-11-30T08:00:00Z');

async function connectByRedirect(provider: string): Promise<string> {
  const begin = await app.api(`/api/auth/${provider}/begin`, { method: 'POST', body: '{}' });
  expect(begin.status).toBe(200);
  const authorize = await fetch((begin.json as { redirect_url: string }).redirect_url, { redirect: 'manual' });
  const landed = await fetch(authorize.headers.get('location')!, { redirect: 'manual' });
  return landed.headers.get('location')!.split('connected=')[1]!;
}

async function connectYtmusic(): Promise<string> {
  const begin = (await app.api('/api/auth/ytmusic/begin', { method: 'POST', body: JSON.stringify({ client: { client_id: 'opl-demo-client', client_secret: 'demo' } }) })).json as { state: string; interval_s?: number };
  for (let poll = 0; poll < 20; poll++) {
    if (poll > 0) await new Promise((resolve) => setTimeout(resolve, 1_000 * Math.min(begin.interval_s ?? 2, 3)));
    const done = (await app.api('/api/auth/ytmusic/complete', { method: 'POST', body: JSON.stringify({ state: begin.state }) })).json as { status: string; account?: { id: string } };
    if (done.status === 'connected') return done.account!.id;
  }
  throw new Error('the demo YouTube Music account did not connect');
}

async function connectAppleMusic(): Promise<string> {
  const begin = (await app.api('/api/auth/applemusic/begin', { method: 'POST', body: '{}' })).json as { state: string };
  const done = await app.api('/api/auth/applemusic/complete', { method: 'POST', body: JSON.stringify({ state: begin.state, values: { music_user_token: DEMO_USER_TOKEN } }) });
  expect(done.status, JSON.stringify(done.json)).toBe(200);
  return (done.json as { account: { id: string } }).account.id;
}

/** The first playlist the demo listener owns with a few songs (Apple lists no counts). */
async function ownPlaylist(accountId: string): Promise<string> {
  const { json } = await app.api(`/api/playlists?account_id=${accountId}`);
  const playlists = (json as { playlists: { id: string | null; kind: string; is_owned: boolean | null; track_count: number | null }[] }).playlists;
  return playlists.find((playlist) => playlist.id !== null && playlist.id !== 'liked' && playlist.kind !== 'LIKED_TRACKS' && playlist.is_owned !== false && (playlist.track_count ?? 3) >= 3)!.id!;
}

/** The playlist as the provider's API gives it to the engine now (the cache was dropped by the edit). */
async function read(accountId: string, playlistId: string): Promise<{ snapshot_id: string | null; tracks: ReadTrack[] }> {
  const { status, json } = await app.api(`/api/playlists/${encodeURIComponent(playlistId)}?account_id=${accountId}`);
  expect(status, JSON.stringify(json)).toBe(200);
  return (json as { playlist: { snapshot_id: string | null; tracks: ReadTrack[] } }).playlist;
}

async function change(accountId: string, playlistId: string, what: 'add' | 'remove' | 'move'): Promise<JsonAnswer> {
  return app.api('/api/demo/playlists/change', { method: 'POST', body: JSON.stringify({ account_id: accountId, playlist_id: playlistId, change: what }) });
}

const key = (track: ReadTrack) => `${track.title}\u0000${track.artist}`;

beforeAll(async () => {
  app = await startConnectionApp({ scheduleClock: () => new Date(clock) }, { env: { OPL_DEMO: '1' }, worker: true });
  for (const provider of ['spotify', 'tidal', 'deezer']) accounts.set(provider, await connectByRedirect(provider));
  accounts.set('applemusic', await connectAppleMusic());
  accounts.set('ytmusic', await connectYtmusic());
}, 300_000);

afterAll(async () => {
  await app?.close();
});

describe('changing a demo source playlist', () => {
  for (const provider of ['spotify', 'tidal', 'ytmusic', 'applemusic', 'deezer']) {
    it(`${provider}: add, move and remove change what the provider then returns, and its version marker`, async () => {
      const accountId = accounts.get(provider)!;
      const playlistId = await ownPlaylist(accountId);
      const before = await read(accountId, playlistId);

      const added = await change(accountId, playlistId, 'add');
      expect(added.status, JSON.stringify(added.json)).toBe(200);
      const add = added.json as Outcome;
      expect(add).toMatchObject({ change: 'add', playlist_id: playlistId, from: null, to: before.tracks.length, track_count: before.tracks.length + 1 });
      const afterAdd = await read(accountId, playlistId);
      expect(afterAdd.tracks.slice(0, -1).map(key)).toEqual(before.tracks.map(key));
      expect(afterAdd.tracks.at(-1)!.title).toContain(add.title.replace(/ \(.*$/, ''));
      expect(before.tracks.map((track) => track.title)).not.toContain(afterAdd.tracks.at(-1)!.title);
      if (provider === 'ytmusic') {
        // No version marker: the new entry has a setVideoId of its own.
        expect(add.version_before).toBeNull();
        const entryIds = before.tracks.map((track) => track.source_item_id);
        expect(afterAdd.tracks.at(-1)!.source_item_id).toBeTruthy();
        expect(entryIds).not.toContain(afterAdd.tracks.at(-1)!.source_item_id);
      } else {
        expect(add.version_before).toBeTruthy();
        expect(add.version_after).not.toBe(add.version_before);
      }
      if (provider === 'spotify' || provider === 'deezer') {
        // The snapshot id the engine reads is the version marker the edit moved.
        expect(afterAdd.snapshot_id).toBe(add.version_after);
        expect(afterAdd.snapshot_id).not.toBe(before.snapshot_id);
      }

      const moved = (await change(accountId, playlistId, 'move')).json as Outcome;
      expect(moved).toMatchObject({ change: 'move', to: 0, track_count: afterAdd.tracks.length });
      const afterMove = await read(accountId, playlistId);
      const expected = afterAdd.tracks.map(key);
      const [movedKey] = expected.splice(moved.from!, 1);
      expect(afterMove.tracks.map(key)).toEqual([movedKey, ...expected]);
      if (provider !== 'ytmusic') expect(moved.version_after).not.toBe(moved.version_before);

      const removed = (await change(accountId, playlistId, 'remove')).json as Outcome;
      expect(removed).toMatchObject({ change: 'remove', to: null, track_count: afterMove.tracks.length - 1 });
      const afterRemove = await read(accountId, playlistId);
      const left = afterMove.tracks.map(key);
      left.splice(removed.from!, 1);
      expect(afterRemove.tracks.map(key)).toEqual(left);
      if (provider !== 'ytmusic') expect(removed.version_after).not.toBe(removed.version_before);
    }, 120_000);
  }

  it('refuses an unknown account, a playlist the demo listener does not own, and bad input', async () => {
    const unknown = await change('00000000-0000-4000-8000-000000000000', 'whatever', 'add');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/problem\+json/);
    expect((await change(accounts.get('spotify')!, 'no-such-playlist', 'add')).status).toBe(404);
    expect((await app.api('/api/demo/playlists/change', { method: 'POST', body: JSON.stringify({ account_id: accounts.get('spotify'), playlist_id: 'x', change: 'shuffle' }) })).status).toBe(400);
  });

  it("refuses another owner's account: it is not found", async () => {
    const accountId = accounts.get('deezer')!;
    const playlistId = await ownPlaylist(accountId);
    const owner = async (to: string) => app.testApp.app.services.sync.execute({ text: `update provider_account set owner_id = ? where id = ?`, values: [to, accountId] });
    const [row] = await app.testApp.app.services.sync.execute({ text: 'select owner_id from provider_account where id = ?', values: [accountId] });
    const ownerId = String(row!['owner_id']);
    await owner('another-owner');
    try {
      const refused = await change(accountId, playlistId, 'add');
      expect(refused.status).toBe(404);
    } finally {
      // The demo Deezer account is the target of a sync below: it goes back to its owner.
      await owner(ownerId);
    }
  });
});

/** Polls until `done` holds for what `read` answers (or fails after 120 s). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  let last: T | undefined;
  for (const started = Date.now(); Date.now() - started < 120_000; await new Promise((resolve) => setTimeout(resolve, 250))) {
    last = await read();
    if (done(last)) return last;
  }
  throw new Error(`${what}: ${JSON.stringify(last)}`);
}

/** Accepts every suggestion of a job waiting for review (matching without ISRCs may ask). */
async function approveReview(jobId: string): Promise<void> {
  const answer = await app.api(`/api/migrations/${jobId}/items/review`, { method: 'POST', body: JSON.stringify({ action: 'approve', item_ids: [] }) });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
}

describe('sync in demo mode', () => {
  // Every demo listener has its own copy of the demo library, so a migration into another demo
  // service usually adopts the target's playlist of the same name that shares songs with the source
  // (the migration engine's rule) instead of creating one: the songs already there are the owner's,
  // skipped as duplicates, and a mirror rule never moves or removes them (ownership per row). The rule
  // owns what its jobs wrote, so the demo's new song goes before every entry the rule owns — on top
  // only when the rule owns the whole target (a playlist the migration created).
  for (const [source, target] of [['spotify', 'tidal'], ['tidal', 'spotify'], ['tidal', 'ytmusic'], ['spotify', 'deezer']] as const) {
    it(`a mirror rule ${source} → ${target} runs at its slot and the target follows the demo source's change; add-only, it appends the next one`, async () => {
      const sourceAccount = accounts.get(source)!;
      const targetAccount = accounts.get(target)!;
      const playlistId = await ownPlaylist(sourceAccount);
      const listed = (await app.api(`/api/playlists?account_id=${targetAccount}&refresh=true`)).json as { playlists: { id: string | null }[] };
      const existingTargets = new Set(listed.playlists.map((playlist) => playlist.id));
      const started = await app.api('/api/migrations', { method: 'POST', body: JSON.stringify({ source_account_id: sourceAccount, target_provider: target, target_account_id: targetAccount, selection: { playlist_ids: [playlistId] }, strictness: 'best_effort', acknowledge_warnings: true }) });
      expect(started.status, JSON.stringify(started.json)).toBe(202);
      const jobId = (started.json as { id: string }).id;
      type Job = { status: string; collections: { target_playlist_id: string | null }[] };
      const job = async () => (await app.api(`/api/migrations/${jobId}`)).json as Job;
      let done = await until(job, (value) => ['completed', 'failed', 'awaiting_review'].includes(value.status), `migration ${jobId}`);
      if (done.status === 'awaiting_review') {
        await approveReview(jobId);
        done = await until(job, (value) => ['completed', 'failed'].includes(value.status), `migration ${jobId}`);
      }
      expect(done.status).toBe('completed');
      const targetId = done.collections[0]!.target_playlist_id!;
      const adopted = existingTargets.has(targetId);
      const readTarget = async () => ((await app.api(`/api/playlists/${encodeURIComponent(targetId)}?account_id=${targetAccount}&refresh=true`)).json as { playlist: { tracks: UriTrack[] } }).playlist.tracks;
      const before = await readTarget();
      const created = await app.api('/api/syncs', { method: 'POST', body: JSON.stringify({ migration_job_id: jobId, mode: 'mirror', schedule: { kind: 'interval', every_minutes: 60 } }) });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const ruleId = (created.json as { id: string }).id;

      // The newcomer changes the demo source: a new song, moved to the top.
      const added = (await change(sourceAccount, playlistId, 'add')).json as Outcome;
      expect((await change(sourceAccount, playlistId, 'move')).status).toBe(200);
      // Its slot comes: the every-minute evaluation makes the run.
      clock += 60 * 60_000;
      await app.testApp.app.services.sync.scheduler.evaluate();
      type Run = { id: string; status: string; migration_job_id: string | null; stats: Record<string, unknown> };
      const runs = async () => (await app.api(`/api/syncs/${ruleId}/runs`)).json as Run[];
      let [run] = await until(runs, (value) => value.length === 1 && ['completed', 'failed', 'review_required'].includes(value[0]!.status), `the run of ${ruleId}`);
      if (run!.status === 'review_required') {
        await approveReview(run!.migration_job_id!);
        [run] = await until(runs, (value) => ['completed', 'failed'].includes(value[0]!.status), `the run of ${ruleId}`);
      }
      expect(run, JSON.stringify(run)).toMatchObject({ status: 'completed', stats: { mirror: 'done', added: 1 } });
      const after = await readTarget();
      const uri = (track: UriTrack) => track.provider_uris[target]!;
      const isNew = (track: UriTrack) => track.title.includes(added.title.replace(/ \(.*$/, ''));
      const shown = JSON.stringify({ adopted, run: run!.stats, added: added.title, before: before.map(key), after: after.map(key) });
      // The rule owns what the migration and the run wrote; the rest is the owner's.
      const written = await app.testApp.app.services.sync.execute({ text: `select distinct target_uri from job_item where job_id in (?, ?) and entity_type = 'track' and status = 'written' and target_uri is not null`, values: [jobId, run!.migration_job_id] });
      const owned = new Set(written.map((row) => String(row['target_uri'])));
      // The new song came once; the owner's entries are all still there, in their order.
      expect(after.filter(isNew), shown).toHaveLength(1);
      expect(after.filter((track) => !owned.has(uri(track))).map(uri), shown).toEqual(before.filter((track) => !owned.has(uri(track))).map(uri));
      // The new song stands before every other entry the rule owns, as it does on the source.
      const newAt = after.findIndex(isNew);
      expect(owned.has(uri(after[newAt]!)), shown).toBe(true);
      expect(after.slice(0, newAt).filter((track) => owned.has(uri(track))).map(key), shown).toEqual([]);
      // A playlist the migration created is the rule's whole: the new song is on top, as on the source.
      if (!adopted) expect(newAt, shown).toBe(0);
      else expect(before.some((track) => !owned.has(uri(track))), shown).toBe(true);

      // The same rule add-only: the next song the demo adds (and moves to the top of the source) is
      // appended to the target, and nothing on it moves.
      const patched = await app.api(`/api/syncs/${ruleId}`, { method: 'PATCH', body: JSON.stringify({ mode: 'add_only' }) });
      expect(patched.status, JSON.stringify(patched.json)).toBe(200);
      const next = (await change(sourceAccount, playlistId, 'add')).json as Outcome;
      expect((await change(sourceAccount, playlistId, 'move')).status).toBe(200);
      clock += 60 * 60_000;
      await app.testApp.app.services.sync.scheduler.evaluate();
      let [second] = await until(runs, (value) => value.length === 2 && ['completed', 'failed', 'review_required'].includes(value[0]!.status), `the second run of ${ruleId}`);
      if (second!.status === 'review_required') {
        await approveReview(second!.migration_job_id!);
        [second] = await until(runs, (value) => ['completed', 'failed'].includes(value[0]!.status), `the second run of ${ruleId}`);
      }
      expect(second, JSON.stringify(second)).toMatchObject({ status: 'completed', stats: { added: 1 } });
      expect(second!.stats['mirror']).toBeUndefined();
      const appended = await readTarget();
      expect(appended.map(key), JSON.stringify(appended.map(key))).toEqual([...after.map(key), expect.stringContaining(next.title.replace(/ \(.*$/, '')) as string]);
    }, 300_000);
  }
});

describe('outside demo mode', () => {
  it('the route does not exist for the owner: 404', async () => {
    const plain = await startConnectionApp();
    try {
      const answer = await plain.api('/api/demo/playlists/change', { method: 'POST', body: JSON.stringify({ account_id: '00000000-0000-4000-8000-000000000000', playlist_id: 'p', change: 'add' }) });
      expect(answer.status).toBe(404);
      expect((answer.json as { detail: string }).detail).toMatch(/Demo mode is off/);
    } finally {
      await plain.close();
    }
  }, 120_000);
});
