import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startFakeChatModel, type FakeChatModel } from '../../fakes/chat-model/index.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';
import { readServerEvents, type ServerEvent } from '../support/server-events.ts';

/**
 * A generation followed live: `wait=false` answers at once with a `generating` draft, and the
 * server-sent events at `/events` (derived from the rows, resumable with Last-Event-ID) show the
 * model's songs arrive as pending items and each one resolve. Then cancellation, regenerating the
 * open slots or everything, and replacing an item with another candidate the target returned.
 */

const catalog = seedCatalog();
const artistName = (key: string) => catalog.artists.get(key)!.name;
const onTidal = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'tidal') && !track.explicit);
const song = (track: (typeof onTidal)[number]) => ({ title: track.title, artist: artistName(track.artistKeys[0]!), album: null, release_year: null, reason: 'fits' });
const invented = { title: 'A Song Nobody Ever Recorded', artist: 'The Invented Band', album: null, release_year: null, reason: null };

let h: MigrationHarness;
let model: FakeChatModel;

interface Item {
  id: string;
  status: string;
  approved: boolean;
  target_uri: string | null;
  title: string;
  confidence: number | null;
  reason: string | null;
  signals: { signal: string }[];
  candidates: { uri: string; title: string; confidence: number }[];
}
interface Draft {
  id: string;
  status: string;
  generation: Record<string, unknown> & { error?: { code: string } };
  counts: Record<string, number>;
  items: Item[];
}
type SseEvent = ServerEvent<Record<string, unknown>>;

beforeAll(async () => {
  model = await startFakeChatModel({ dialect: 'llama.cpp' });
  h = await startMigrationHarness({ spotifyLibrary: {}, tidalLibrary: {}, env: { OPL_GENERATOR_URL: model.url, OPL_GENERATOR_MODEL: 'fake-model' } });
  // The first generation probes the server once; later ones only ask for songs.
  const warm = await post('/api/generator/drafts', { target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'warm up', controls: { track_count: 1 } } });
  expect(warm.status, warm.text).toBe(201);
}, 300_000);

afterAll(async () => {
  await h?.close();
  await model?.close();
});

