import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';

/**
 * An import record as the source of real migrations (HTTP + worker, Spotify and TIDAL fakes): a
 * provider link imported through the connected Spotify account migrates to TIDAL and its record
 * goes once the job succeeds; two playlists of one file that share an id are each migrated by
 * their own collection id; a job from pasted text that finds nothing fails, and its record is
 * kept (no longer queued) for the grace period, then the cleanup takes it.
 */

const catalog = seedCatalog();
const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && track.availableOn === undefined && track.isrc !== null).slice(0, 3);
const finished = (job: { status: string }) => ['completed', 'failed', 'cancelled'].includes(job.status);

interface RecordJson {
  id: string;
  state: string;
  collection_ids: string[];
  playlists: Array<{ id: string | null; name: string }>;
}

const entry = (track: (typeof onBoth)[number]) => ({ title: track.title, artist: catalog.artists.get(track.artistKeys[0]!)!.name, isrc: track.isrc });
/** An Open Playlist JSON file holding one playlist twice (a whole and a partial copy, the same id) and one without an id. */
const twiceFile = (tag: string) =>
  JSON.stringify({
    $schema: 'https://open-playlist.org/schemas/export/open-playlist-bundle-v1.json',
    schema_version: 1,
    source_provider: null,
    playlists: [
      { id: 'dup', name: `Whole ${tag}`, tracks: onBoth.slice(0, 2).map(entry) },
      { id: 'dup', name: `Part ${tag}`, tracks: [entry(onBoth[2]!)] },
      { name: `No Id ${tag}`, tracks: [entry(onBoth[0]!)] },
    ],
    warnings: [],
  });

