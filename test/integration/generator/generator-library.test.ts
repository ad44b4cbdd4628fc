import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startFakeChatModel, type FakeChatModel } from '../../fakes/chat-model/index.ts';
import { readLibraryTracks } from '../../../core/services/generator/library-tracks.ts';
import { librarySourcesSchema } from '../../../core/services/generator/index.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';

/**
 * Library-grounded generation: the model may only choose among the listener's own tracks (here the
 * cached read of a Spotify playlist), offered as local ids with title and artist. Whatever else it
 * answers is discarded and shown as an open slot; the chosen tracks resolve through the match
 * service — with no search at all when the target id is known (the same service, or the identity
 * graph). Another owner's library is never offered.
 */

const catalog = seedCatalog();
const artistName = (key: string) => catalog.artists.get(key)!.name;
const mine = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal') && !track.explicit && track.isrc !== null).slice(0, 8);
const OTHER_OWNER = 'another-owner';
const OTHER_TITLE = 'Zyzzyva Secret Song Of Another Owner';

let h: MigrationHarness;
let model: FakeChatModel;

interface Item {
  id: string;
  status: string;
  target_uri: string | null;
  title: string;
  artist: string;
  reason: string | null;
}
interface Draft {
  id: string;
  status: string;
  generation: Record<string, unknown>;
  items: Item[];
}