function post(path: string, body: unknown) {
  return h.api(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** Reads the draft's event stream until `until` holds for an event, then disconnects. */
function readEvents(draftId: string, until: (event: SseEvent) => boolean, lastEventId?: number): Promise<SseEvent[]> {
  return readServerEvents(`${h.baseUrl}/api/generator/drafts/${draftId}/events`, { ...(lastEventId === undefined ? {} : { lastEventId }), until: (events) => until(events.at(-1)!) });
}

const finished = (event: SseEvent) => event.type === 'draft' && event.data['status'] !== 'generating';

describe('live progress', () => {
  it('answers 202 at once, then streams the songs as pending items that each resolve, and resumes after Last-Event-ID', async () => {
    model.failNext({ kind: 'content', content: JSON.stringify({ tracks: [...onTidal.slice(0, 3).map(song), invented] }) });
    const started = await post('/api/generator/drafts?wait=false', { target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'stream me', controls: { track_count: 4 } } });
    expect(started.status, started.text).toBe(202);
    const draft = started.json as Draft;
    expect(draft.status).toBe('generating');

    const events = await readEvents(draft.id, finished);
    const ids = events.map((event) => event.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const items = events.filter((event) => event.type === 'item');
    // Every song appears as pending before it settles, and settles exactly once.
    const itemIds = [...new Set(items.map((event) => String(event.data['id'])))];
    expect(itemIds).toHaveLength(4);
    for (const id of itemIds) {
      const states = items.filter((event) => event.data['id'] === id).map((event) => event.data['status']);
      expect(states.at(-1)).not.toBe('pending');
    }
    const last = events.at(-1)!;
    expect(last.data).toMatchObject({ status: 'draft', counts: { resolved: 3, unresolved: 1, pending: 0 } });
    const stored = (await h.api(`/api/generator/drafts/${draft.id}`)).json as Draft;
    expect(last.data['item_order']).toEqual(stored.items.map((item) => item.id));

    // Resuming after an event sends only what came after it.
    const middle = events[Math.floor(events.length / 2)]!;
    const resumed = await readEvents(draft.id, finished, middle.id);
    expect(resumed.every((event) => event.id > middle.id)).toBe(true);
    expect(resumed.at(-1)!.data['status']).toBe('draft');
  });

  it('cancels a generation while the model thinks: the draft ends as failed with the reason, and cancelling again is refused', async () => {
    model.failNext({ kind: 'delay', ms: 4_000 });
    const started = await post('/api/generator/drafts?wait=false', { target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'cancel me', controls: { track_count: 3 } } });
    const draft = started.json as Draft;
    const cancelled = await post(`/api/generator/drafts/${draft.id}/cancel`, {});
    expect(cancelled.status, cancelled.text).toBe(200);
    const events = await readEvents(draft.id, finished);
    expect(events.at(-1)!.data).toMatchObject({ status: 'failed', generation: { cancelled: true, error: { code: 'model_cancelled' } } });
    expect((await post(`/api/generator/drafts/${draft.id}/cancel`, {})).status).toBe(409);
  });
});

describe('regenerate and replace', () => {
  it('refills only the open slots in place, naming the kept songs to the model; then regenerates everything', async () => {
    model.failNext({ kind: 'content', content: JSON.stringify({ tracks: [song(onTidal[3]!), invented, song(onTidal[4]!)] }) });
    const made = await post('/api/generator/drafts', { target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'slots', controls: { track_count: 3 } } });
    const before = made.json as Draft;
    expect(before.items.map((item) => item.status)).toEqual(['resolved', 'unresolved', 'resolved']);
    const slot = before.items[1]!;

    model.failNext({ kind: 'content', content: JSON.stringify({ tracks: [song(onTidal[5]!)] }) });
    const requests = model.requests.length;
    const refilled = await post(`/api/generator/drafts/${before.id}/regenerate`, { scope: 'open_slots', prompt: 'slots again' });
    expect(refilled.status, refilled.text).toBe(200);
    const after = refilled.json as Draft;
    expect(after.items.map((item) => item.id)).toEqual(before.items.map((item) => item.id));
    expect(after.items[1]).toMatchObject({ id: slot.id, status: 'resolved' });
    expect(after.items[1]!.title.startsWith(onTidal[5]!.title)).toBe(true);
    expect([after.items[0], after.items[2]]).toEqual([before.items[0], before.items[2]]);
    const asked = JSON.stringify(model.requests.slice(requests).map((request) => request.body));
    expect(asked).toContain('do not propose them again');
    expect(asked).toContain(before.items[0]!.title);

    // Nothing open any more: refilling is refused; everything anew works.
    expect((await post(`/api/generator/drafts/${before.id}/regenerate`, { scope: 'open_slots', prompt: 'x' })).status).toBe(409);
    model.failNext({ kind: 'content', content: JSON.stringify({ tracks: [song(onTidal[6]!)] }) });
    const all = await post(`/api/generator/drafts/${before.id}/regenerate`, { scope: 'all', prompt: 'all again', controls: { track_count: 1 } });
    expect(all.status, all.text).toBe(200);
    const fresh = all.json as Draft;
    expect(fresh.items).toHaveLength(1);
    expect(fresh.items[0]!.id).not.toBe(before.items[0]!.id);
    expect(fresh).toMatchObject({ status: 'draft', controls: { track_count: 1 }, generation: { scope: 'all' } });
  });

  it('shows the scorer’s explanation, and replaces an item with another candidate or a search result — never with a URI the target did not return', async () => {
    // A song whose title has versions on TIDAL, so the search returns several candidates.
    model.failNext({ kind: 'content', content: JSON.stringify({ tracks: onTidal.slice(0, 3).map(song) }) });
    const made = await post('/api/generator/drafts', { target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'replace', controls: { track_count: 3 } } });
    const draft = made.json as Draft;
    const item = draft.items.find((entry) => entry.candidates.length > 1)!;
    expect(item, 'an item with several candidates').toBeDefined();
    expect(item.signals.length).toBeGreaterThan(0);
    expect(item.reason).toBeTruthy();
    const other = item.candidates.find((candidate) => candidate.uri !== item.target_uri)!;

    const bogus = await post(`/api/generator/drafts/${draft.id}/items/${item.id}/replace`, { target_uri: 'tidal:track:999999999' });
    expect(bogus.status).toBe(409);
    const replaced = await post(`/api/generator/drafts/${draft.id}/items/${item.id}/replace`, { target_uri: other.uri });
    expect(replaced.status, replaced.text).toBe(200);
    expect((replaced.json as Draft).items.find((entry) => entry.id === item.id)).toMatchObject({ target_uri: other.uri, status: 'resolved', approved: true, confidence: other.confidence });

    const wanted = onTidal[7]!;
    const text = `${wanted.title} ${artistName(wanted.artistKeys[0]!)}`;
    const found = ((await post(`/api/generator/drafts/${draft.id}/search`, { text })).json as { results: { uri: string; title: string }[] }).results.find((result) => result.title === wanted.title)!;
    expect((await post(`/api/generator/drafts/${draft.id}/items/${item.id}/replace`, { target_uri: found.uri, text: 'something unrelated' })).status).toBe(409);
    const bySearch = await post(`/api/generator/drafts/${draft.id}/items/${item.id}/replace`, { target_uri: found.uri, text });
    expect(bySearch.status, bySearch.text).toBe(200);
    expect((bySearch.json as Draft).items.find((entry) => entry.id === item.id)).toMatchObject({ target_uri: found.uri, reason: 'Replaced by you from a search.' });
  });
});