describe('import records as migration sources', () => {
  let h: MigrationHarness;

  beforeAll(async () => {
    h = await startMigrationHarness({ spotifyLibrary: { playlists: [{ name: 'Link Source', trackKeys: onBoth.map((track) => track.key) }] }, tidalLibrary: {} });
  }, 300_000);

  afterAll(async () => {
    await h?.close();
  });

  /** `playlistKey`: the playlist's collection id within the import (`collection_ids` of the record). */
  async function migrate(importId: string, playlistKey = '0'): Promise<string> {
    const started = await h.api('/api/migrations', {
      method: 'POST',
      body: JSON.stringify({ source_provider: 'import', source_account_id: importId, target_provider: 'tidal', target_account_id: h.tidalAccount, selection: { playlist_ids: [playlistKey] }, acknowledge_warnings: true }),
    });
    expect(started.status, started.text).toBe(202);
    return (started.json as { id: string }).id;
  }

  it('a provider link import migrates like any source, and its record goes when the job succeeds', async () => {
    const playlistId = h.spotify.playlistByName(h.spotifyUser.userId, 'Link Source')!.id;
    const preview = await h.api('/api/imports/url-preview', { method: 'POST', body: JSON.stringify({ url: `https://open.spotify.com/playlist/${playlistId}` }) });
    expect(preview.status, preview.text).toBe(201);
    const importId = (preview.json as RecordJson).id;
    // A playlist read from a provider keeps the provider's id: migrations and shares name it by that.
    const key = (preview.json as { playlists: Array<{ id: string | null }> }).playlists[0]!.id;
    expect(key).toBe(playlistId);
    const jobId = await migrate(importId, key!);
    const job = await h.waitForJob(jobId, finished);
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(job.counts).toMatchObject({ written: onBoth.length });
    expect(h.tidal.playlistsOf(h.tidalUser.userId).map((playlist) => playlist.name)).toContain('Link Source');
    expect((await h.api(`/api/imports/${importId}`)).status).toBe(404);
  });

  it('two playlists sharing an id are told apart: each is migrated by its own collection id', async () => {
    const upload = async (tag: string) => {
      const preview = await h.api(`/api/imports/preview?filename=${encodeURIComponent(`Twice ${tag}.json`)}`, { method: 'POST', body: twiceFile(tag) });
      expect(preview.status, preview.text).toBe(201);
      return preview.json as RecordJson;
    };
    const first = await upload('A');
    expect(first.playlists.map((playlist) => playlist.id)).toEqual(['dup', 'dup', null]);
    expect(first.collection_ids).toEqual(['dup', 'dup#1', '2']);
    const shown = await h.api(`/api/imports/${first.id}`);
    expect(shown.status).toBe(200);
    expect((shown.json as RecordJson).collection_ids).toEqual(['dup', 'dup#1', '2']);

    // The later copy, by the id the record gave it.
    const later = await h.waitForJob(await migrate(first.id, 'dup#1'), finished);
    expect(later.status, JSON.stringify(later)).toBe('completed');
    expect(later.counts).toMatchObject({ written: 1 });
    // The earlier copy keeps the playlist's own id (before, the later one answered to it).
    const second = await upload('B');
    const earlier = await h.waitForJob(await migrate(second.id, 'dup'), finished);
    expect(earlier.status, JSON.stringify(earlier)).toBe('completed');
    expect(earlier.counts).toMatchObject({ written: 2 });

    const names = h.tidal.playlistsOf(h.tidalUser.userId).map((playlist) => playlist.name);
    expect(names).toEqual(expect.arrayContaining(['Part A', 'Whole B']));
    expect(names).not.toContain('Whole A');
    expect(names).not.toContain('Part B');
    const entries = (name: string) => h.tidal.playlistEntries(h.tidal.playlistsOf(h.tidalUser.userId).find((playlist) => playlist.name === name)!.id)!.map((item) => item.id);
    expect(entries('Part A')).toEqual([h.tidal.trackId(onBoth[2]!.key)]);
    expect(entries('Whole B')).toEqual(onBoth.slice(0, 2).map((track) => h.tidal.trackId(track.key)));
  });

  it('playlists whose ids are names of Object.prototype members migrate whole and by track selection', async () => {
    const file = JSON.stringify({
      schema_version: 1,
      source_provider: null,
      playlists: [
        { id: 'constructor', name: 'Proto Whole', tracks: onBoth.slice(0, 2).map(entry) },
        { id: 'toString', name: 'Proto Part', tracks: onBoth.slice(0, 3).map(entry) },
      ],
      warnings: [],
    });
    const preview = await h.api('/api/imports/preview?filename=proto.json', { method: 'POST', body: file });
    expect(preview.status, preview.text).toBe(201);
    const record = preview.json as RecordJson;
    expect(record.collection_ids).toEqual(['constructor', 'toString']);
    // Before, `selection.tracks["constructor"]` found Object.prototype.constructor, and the job failed on it.
    const whole = await h.waitForJob(await migrate(record.id, 'constructor'), finished);
    expect(whole.status, JSON.stringify(whole)).toBe('completed');
    expect(whole.counts).toMatchObject({ written: 2 });

    const again = await h.api('/api/imports/preview?filename=proto.json', { method: 'POST', body: file });
    const started = await h.api('/api/migrations', {
      method: 'POST',
      body: JSON.stringify({ source_provider: 'import', source_account_id: (again.json as RecordJson).id, target_provider: 'tidal', target_account_id: h.tidalAccount, selection: { tracks: { toString: ['pos:1'] } }, acknowledge_warnings: true }),
    });
    expect(started.status, started.text).toBe(202);
    const part = await h.waitForJob((started.json as { id: string }).id, finished);
    expect(part.status, JSON.stringify(part)).toBe('completed');
    expect(part.counts).toMatchObject({ written: 1 });
    const playlist = h.tidal.playlistsOf(h.tidalUser.userId).find((candidate) => candidate.name === 'Proto Part')!;
    expect(h.tidal.playlistEntries(playlist.id)!.map((item) => item.id)).toEqual([h.tidal.trackId(onBoth[1]!.key)]);
  });

  it('a failed job keeps its import for the grace period; the cleanup removes it after that', async () => {
    const preview = await h.api('/api/imports/text-preview', { method: 'POST', body: JSON.stringify({ text: 'Qwxz Vbnm - Plorf Zzyx Quorble\nJkhg Fdsa - Wertz Uiopq Mnbv\n', name: 'Nowhere' }) });
    expect(preview.status, preview.text).toBe(201);
    const importId = (preview.json as RecordJson).id;
    const jobId = await migrate(importId);
    const job = await h.waitForJob(jobId, finished);
    expect(job.status, JSON.stringify(job)).toBe('failed');

    const kept = await h.api(`/api/imports/${importId}`);
    expect(kept.status).toBe(200);
    expect((kept.json as RecordJson).state).toBe('retained');
    const sql = (text: string, values: unknown[] = []) => h.app.app.services.database.orm.em.getConnection().execute<Array<Record<string, unknown>>>(text, values);
    const [row] = await sql('select grace_until, grace_until > now() as in_grace from import_record where id = ?', [importId]);
    expect(row?.in_grace).toBe(true);

    // Past both its expiry and its grace period, the hourly cleanup deletes it.
    await sql(`update import_record set expires_at = now() - interval '2 hours', grace_until = now() - interval '1 hour' where id = ?`, [importId]);
    expect(await h.app.app.services.imports.records.purgeExpired(100)).toBeGreaterThanOrEqual(1);
    expect((await h.api(`/api/imports/${importId}`)).status).toBe(404);
  });
});
