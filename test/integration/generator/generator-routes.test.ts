import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startFakeChatModel, type FakeChatModel } from '../../fakes/chat-model/index.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The generator through the HTTP API, as a user drives it: a model (the fake OpenAI-compatible
 * server) proposes songs, each is resolved on the connected TIDAL account, and a private draft
 * comes back. The prompt carries a unique marker that must appear nowhere afterwards: no log
 * line, no database row of any table, no API answer.
 */

const MARKER = 'GEN-PRIVACY-MARKER-41d7e2';
const catalog = seedCatalog();
const artistName = (key: string) => catalog.artists.get(key)!.name;
const onTidal = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'tidal'));
const explicitSong = onTidal.find((track) => track.explicit)!;
const cleanSongs = onTidal.filter((track) => !track.explicit).slice(0, 3);

let h: MigrationHarness;
let model: FakeChatModel;
const answers: string[] = [];
/** The confirmed draft and its migration, scanned by the privacy test. */
let confirmedDraftId = '';
let confirmedJobId = '';

beforeAll(async () => {
  model = await startFakeChatModel({ dialect: 'llama.cpp' });
  h = await startMigrationHarness({
    spotifyLibrary: {},
    tidalLibrary: {},
    env: { OPL_GENERATOR_URL: model.url, OPL_GENERATOR_MODEL: 'fake-model' },
    overrides: { responseTap: (body) => answers.push(body) },
  });
}, 300_000);

afterAll(async () => {
  await h?.close();
  await model?.close();
});

const song = (track: (typeof onTidal)[number]) => ({ title: track.title, artist: artistName(track.artistKeys[0]!), album: null, release_year: null, reason: 'fits' });