describe('the opt-in preference summary', () => {
  it('sends the top artists and genres of the library (counts only) when asked, and nothing of it otherwise', async () => {
    const client = new pg.Client({ connectionString: h.app.databaseUrl });
    await client.connect();
    try {
      // A playlist of the connected account, as the engine caches it after reading it.
      const tracks = [
        ...Array.from({ length: 3 }, (_, index) => ({ title: `Secret Song ${index}`, artist: 'Preferred Artist', genre: 'Folk', provider_uris: { tidal: `tidal:track:${index}` } })),
        { title: 'Other Secret Song', artist: 'Second Artist', genre: 'Jazz', provider_uris: {} },
      ];
      await client.query(`insert into playlist_cache (owner_id, provider_account_id, scope, payload, fetched_at) values ('local', $1, 'playlist:pref-test', $2::jsonb, now())`, [h.tidalAccount, JSON.stringify({ id: 'pref-test', name: 'My Private Playlist Name', tracks })]);
    } finally {
      await client.end();
    }
    const ask = async (usePreferences: boolean | undefined) => {
      model.failNext({ kind: 'content', content: JSON.stringify({ tracks: [song(onTidal[0]!)] }) });
      const before = model.requests.length;
      const made = await post('/api/generator/drafts', { target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'prefs', controls: { track_count: 1 } }, ...(usePreferences === undefined ? {} : { use_preferences: usePreferences }) });
      expect(made.status, made.text).toBe(201);
      return { sent: JSON.stringify(model.requests.slice(before).map((request) => request.body)), draft: made.json as Draft };
    };
    for (const optOut of [undefined, false]) {
      const { sent, draft } = await ask(optOut);
      expect(sent).not.toContain('Preferred Artist');
      expect(sent).not.toContain('leans towards');
      expect(draft.generation['preferences_used']).toBe(false);
    }
    const { sent, draft } = await ask(true);
    expect(sent).toContain('Preferred Artist (3)');
    expect(sent).toContain('Second Artist (1)');
    expect(sent).toContain('Folk (3)');
    expect(draft.generation['preferences_used']).toBe(true);
    // Counts of artists and genres only: no song, playlist or account.
    for (const secret of ['Secret Song', 'My Private Playlist Name', 'tidal:track:', h.tidalAccount]) expect(sent).not.toContain(secret);
  });
});