function post(path: string, body: unknown) {
  return h.api(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** Search requests a fake received: a text search, or TIDAL's ISRC lookup (`/tracks?filter[isrc]=…`). */
const searchesOf = (requests: readonly { path: string; query: Record<string, string> }[]) =>
  requests.filter((request) => /search/i.test(request.path) || Object.keys(request.query).some((key) => key.includes('isrc'))).length;

/** The offered list and the schema of the last grounded request the model received. */
function lastOffer(): { lines: Map<string, string>; enumIds: string[]; maxItems: number; text: string } {
  const body = model.requests.at(-1)!.body as { messages: { content: string }[]; response_format: { json_schema?: { schema: { properties: { tracks: { maxItems: number; items: { properties: { id: { enum: string[] } } } } } } } } };
  const text = body.messages.map((message) => message.content).join('\n');
  const lines = new Map([...text.matchAll(/^(t\d+): (.+)$/gm)].map((match) => [match[1]!, match[2]!]));
  const tracks = body.response_format.json_schema!.schema.properties.tracks;
  return { lines, enumIds: tracks.items.properties.id.enum, maxItems: tracks.maxItems, text };
}

beforeAll(async () => {
  model = await startFakeChatModel({ dialect: 'llama.cpp' });
  h = await startMigrationHarness({
    spotifyLibrary: { playlists: [{ name: 'My Evening Songs', trackKeys: mine.map((track) => track.key) }] },
    tidalLibrary: {},
    env: { OPL_GENERATOR_URL: model.url, OPL_GENERATOR_MODEL: 'fake-model' },
  });
  // The listener's library as the engine knows it: the cached read of the playlist.
  const { json } = await h.api(`/api/playlists?account_id=${h.spotifyAccount}`);
  const playlist = (json as { playlists: { id: string; name: string }[] }).playlists.find((entry) => entry.name === 'My Evening Songs')!;
  expect((await h.api(`/api/playlists/${encodeURIComponent(playlist.id)}?account_id=${h.spotifyAccount}`)).status).toBe(200);
  // Another owner's cached library, in the same database.
  const client = new pg.Client({ connectionString: h.app.databaseUrl });
  await client.connect();
  try {
    const [account] = (await client.query(`insert into provider_account (owner_id, provider, display_name) values ($1, 'spotify', 'Other') returning id`, [OTHER_OWNER])).rows as { id: string }[];
    const payload = { id: 'p-other', name: 'Other', tracks: [{ title: OTHER_TITLE, artist: 'Other Artist', isrc: 'XXOTH2400001', provider_uris: { spotify: 'spotify:track:0th3r0wn3r0000000000000' } }] };
    await client.query(`insert into playlist_cache (owner_id, provider_account_id, scope, payload, fetched_at) values ($1, $2, 'playlist:p-other', $3::jsonb, now())`, [OTHER_OWNER, account!.id, JSON.stringify(payload)]);
  } finally {
    await client.end();
  }
  // The first generation probes the model server once.
  const warm = await post('/api/generator/drafts', { target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'warm up', controls: { track_count: 1 } } });
  expect(warm.status, warm.text).toBe(201);
}, 300_000);

afterAll(async () => {
  await h?.close();
  await model?.close();
});

describe('library-grounded generation', () => {
  it('offers only the owner’s own tracks, as local ids constrained by an enum, and resolves on the same service with no search', async () => {
    const spotifyBefore = h.spotify.requests.length;
    const word = mine[2]!.title.split(/\s+/)[0]!;
    const made = await post('/api/generator/drafts', {
      target_provider: 'spotify',
      target_account_id: h.spotifyAccount,
      generation: { prompt: `something like ${word}`, controls: { track_count: 3 } },
      grounding: 'library',
      library_sources: { seed: 7 },
    });
    expect(made.status, made.text).toBe(201);
    const draft = made.json as Draft;
    const offer = lastOffer();
    // Exactly the owner's songs, no one else's, and no provider id in what the model saw.
    expect([...offer.lines.values()].map((line) => line.split(' — ')[0]).sort()).toEqual(mine.map((track) => track.title).sort());
    expect(offer.text).not.toContain(OTHER_TITLE);
    expect(offer.text).not.toMatch(/spotify:|open\.spotify|[A-Z]{2}[A-Z0-9]{3}\d{7}/);
    expect(offer.enumIds).toEqual([...offer.lines.keys()]);
    expect(offer.maxItems).toBe(3);
    // Each chosen track is the library's own Spotify track, found without searching.
    expect(draft.items).toHaveLength(3);
    for (const item of draft.items) {
      expect(item.status).toBe('resolved');
      expect(item.target_uri).toMatch(/^spotify:track:/);
      expect(mine.some((track) => track.title === item.title && artistName(track.artistKeys[0]!) === item.artist.split(',')[0])).toBe(true);
    }
    expect(draft.generation).toMatchObject({ searches: 0, grounding: { mode: 'library', offered: mine.length, sources: { seed: 7 } } });
    expect(searchesOf(h.spotify.requests.slice(spotifyBefore))).toBe(0);
  });

  it('searches another service only for tracks with no known id there, then never again for them (the identity graph)', async () => {
    const ask = { target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'evening', controls: { track_count: 4 } }, grounding: 'library', library_sources: { seed: 11 } };
    const before = h.tidal.requests.length;
    const first = await post('/api/generator/drafts', ask);
    expect(first.status, first.text).toBe(201);
    const firstDraft = first.json as Draft;
    expect(firstDraft.items.filter((item) => item.status === 'resolved')).toHaveLength(4);
    const firstSearches = searchesOf(h.tidal.requests.slice(before));
    expect(firstSearches).toBeGreaterThan(0);
    expect(firstDraft.generation['searches']).toBe(firstSearches);

    // The same request again (same seed, same choices): every target id is known now.
    const middle = h.tidal.requests.length;
    const again = await post('/api/generator/drafts', ask);
    const secondDraft = again.json as Draft;
    expect(secondDraft.items.map((item) => item.target_uri)).toEqual(firstDraft.items.map((item) => item.target_uri));
    expect(secondDraft.generation['searches']).toBe(0);
    expect(searchesOf(h.tidal.requests.slice(middle))).toBe(0);
  });

  it('discards an invented id, a provider id and a URL, reports each, and refills those slots from the library', async () => {
    model.failNext({
      kind: 'content',
      content: JSON.stringify({ tracks: [{ id: 't1', reason: 'fits' }, { id: 't999', reason: null }, { id: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC', reason: null }, { id: 'https://evil.example/steal', reason: null }] }),
    });
    const made = await post('/api/generator/drafts', { target_provider: 'spotify', target_account_id: h.spotifyAccount, generation: { prompt: 'four songs', controls: { track_count: 4 } }, grounding: 'library' });
    expect(made.status, made.text).toBe(201);
    const draft = made.json as Draft;
    const offer = lastOffer();
    expect(draft.items.map((item) => item.status)).toEqual(['resolved', 'unresolved', 'unresolved', 'unresolved']);
    expect(draft.items[0]!.title).toBe(offer.lines.get('t1')!.split(' — ')[0]);
    expect(draft.items.slice(1).map((item) => item.reason)).toEqual([
      expect.stringMatching(/^Discarded: the model answered with an id that was not offered/),
      expect.stringMatching(/^Discarded: the model answered with a provider id/),
      expect.stringMatching(/^Discarded: the model answered with a URL/),
    ]);
    expect(draft.generation).toMatchObject({ discarded: 3, resolved: 1, unresolved: 3 });
    expect((draft.generation['notes'] as { code: string }[]).filter((note) => note.code === 'id_not_offered')).toHaveLength(3);
    expect(made.text).not.toMatch(/evil\.example|4uLU6hMCjMI75M1A2tKUQC|t999/);

    // Regenerating the open slots stays grounded (the draft's own mode) and does not offer the kept song again.
    const refilled = await post(`/api/generator/drafts/${draft.id}/regenerate`, { scope: 'open_slots', prompt: 'four songs again' });
    expect(refilled.status, refilled.text).toBe(200);
    const after = refilled.json as Draft;
    const second = lastOffer();
    expect([...second.lines.values()].some((line) => line.startsWith(`${draft.items[0]!.title} — `))).toBe(false);
    expect(second.maxItems).toBe(3);
    expect(after.items.map((item) => item.id)).toEqual(draft.items.map((item) => item.id));
    expect(after.items[0]).toEqual(draft.items[0]);
    expect(after.items.map((item) => item.status)).toEqual(['resolved', 'resolved', 'resolved', 'resolved']);
    expect(new Set(after.items.map((item) => item.target_uri)).size).toBe(4);
    expect(after.generation).toMatchObject({ scope: 'open_slots', grounding: { mode: 'library' }, searches: 0 });
  });

  it('refuses a grounded request when no song can be offered, and never reads another owner’s library', async () => {
    const none = await post('/api/generator/drafts', {
      target_provider: 'spotify',
      target_account_id: h.spotifyAccount,
      generation: { prompt: 'x', controls: { track_count: 2, explicit: 'only' } },
      grounding: 'library',
    });
    expect(none.status).toBe(422);
    expect(none.json).toMatchObject({ code: 'unprocessable_content', reason: 'library_empty' });
    const sources = librarySourcesSchema.parse({});
    const client = new pg.Client({ connectionString: h.app.databaseUrl });
    await client.connect();
    try {
      const run = async (statement: { text: string; values: readonly unknown[] }) => {
        let index = 0;
        return (await client.query(statement.text.replace(/\?/g, () => `$${++index}`), [...statement.values])).rows as Record<string, unknown>[];
      };
      const theirs = await readLibraryTracks(run, null, OTHER_OWNER, sources);
      expect(theirs.map((entry) => entry.track.title)).toEqual([OTHER_TITLE]);
      const ours = await readLibraryTracks(run, null, 'local', sources);
      expect(ours.map((entry) => entry.track.title)).not.toContain(OTHER_TITLE);
      expect(ours.length).toBeGreaterThanOrEqual(mine.length);
    } finally {
      await client.end();
    }
  });
});

describe('privacy in library-grounded mode', () => {
  it('keeps no trace of the prompt after a grounded generation and regeneration: no table, no log line, no answer', async () => {
    const MARKER = 'GROUNDED-PRIVACY-MARKER-93be01';
    // The model quotes the request in its reason (small models do): the reason is dropped, never stored.
    model.failNext({ kind: 'content', content: JSON.stringify({ tracks: [{ id: 't1', reason: `Picked for "${MARKER} songs"` }, { id: MARKER }] }) });
    const made = await post('/api/generator/drafts', { target_provider: 'spotify', target_account_id: h.spotifyAccount, generation: { prompt: `${MARKER} songs`, controls: { track_count: 2 } }, grounding: 'library' });
    expect(made.status, made.text).toBe(201);
    const draft = made.json as Draft;
    const again = await post(`/api/generator/drafts/${draft.id}/regenerate`, { scope: 'open_slots', prompt: `${MARKER} again` });
    expect(again.status, again.text).toBe(200);
    for (const text of [made.text, again.text, (await h.api(`/api/generator/drafts/${draft.id}`)).text]) expect(text).not.toContain(MARKER);
    const client = new pg.Client({ connectionString: h.app.databaseUrl });
    await client.connect();
    try {
      const tables = await client.query<{ table_schema: string; table_name: string }>(`select table_schema, table_name from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`);
      for (const table of tables.rows) {
        const found = await client.query<{ n: number }>(`select count(*)::int as n from "${table.table_schema}"."${table.table_name}" t where t::text like $1`, [`%${MARKER}%`]);
        expect(found.rows[0]!.n, `${table.table_schema}.${table.table_name}`).toBe(0);
      }
    } finally {
      await client.end();
    }
    expect(h.app.logs.join('\n')).not.toContain(MARKER);
    expect(JSON.stringify(model.requests.map((request) => request.body))).toContain(MARKER);
  });
});

describe('library sources', () => {
  it('draws on imports and snapshots too, each source on its own when chosen', async () => {
    const bundle = JSON.stringify({
      $schema: 'https://open-playlist.org/schemas/export/open-playlist-bundle-v1.json',
      schema_version: 1,
      source_provider: null,
      playlists: [{ name: 'Imported', tracks: [{ title: 'Imported Only Song', artist: 'Import Artist' }] }],
    });
    const imported = await h.api(`/api/imports/preview?filename=${encodeURIComponent('Mine.json')}`, { method: 'POST', body: bundle });
    expect(imported.status, imported.text).toBe(201);
    const onlyImports = await post('/api/generator/drafts', {
      target_provider: 'tidal',
      target_account_id: h.tidalAccount,
      generation: { prompt: 'imported', controls: { track_count: 1 } },
      grounding: 'library',
      library_sources: { connections: false, imports: true, snapshots: false },
    });
    expect(onlyImports.status, onlyImports.text).toBe(201);
    expect([...lastOffer().lines.values()]).toEqual(['Imported Only Song — Import Artist']);

    // A snapshot of the Spotify playlist: its tracks are offered from the archive.
    const { json } = await h.api(`/api/playlists?account_id=${h.spotifyAccount}`);
    const playlist = (json as { playlists: { id: string; name: string }[] }).playlists.find((entry) => entry.name === 'My Evening Songs')!;
    const profile = await h.api('/api/snapshots/profiles', { method: 'POST', body: JSON.stringify({ name: 'Evening', selection: { accounts: [{ account_id: h.spotifyAccount, collections: [playlist.id] }] } }) });
    expect(profile.status, profile.text).toBe(201);
    const queued = await h.api('/api/snapshots', { method: 'POST', body: JSON.stringify({ profile_id: (profile.json as { id: string }).id }) });
    expect(queued.status, queued.text).toBe(202);
    let status = 'queued';
    while (['queued', 'running'].includes(status)) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = ((await h.api(`/api/snapshots/${(queued.json as { id: string }).id}`)).json as { status: string }).status;
    }
    expect(status).toBe('completed');
    const onlySnapshots = await post('/api/generator/drafts', {
      target_provider: 'spotify',
      target_account_id: h.spotifyAccount,
      generation: { prompt: 'from the snapshot', controls: { track_count: 2 } },
      grounding: 'library',
      library_sources: { connections: false, imports: false, snapshots: true },
    });
    expect(onlySnapshots.status, onlySnapshots.text).toBe(201);
    expect([...lastOffer().lines.values()].map((line) => line.split(' — ')[0]).sort()).toEqual(mine.map((track) => track.title).sort());
    // Snapshot tracks keep their Spotify identity: the same service needs no search.
    expect((onlySnapshots.json as Draft).items.map((item) => item.status)).toEqual(['resolved', 'resolved']);
    expect((onlySnapshots.json as Draft).generation).toMatchObject({ searches: 0 });
  });
});

describe('cancelling a generation', () => {
  const finishedDraft = async (draftId: string): Promise<Draft> => {
    for (;;) {
      const { json } = await h.api(`/api/generator/drafts/${draftId}`);
      if ((json as Draft).status !== 'generating') return json as Draft;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it('aborts the model request in flight', async () => {
    // The model would take a minute: the cancel must not wait for it (the test's bound is far shorter).
    model.failNext({ kind: 'delay', ms: 60_000 });
    const asked = model.requests.length;
    const started = await post('/api/generator/drafts?wait=false', { target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'slow model', controls: { track_count: 2 } } });
    const draft = started.json as Draft;
    while (model.requests.length === asked) await new Promise((resolve) => setTimeout(resolve, 50));
    const request = model.requests[asked]!;
    expect((await post(`/api/generator/drafts/${draft.id}/cancel`, {})).status).toBe(200);
    const ended = await finishedDraft(draft.id);
    expect(ended).toMatchObject({ status: 'failed', generation: { cancelled: true, error: { code: 'model_cancelled' } } });
    while (!request.abandoned) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(request.abandoned).toBe(true);
  }, 20_000);

  it('aborts a target search in flight: the provider request is dropped and the song stays "not searched"', async () => {
    const song = mine[0]!;
    model.failNext({ kind: 'content', content: JSON.stringify({ tracks: [{ title: `${song.title} (hung)`, artist: artistName(song.artistKeys[0]!), album: null, release_year: null, reason: null }] }) });
    // TIDAL never answers this search (its own timeout is 20 s): only an abort ends it sooner.
    h.tidal.failNext({ kind: 'timeout', method: 'GET', pathPrefix: '/v2/searchResults' });
    const before = h.tidal.requests.length;
    const started = await post('/api/generator/drafts?wait=false', { target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'hung search', controls: { track_count: 1 } } });
    const draft = started.json as Draft;
    const searching = () => h.tidal.requests.slice(before).find((request) => /searchResults/.test(request.path));
    while (!searching()) await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await post(`/api/generator/drafts/${draft.id}/cancel`, {})).status).toBe(200);
    const ended = await finishedDraft(draft.id);
    expect(ended.status).toBe('draft');
    expect(ended.generation).toMatchObject({ cancelled: true });
    expect(ended.items.map((item) => [item.status, item.reason])).toEqual([['unresolved', 'Not searched: you cancelled the generation.']]);
    const hung = searching()!;
    while (!hung.abandoned) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hung.status).toBe(0);
  }, 15_000);
});