function create(body: Record<string, unknown>) {
  return h.api('/api/generator/drafts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

interface Draft {
  id: string;
  status: string;
  counts: { resolved: number; unresolved: number; approved: number };
  generation: Record<string, unknown>;
  items: { status: string; approved: boolean; target_uri: string | null; title: string; artist: string; explicit: boolean | null; reason: string | null; intent: { title: string } | null }[];
}

describe('the generator', () => {
  it('says which model it uses', async () => {
    const config = await h.api('/api/generator/config');
    expect(config.status).toBe(200);
    expect(config.json).toMatchObject({ available: true, backend: 'openai_compatible', model: 'fake-model', demo: false, limits: { max_tracks: 50 } });
  });

  it('resolves the model’s songs on the target, keeps an invented one as unresolved, and honours the explicit filter', async () => {
    model.failNext(
      // (the probe is answered normally)
      { kind: 'content', content: JSON.stringify({ probe: 'opl-schema-ok' }) },
      {
        kind: 'content',
        content: JSON.stringify({ tracks: [...cleanSongs.map(song), song(explicitSong), { title: 'A Song Nobody Ever Recorded', artist: 'The Invented Band', album: null, release_year: null, reason: null }] }),
      },
    );
    const tidalBefore = h.tidal.requests.length;
    const answer = await create({
      target_provider: 'tidal',
      target_account_id: h.tidalAccount,
      generation: { prompt: `${MARKER} something for a rainy evening`, controls: { track_count: 5, explicit: 'exclude', moods: ['calm'] } },
    });
    expect(answer.status, answer.text).toBe(201);
    const draft = answer.json as Draft;
    expect(draft.status).toBe('draft');
    // In the model's words; the target's title may be a version of it (the seed has "Remastered" twins on TIDAL).
    // The explicit song stays in view, left out with the reason; the invented one stays unresolved.
    expect(draft.items.map((item) => [item.status, item.intent?.title])).toEqual([
      ...cleanSongs.map((track) => ['resolved', track.title]),
      ['removed', explicitSong.title],
      ['unresolved', 'A Song Nobody Ever Recorded'],
    ]);
    expect(draft.items[3]!.reason).toMatch(/^Left out: the target marks it explicit/);
    for (const item of draft.items.slice(0, 3)) expect(item.title.startsWith(item.intent!.title)).toBe(true);
    expect(draft.items.filter((item) => item.status === 'resolved').every((item) => item.target_uri?.startsWith('tidal:'))).toBe(true);
    expect(draft.items.at(-1)!.reason).toMatch(/^Not found on the target/);
    expect(draft.counts).toMatchObject({ resolved: 3, unresolved: 1 });
    expect(draft.generation).toMatchObject({ model: 'fake-model', output_mode: 'json_schema', asked: 5, proposed: 5, explicit_filtered: 1 });
    // Only searches reached TIDAL.
    const calls = h.tidal.requests.slice(tidalBefore);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((request) => request.method === 'GET' && /search/i.test(request.path))).toBe(true);

    const read = await h.api(`/api/generator/drafts/${draft.id}`);
    expect(read.json).toEqual(draft);
    const list = await h.api('/api/generator/drafts');
    expect((list.json as { drafts: { id: string }[] }).drafts.map((entry) => entry.id)).toContain(draft.id);
  });

  it('answers model failures with a problem that says what to do, without the prompt', async () => {
    model.failNext({ kind: 'status', status: 429, retryAfter: '90' });
    const limited = await create({ target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: `${MARKER} more`, controls: { track_count: 3 } } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('90');
    expect(limited.json).toMatchObject({ code: 'model_rate_limited' });

    model.failNext({ kind: 'content', content: 'no json' }, { kind: 'content', content: 'still none' });
    const unusable = await create({ target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: `${MARKER} more`, controls: { track_count: 3 } } });
    expect(unusable.status).toBe(502);
    expect(unusable.json).toMatchObject({ code: 'model_failed', reason: 'model_output_invalid' });
    expect(limited.text + unusable.text).not.toContain(MARKER);
  });

  it('refuses bad requests: an unknown account, a wrong provider, an over-long prompt, unknown controls', async () => {
    const unknown = await create({ target_provider: 'tidal', target_account_id: '00000000-0000-4000-8000-000000000000', generation: { prompt: 'x' } });
    expect(unknown.status).toBe(404);
    const mismatch = await create({ target_provider: 'spotify', target_account_id: h.tidalAccount, generation: { prompt: 'x' } });
    expect(mismatch.status).toBe(422);
    expect(mismatch.json).toMatchObject({ code: 'provider_unsupported' });
    const long = await create({ target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'x'.repeat(2_001) } });
    expect(long.status).toBe(400);
    const extra = await create({ target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'x', controls: { track_count: 51 } } });
    expect(extra.status).toBe(400);
    const unknownControl = await create({ target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'x', controls: { url: 'http://x' } } });
    expect(unknownControl.status).toBe(400);
    expect((await h.api('/api/generator/drafts/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('discards a draft', async () => {
    const made = await create({ target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'Golden Hour', controls: { track_count: 2 } } });
    expect(made.status, made.text).toBe(201);
    const id = (made.json as Draft).id;
    expect((await h.api(`/api/generator/drafts/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await h.api(`/api/generator/drafts/${id}`)).status).toBe(404);
  });
});

describe('editing and confirming a draft', () => {
  it('approves, removes and renames, then confirms into a migration that writes the approved tracks once, in order', async () => {
    const songs = cleanSongs.slice(0, 3);
    // The model quotes the request in one reason (small models do): that reason is dropped, never stored.
    model.failNext({ kind: 'content', content: JSON.stringify({ tracks: [...songs.map(song), { title: 'Nobody Knows This One', artist: 'Invented', album: null, release_year: null, reason: `You asked for "${MARKER} confirm me"` }] }) });
    const made = await create({ target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: `${MARKER} confirm me`, controls: { track_count: 4 } } });
    expect(made.status, made.text).toBe(201);
    let draft = made.json as Draft & { items: { id: string }[] };
    const [first, second, third, invented] = draft.items as (Draft['items'][number] & { id: string })[];
    const patch = (path: string, body: unknown) => h.api(path, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    expect((await patch(`/api/generator/drafts/${draft.id}/items/${invented!.id}`, { approved: true })).status).toBe(409);
    expect((await patch(`/api/generator/drafts/${draft.id}/items/${first!.id}`, {})).status).toBe(400);
    draft = (await patch(`/api/generator/drafts/${draft.id}/items/${second!.id}`, { removed: true })).json as typeof draft;
    draft = (await patch(`/api/generator/drafts/${draft.id}/items/${first!.id}`, { approved: true })).json as typeof draft;
    draft = (await patch(`/api/generator/drafts/${draft.id}/items/${third!.id}`, { approved: true })).json as typeof draft;
    const renamed = await patch(`/api/generator/drafts/${draft.id}`, { name: 'Rainy Evening Mix' });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ name: 'Rainy Evening Mix', counts: { approved: 2 } });

    const confirm = () => h.api(`/api/generator/drafts/${draft.id}/confirm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const confirmed = await confirm();
    expect(confirmed.status, confirmed.text).toBe(201);
    const job = (confirmed.json as { job: { id: string; source_kind: string; source_provider: string } }).job;
    confirmedDraftId = draft.id;
    confirmedJobId = job.id;
    expect(job).toMatchObject({ source_kind: 'generated', source_provider: 'generated', source_account_id: draft.id });
    const done = await h.waitForJob(job.id, (state) => state.status === 'completed');
    expect(done.outcome).toBe('completed');

    const written = h.tidal.playlistsOf(h.tidalUser.userId).filter((playlist) => playlist.name === 'Rainy Evening Mix');
    expect(written).toHaveLength(1);
    const approvedIds = [first!.target_uri, third!.target_uri].map((uri) => uri!.split(':').pop());
    expect((h.tidal.playlistEntries(written[0]!.id) ?? []).map((entry) => entry.id)).toEqual(approvedIds);

    // Twice: the same job, nothing written again; the confirmed draft is frozen and stays.
    const again = await confirm();
    expect(again.status).toBe(200);
    expect((again.json as { job: { id: string } }).job.id).toBe(job.id);
    expect(h.tidal.playlistsOf(h.tidalUser.userId).filter((playlist) => playlist.name === 'Rainy Evening Mix')).toHaveLength(1);
    expect((await patch(`/api/generator/drafts/${draft.id}`, { name: 'Changed' })).status).toBe(409);
    expect((await h.api(`/api/generator/drafts/${draft.id}`, { method: 'DELETE' })).status).toBe(409);
    expect((await h.api(`/api/generator/drafts/${draft.id}`)).json).toMatchObject({ status: 'confirmed', migration_job_id: job.id });
  });

  it('searches the target, adds a found song (checked by the same search), and reorders', async () => {
    model.failNext({ kind: 'content', content: JSON.stringify({ tracks: cleanSongs.slice(0, 2).map(song) }) });
    const made = await create({ target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'edit me', controls: { track_count: 2 } } });
    const draft = made.json as Draft & { id: string; items: { id: string }[] };
    const post = (path: string, body: unknown) => h.api(`/api/generator/drafts/${draft.id}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const wanted = cleanSongs[2]!;
    const found = await post('/search', { text: `${wanted.title} ${artistName(wanted.artistKeys[0]!)}` });
    expect(found.status, found.text).toBe(200);
    const results = (found.json as { results: { uri: string; title: string }[] }).results;
    const pick = results.find((result) => result.title === wanted.title)!;
    expect(pick.uri).toMatch(/^tidal:/);

    expect((await post('/items', { text: 'something else entirely', target_uri: pick.uri })).status).toBe(409);
    const added = await post('/items', { text: `${wanted.title} ${artistName(wanted.artistKeys[0]!)}`, target_uri: pick.uri });
    expect(added.status, added.text).toBe(200);
    const withAdded = added.json as { items: { id: string; approved: boolean; target_uri: string | null; reason: string | null }[] };
    expect(withAdded.items.at(-1)).toMatchObject({ target_uri: pick.uri, approved: true, reason: 'Added by you from a search.' });
    expect((await post('/items', { text: `${wanted.title} ${artistName(wanted.artistKeys[0]!)}`, target_uri: pick.uri })).status).toBe(409);

    const ids = withAdded.items.map((item) => item.id);
    const reversed = await post('/reorder', { item_ids: [...ids].reverse() });
    expect(reversed.status, reversed.text).toBe(200);
    expect((reversed.json as { items: { id: string }[] }).items.map((item) => item.id)).toEqual([...ids].reverse());
    expect((await post('/reorder', { item_ids: ids.slice(1) })).status).toBe(409);
    expect((await post('/reorder', { item_ids: [ids[0], ids[0], ids[1]] })).status).toBe(409);
  });

  it('refuses to confirm a draft with nothing approved', async () => {
    model.failNext({ kind: 'content', content: JSON.stringify({ tracks: [{ title: 'Nobody Knows This One', artist: 'Invented', album: null, release_year: null, reason: null }] }) });
    const made = await create({ target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'nothing', controls: { track_count: 1 } } });
    const refused = await h.api(`/api/generator/drafts/${(made.json as Draft).id}/confirm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({ code: 'invalid_selection' });
  });
});

describe('expiry', () => {
  it('removes unconfirmed drafts past their time, and keeps confirmed ones (their migration’s source)', async () => {
    const made = await create({ target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'Golden Hour', controls: { track_count: 2 } } });
    const id = (made.json as Draft).id;
    const client = new pg.Client({ connectionString: h.app.databaseUrl });
    await client.connect();
    try {
      await client.query(`update generation_draft set expires_at = now() - interval '1 minute'`);
      expect((await h.api(`/api/generator/drafts/${id}`)).status).toBe(404);
      const confirmed = await client.query<{ n: number }>(`select count(*)::int as n from generation_draft where status = 'confirmed'`);
      expect(confirmed.rows[0]!.n).toBeGreaterThan(0);
      expect(await h.app.app.services.generator.purgeExpired(100)).toBeGreaterThan(0);
      const left = await client.query<{ status: string }>(`select distinct status from generation_draft`);
      expect(left.rows.map((row) => row.status)).toEqual(['confirmed']);
    } finally {
      await client.end();
    }
  });
});

/** The whole text of an event stream until it has been quiet for a moment (the events are all persisted rows, so they come at once). */
async function streamText(path: string): Promise<string> {
  const controller = new AbortController();
  const response = await fetch(`${h.baseUrl}${path}`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
  expect(response.status).toBe(200);
  const decoder = new TextDecoder();
  let text = '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), new Promise<null>((resolve) => setTimeout(() => resolve(null), 1_500))]);
      if (next === null || next.done) break;
      text += decoder.decode(next.value, { stream: true });
    }
  } finally {
    controller.abort();
  }
  return text;
}

describe('privacy', () => {
  it('never kept the prompt after generate, edit, confirm and migrate: not in a log line, a row of any table, an event, a report, an error or an answer', async () => {
    expect(confirmedDraftId).not.toBe('');
    // More edits with the prompt: a generation followed live, a regeneration of its open slots, a replacement.
    model.failNext({ kind: 'content', content: JSON.stringify({ tracks: [song(cleanSongs[0]!), { title: 'Nobody Knows This One', artist: 'Invented', album: null, release_year: null, reason: null }] }) });
    const live = await h.api('/api/generator/drafts?wait=false', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: `${MARKER} live`, controls: { track_count: 2 } } }),
    });
    expect(live.status, live.text).toBe(202);
    const liveId = (live.json as Draft).id;
    for (let attempt = 0; attempt < 100 && ((await h.api(`/api/generator/drafts/${liveId}`)).json as Draft).status === 'generating'; attempt++) await new Promise((resolve) => setTimeout(resolve, 100));
    model.failNext({ kind: 'content', content: JSON.stringify({ tracks: [song(cleanSongs[1]!)] }) });
    const regenerated = await h.api(`/api/generator/drafts/${liveId}/regenerate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scope: 'open_slots', prompt: `${MARKER} again` }) });
    expect(regenerated.status, regenerated.text).toBe(200);
    model.failNext({ kind: 'status', status: 503 }, { kind: 'status', status: 503 });
    const failed = await h.api(`/api/generator/drafts/${liveId}/regenerate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scope: 'all', prompt: `${MARKER} failing` }) });
    expect(failed.status, failed.text).toBe(200);
    expect((failed.json as Draft).generation).toMatchObject({ error: { code: 'model_failed' } });

    const streamed = [
      await streamText(`/api/generator/drafts/${liveId}/events`),
      await streamText(`/api/generator/drafts/${confirmedDraftId}/events`),
      await streamText(`/api/migrations/${confirmedJobId}/events`),
    ].join('\n');
    expect(streamed).toContain('event: item');
    const reports = [(await h.api(`/api/migrations/${confirmedJobId}/report?format=json`)).text, (await h.api(`/api/migrations/${confirmedJobId}/report?format=csv`)).text].join('\n');
    expect(reports).toContain('tidal:');
    for (const text of [streamed, reports, failed.text]) expect(text).not.toContain(MARKER);

    const client = new pg.Client({ connectionString: h.app.databaseUrl });
    await client.connect();
    try {
      const tables = await client.query<{ table_schema: string; table_name: string }>(
        `select table_schema, table_name from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
      );
      expect(tables.rows.length).toBeGreaterThan(10);
      for (const table of tables.rows) {
        const found = await client.query(`select count(*)::int as n from "${table.table_schema}"."${table.table_name}" t where t::text like $1`, [`%${MARKER}%`]);
        expect(found.rows[0].n, `${table.table_schema}.${table.table_name}`).toBe(0);
      }
    } finally {
      await client.end();
    }
    expect(h.app.logs.join('\n')).not.toContain(MARKER);
    expect(answers.join('\n')).not.toContain(MARKER);
    // The model did receive it: that is the only place it goes.
    expect(JSON.stringify(model.requests.map((request) => request.body))).toContain(MARKER);
  });

});

describe('without a configured model', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await startTestApp();
  });
  afterAll(() => bare?.close());

  it('explains how to configure one, and refuses to generate with that reason', async () => {
    const address = bare.app.http!.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const config = (await (await fetch(`${base}/api/generator/config`)).json()) as { available: boolean; message: string };
    expect(config.available).toBe(false);
    expect(config.message).toMatch(/OPL_GENERATOR_URL.*OPL_GENERATOR_MODEL/s);
    const refused = await fetch(`${base}/api/generator/drafts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ target_provider: 'tidal', target_account_id: '00000000-0000-4000-8000-000000000000', generation: { prompt: 'x' } }),
    });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ code: 'generator_unavailable', action: { type: 'configure_generator' } });
  });
});
