import type { Track } from '@opl/plugin-sdk';
import { trackSchema } from '@opl/plugin-sdk/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MatchService, sourceKeyOf, type GraphTransaction, type MatchTarget } from '../../../core/services/matching/index.ts';
import { createPublisher, createTestRegistry, providerManifestSource, publishTestPlugin, type TestRegistry } from '../support/plugin-registry.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

type TrackFields = Partial<Track> & { title: string; artist: string };
const track = (fields: TrackFields): Track => trackSchema.parse({ artists: [fields.artist], ...fields });

/**
 * A provider whose searchTracks answers from a catalogue inside the plugin and counts its
 * searches per mode; testConnection reports the counts. Titles containing "throttle" or
 * "expired" make it throw RateLimited or AuthExpired, as a real adapter would.
 */
function searchingProviderCode(catalogue: readonly TrackFields[]): string {
  return `const CATALOGUE = ${JSON.stringify(catalogue.map((t) => ({ artists: [t.artist], ...t })))};
const counts = { isrc: 0, text: 0 };
function typed(type, message, retry) { const error = new Error(message); error.type = type; if (retry !== undefined) error.retryAfterSeconds = retry; return error; }
export default { mark: 'opl.plugin/v1', kind: 'provider', operations: {
  async testConnection() { return { ok: true, account_id: 'probe', display_name: JSON.stringify(counts) }; },
  async searchTracks(input) {
    counts[input.mode] += 1;
    const q = input.query;
    const title = (q.title || '').toLowerCase();
    if (title.includes('throttle')) throw typed('RateLimited', 'slow down', 30);
    if (title.includes('expired')) throw typed('AuthExpired', 'token expired');
    const found = input.mode === 'isrc'
      ? CATALOGUE.filter((t) => t.isrc && t.isrc === q.isrc)
      : CATALOGUE.filter((t) => title.length > 0 && t.title.toLowerCase().includes(title));
    return { candidates: found.slice(0, input.limit) };
  },
} };
`;
}

const ALPHA: TrackFields[] = [{ id: 'a-strobe', title: 'Strobe', artist: 'deadmau5', album: 'For Lack of a Better Name', duration_s: 637 }];
const BETA: TrackFields[] = [
  { id: 'b-strobe', title: 'Strobe', artist: 'deadmau5', album: 'For Lack of a Better Name', duration_s: 636 },
  { id: 'b-svefn', title: 'Svefn-g-englar', artist: 'Sigur Rós', album: 'Ágætis byrjun', duration_s: 604 },
  { id: 'b-hoppi', title: 'Hoppípolla', artist: 'Sigur Rós', album: 'Takk...', duration_s: 270 },
  { id: 'b-rare', title: 'Rare B-Side', artist: 'Obscure Band', album: 'Demos', duration_s: 200 },
  { id: 'b-local', title: 'Home Recording Song', artist: 'Local Artist', album: null, duration_s: 180 },
  { id: 'b-loveme', title: 'Love Me', artist: 'The 1975', album: 'I like it when you sleep', duration_s: 261 },
];
const GAMMA: TrackFields[] = [
  { id: 'g-midnight', title: 'Midnight City', artist: 'M83', album: "Hurry Up, We're Dreaming", duration_s: 244, isrc: 'FRUM71100001' },
  { id: 'g-weightless', title: 'Weightless', artist: 'Marconi Union', album: 'Weightless', duration_s: 480, isrc: 'GBUM71200002' },
  { id: 'g-teardrop', title: 'Teardrop', artist: 'Massive Attack', album: 'Mezzanine', duration_s: 330 },
  { id: 'g-unfinished', title: 'Unfinished Sympathy', artist: 'Massive Attack', album: 'Blue Lines', duration_s: 308, isrc: 'GBAAA9100003' },
  // One recording on two releases: the album track and a compilation copy with the same ISRC.
  { id: 'g-hyper-album', title: 'Hyperballad', artist: 'Björk', album: 'Post', duration_s: 321, isrc: 'QZCOMP000001' },
  { id: 'g-hyper-comp', title: 'Hyperballad', artist: 'Björk', album: 'Greatest Hits', duration_s: 321, isrc: 'QZCOMP000001' },
];

describe('match service (real engine, real PostgreSQL, signed test providers)', () => {
  let registry: TestRegistry;
  let app: TestApp;
  let matching: MatchService;
  let execute: (statement: { text: string; values: unknown[] }) => Promise<Record<string, unknown>[]>;
  let transaction: GraphTransaction;
  const target = (provider: 'alpha' | 'beta' | 'gamma', accountId = 'acct-A'): MatchTarget => ({ provider, pluginId: `com.example.${provider}`, accountId });
  const searchCounts = async (provider: string): Promise<{ isrc: number; text: number }> => {
    const result = await app.app.services.plugins.host.call(`com.example.${provider}`, 'testConnection', {});
    return JSON.parse(result.display_name!) as { isrc: number; text: number };
  };
  const totalSearches = async (provider: string) => {
    const counts = await searchCounts(provider);
    return counts.isrc + counts.text;
  };

  beforeAll(async () => {
    const publisher = createPublisher('matching-publisher');
    registry = await createTestRegistry([publisher]);
    const publish = (name: string, catalogue: TrackFields[], searchModes: string[]) =>
      publishTestPlugin(registry, {
        manifestSource: providerManifestSource(`com.example.${name}`, '1.0.0', publisher.keyId, {
          provider: {
            name,
            display_name: `Test ${name}`,
            capabilities: ['READ_PLAYLISTS', 'READ_TRACKS'],
            attributes: { has_isrc: true, official: true, search_modes: searchModes },
            write_constraints: {},
            auth: [{ kind: 'LONG_LIVED_TOKEN' }],
          },
        }),
        code: searchingProviderCode(catalogue),
        publisher,
      });
    await publish('alpha', ALPHA, ['isrc', 'text']);
    await publish('beta', BETA, ['text']);
    await publish('gamma', GAMMA, ['isrc', 'text']);
    app = await startTestApp(registry.env);
    matching = app.app.services.matching;
    const connection = app.app.services.database.orm.em.getConnection();
    execute = (statement) => connection.execute<Record<string, unknown>[]>(statement.text, statement.values, 'all');
    transaction = (work) => app.app.services.database.orm.em.fork().transactional((em) => work((statement) => em.execute(statement.text, statement.values)));
  });

  afterAll(async () => {
    await app?.close();
    await registry?.cleanup();
  });

  it('loads the three test providers', () => {
    for (const name of ['alpha', 'beta', 'gamma']) expect(app.app.services.plugins.catalogue.providerPlugin(name)?.id).toBe(`com.example.${name}`);
  });

  it('a read with ISRC records isrc_exact edges; a graph hit needs zero searches, by track id or ISRC alone', async () => {
    const read = track({ id: 'a-midnight', title: 'Midnight City', artist: 'M83', duration_s: 243, isrc: 'FRUM71100001', provider_uris: { alpha: 'alpha:track:a-midnight' } });
    expect(await matching.recordReadTracks('alpha', [read, track({ id: 'no-isrc', title: 'x', artist: 'y' })])).toBe(1);
    expect(await matching.recordReadTracks('gamma', [track({ ...GAMMA[0]!, provider_uris: { gamma: 'gamma:track:g-midnight' } })])).toBe(1);
    const edges = await execute({ text: `select provider, provider_track_id, source, confidence, scope from track_edge where provider_track_id in ('a-midnight', 'g-midnight') order by provider`, values: [] });
    expect(edges).toEqual([
      { provider: 'alpha', provider_track_id: 'a-midnight', source: 'isrc_exact', confidence: 1, scope: 'global' },
      { provider: 'gamma', provider_track_id: 'g-midnight', source: 'isrc_exact', confidence: 1, scope: 'global' },
    ]);

    const before = await totalSearches('gamma');
    const byId = await matching.resolve({ source: track({ id: 'a-midnight', title: 'Midnight City', artist: 'M83' }), sourceProvider: 'alpha', target: target('gamma') });
    expect(byId).toMatchObject({ decision: 'accept', from: 'graph', searches: 0, chosen: { id: 'g-midnight', uri: 'gamma:track:g-midnight' }, edge: { source: 'isrc_exact', scope: 'global' } });
    // An imported file row with only an ISRC reaches the same identity.
    const byIsrc = await matching.resolve({ source: track({ title: 'midnight city', artist: 'm83', isrc: 'fr-um7-11-00001' }), sourceProvider: 'import', target: target('gamma') });
    expect(byIsrc).toMatchObject({ decision: 'accept', from: 'graph', searches: 0, chosen: { id: 'g-midnight' } });
    expect(await totalSearches('gamma')).toBe(before);
  });

  it('searches by ISRC first where the target supports it, then by text; the accepted match is cached', async () => {
    let counts = await searchCounts('gamma');
    const weightless = track({ id: 'a-weightless', title: 'Weightless', artist: 'Marconi Union', duration_s: 481, isrc: 'GBUM71200002' });
    const first = await matching.resolve({ source: weightless, sourceProvider: 'alpha', target: target('gamma') });
    expect(first).toMatchObject({ decision: 'accept', from: 'search', searches: 1, chosen: { id: 'g-weightless' } });
    expect(first.breakdown.length).toBeGreaterThan(0);
    let now = await searchCounts('gamma');
    expect(now).toEqual({ isrc: counts.isrc + 1, text: counts.text });
    const again = await matching.resolve({ source: weightless, sourceProvider: 'alpha', target: target('gamma') });
    expect(again).toMatchObject({ decision: 'accept', from: 'graph', searches: 0, chosen: { id: 'g-weightless' }, edge: { source: 'isrc_exact' } });

    // The target has no ISRC for this one: the ISRC search finds nothing, the text search does.
    counts = await searchCounts('gamma');
    const teardrop = track({ id: 'a-teardrop', title: 'Teardrop', artist: 'Massive Attack', album: 'Mezzanine', duration_s: 331, isrc: 'GBAAA9800009' });
    const second = await matching.resolve({ source: teardrop, sourceProvider: 'alpha', target: target('gamma') });
    expect(second).toMatchObject({ decision: 'accept', from: 'search', searches: 2, chosen: { id: 'g-teardrop' } });
    now = await searchCounts('gamma');
    expect(now).toEqual({ isrc: counts.isrc + 1, text: counts.text + 1 });
    const [edge] = await execute({ text: `select source, scope from track_edge where provider = 'gamma' and provider_track_id = 'g-teardrop'`, values: [] });
    expect(edge).toEqual({ source: 'fuzzy', scope: 'global' });

    // A text-only target is never asked for an ISRC search.
    const betaBefore = await searchCounts('beta');
    await matching.resolve({ source: track({ id: 'a-hoppi', title: 'Hoppípolla', artist: 'Sigur Rós', duration_s: 270, isrc: 'ISAAA0500001' }), sourceProvider: 'alpha', target: target('beta') });
    expect(await searchCounts('beta')).toEqual({ isrc: betaBefore.isrc, text: betaBefore.text + 1 });
  });

  it('once a no-ISRC track id links to an identity, the reverse direction resolves from the graph', async () => {
    const forward = await matching.resolve({ source: track({ ...ALPHA[0]! }), sourceProvider: 'alpha', target: target('beta') });
    expect(forward).toMatchObject({ decision: 'accept', from: 'search', chosen: { id: 'b-strobe' } });
    const alphaBefore = await totalSearches('alpha');
    const reverse = await matching.resolve({ source: track({ ...BETA[0]! }), sourceProvider: 'beta', target: target('alpha', 'acct-Z') });
    expect(reverse).toMatchObject({ decision: 'accept', from: 'graph', searches: 0, chosen: { id: 'a-strobe' }, edge: { source: 'fuzzy', scope: 'global' } });
    expect(await totalSearches('alpha')).toBe(alphaBefore);
  });

  it('a doubtful match goes to review with ranked candidates and is neither recorded nor cached', async () => {
    const source = track({ id: 'a-love', title: 'Love', artist: 'The 1975', duration_s: 261 });
    const result = await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta') });
    expect(result).toMatchObject({ decision: 'review', from: 'search', searches: 1, chosen: { id: 'b-loveme' } });
    expect(result.candidates[0]?.track.id).toBe('b-loveme');
    expect(result.reason).toMatch(/^Please check “Love Me” by The 1975 \(\d+%\): the titles only partly match\./u);
    expect(await execute({ text: `select 1 from track_edge where provider_track_id in ('a-love', 'b-loveme')`, values: [] })).toHaveLength(0);
    expect(await execute({ text: `select 1 from match_miss where source_key = 'id:a-love'`, values: [] })).toHaveLength(0);
  });

  it('a confirmation applies at once to that account only', async () => {
    const source = track({ id: 'a-obscure', title: 'Some Obscure Song', artist: 'Nobody', duration_s: 199 });
    const chosen = track({ ...BETA[3]! });
    const result = await matching.confirm({ accountId: 'acct-A', source, sourceProvider: 'alpha', targetProvider: 'beta', target: chosen });
    expect(result).toMatchObject({ promoted: false, rule: null, confirmingAccounts: 1 });
    const before = await totalSearches('beta');
    const mine = await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta', 'acct-A') });
    expect(mine).toMatchObject({ decision: 'accept', from: 'graph', searches: 0, chosen: { id: 'b-rare' }, edge: { source: 'user_confirmed', scope: 'account:acct-A' } });
    expect(await totalSearches('beta')).toBe(before);
    const theirs = await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta', 'acct-B') });
    expect(theirs.from).toBe('search');
    expect(theirs.chosen?.id).not.toBe('b-rare');
    const global = await execute({ text: `select 1 from track_edge where provider_track_id = 'b-rare' and scope = 'global'`, values: [] });
    expect(global).toHaveLength(0);
  });

  it('an overlay confirmation wins over a global edge for that account', async () => {
    const source = track({ id: 'a-hoppi', title: 'Hoppípolla', artist: 'Sigur Rós', duration_s: 270, isrc: 'ISAAA0500001' });
    const before = await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta', 'acct-A') });
    expect(before).toMatchObject({ from: 'graph', chosen: { id: 'b-hoppi' } });
    await matching.confirm({ accountId: 'acct-A', source, sourceProvider: 'alpha', targetProvider: 'beta', target: track({ ...BETA[1]! }) });
    expect((await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta', 'acct-A') })).chosen?.id).toBe('b-svefn');
    expect((await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta', 'acct-B') })).chosen?.id).toBe('b-hoppi');
  });

  it('a denial is remembered: that candidate is never auto-chosen again for that account and source', async () => {
    const source = track({ id: 'a-svefn', title: 'Svefn-g-englar', artist: 'Sigur Rós', duration_s: 605 });
    const first = await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta', 'acct-A') });
    expect(first).toMatchObject({ decision: 'accept', chosen: { id: 'b-svefn' } });
    await matching.deny({ accountId: 'acct-A', source, sourceProvider: 'alpha', targetProvider: 'beta', targetTrackId: 'b-svefn' });
    for (let run = 0; run < 2; run += 1) {
      const denied = await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta', 'acct-A') });
      expect(denied.from).toBe('search');
      expect(denied.chosen).toBeNull();
      expect(denied.candidates.map((c) => c.track.id)).not.toContain('b-svefn');
    }
    // Not everyone's no-match: nothing cached, and other accounts still get the global edge.
    expect(await execute({ text: `select 1 from match_miss where source_key = 'id:a-svefn'`, values: [] })).toHaveLength(0);
    expect(await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta', 'acct-B') })).toMatchObject({ from: 'graph', chosen: { id: 'b-svefn' } });
    // Changing one's mind: confirming it lifts the denial.
    await matching.confirm({ accountId: 'acct-A', source, sourceProvider: 'alpha', targetProvider: 'beta', target: track({ ...BETA[1]! }) });
    expect(await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta', 'acct-A') })).toMatchObject({ from: 'graph', chosen: { id: 'b-svefn' } });
  });

  it('promotes a confirmation to global on ISRC agreement', async () => {
    const source = track({ id: 'a-unfinished', title: 'Unfinished Sympathy (2012 Mix)', artist: 'Massive Attack', isrc: 'GBAAA9100003' });
    const result = await matching.confirm({ accountId: 'acct-A', source, sourceProvider: 'alpha', targetProvider: 'gamma', target: track({ ...GAMMA[3]! }) });
    expect(result).toMatchObject({ promoted: true, rule: 'isrc_agreement' });
    expect(await matching.resolve({ source, sourceProvider: 'alpha', target: target('gamma', 'acct-C') })).toMatchObject({
      from: 'graph',
      searches: 0,
      chosen: { id: 'g-unfinished' },
      edge: { scope: 'global' },
    });
  });

  it('promotes a confirmation to global once 2 distinct accounts confirmed it, not before', async () => {
    const source = track({ id: 'a-local-ish', title: 'Home Recording Song (Demo)', artist: 'Local Artist' });
    const chosen = track({ ...BETA[4]! });
    const first = await matching.confirm({ accountId: 'acct-A', source, sourceProvider: 'alpha', targetProvider: 'beta', target: chosen });
    expect(first).toMatchObject({ promoted: false, confirmingAccounts: 1 });
    // The same account confirming twice is not independent corroboration.
    expect(await matching.confirm({ accountId: 'acct-A', source, sourceProvider: 'alpha', targetProvider: 'beta', target: chosen })).toMatchObject({ promoted: false, confirmingAccounts: 1 });
    expect(await execute({ text: `select 1 from track_edge where provider_track_id = 'b-local' and scope = 'global'`, values: [] })).toHaveLength(0);
    const second = await matching.confirm({ accountId: 'acct-B', source, sourceProvider: 'alpha', targetProvider: 'beta', target: chosen });
    expect(second).toMatchObject({ promoted: true, rule: 'independent_confirmations', confirmingAccounts: 2, identityId: first.identityId });
    expect(await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta', 'acct-C') })).toMatchObject({
      from: 'graph',
      searches: 0,
      chosen: { id: 'b-local' },
      edge: { source: 'user_confirmed', scope: 'global' },
    });
  });

  it.each([
    ['RateLimited', 'Throttle Anthem', 30],
    ['AuthExpired', 'Expired Feelings', null],
  ])('%s during search means retry, and nothing is recorded', async (error, title, retryAfter) => {
    const source = track({ id: `a-${error}`, title, artist: 'Someone' });
    const before = await totalSearches('beta');
    const result = await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta') });
    expect(result).toMatchObject({ decision: 'retry', chosen: null, error, retryAfterSeconds: retryAfter, searches: 1 });
    expect(await execute({ text: 'select 1 from match_miss where source_key = ?', values: [`id:a-${error}`] })).toHaveLength(0);
    expect(await execute({ text: 'select 1 from track_edge where provider_track_id = ?', values: [`a-${error}`] })).toHaveLength(0);
    // Still retryable: the next run searches again.
    expect((await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta') })).decision).toBe('retry');
    expect(await totalSearches('beta')).toBe(before + 2);
  });

  it('caches a real no-match with a doubling retry backoff', async () => {
    let clock = new Date('2030-01-01T00:00:00Z');
    const service = new MatchService({ execute, transaction, plugins: app.app.services.plugins.host, catalogue: app.app.services.plugins.catalogue, now: () => clock });
    const source = track({ id: 'a-nothing', title: 'Nothing Like This Anywhere', artist: 'Nobody' });
    const resolve = () => service.resolve({ source, sourceProvider: 'alpha', target: target('beta') });
    const before = await totalSearches('beta');
    const first = await resolve();
    expect(first).toMatchObject({ decision: 'reject', from: 'search', searches: 1 });
    expect(first.retryAt?.toISOString()).toBe('2030-01-02T00:00:00.000Z');
    clock = new Date('2030-01-01T23:00:00Z');
    expect(await resolve()).toMatchObject({ decision: 'reject', from: 'miss_cache', searches: 0 });
    expect(await totalSearches('beta')).toBe(before + 1);
    clock = new Date('2030-01-02T00:00:01Z');
    const third = await resolve();
    expect(third).toMatchObject({ decision: 'reject', from: 'search', searches: 1 });
    expect(third.retryAt?.toISOString()).toBe('2030-01-04T00:00:01.000Z');
    expect(await totalSearches('beta')).toBe(before + 2);
    // The cache is per strictness: a looser run may still find something.
    expect(await service.resolve({ source, sourceProvider: 'alpha', target: target('beta'), strictness: 'best_effort' })).toMatchObject({ from: 'search' });
  });

  it('keeps personal data out of global rows; local files never get edges', async () => {
    const local = track({ id: '/home/alice/Music/strobe.mp3', title: 'Strobe', artist: 'deadmau5', duration_s: 636, is_local: true });
    expect(await matching.resolve({ source: local, sourceProvider: 'local', target: target('beta', 'acct-alice') })).toMatchObject({ decision: 'accept', chosen: { id: 'b-strobe' } });
    const rows = [
      ...(await execute({ text: `select * from track_edge where scope = 'global'`, values: [] })),
      ...(await execute({ text: 'select * from track_identity', values: [] })),
      ...(await execute({ text: 'select * from match_miss', values: [] })),
    ];
    expect(rows.length).toBeGreaterThan(10);
    const text = JSON.stringify(rows);
    for (const personal of ['acct-', 'account:', '/home/', 'alice']) expect(text).not.toContain(personal);
  });
  describe('graph hits are revalidated; invalid targets leave the graph', () => {
    const gone = { id: 'g-gone', title: 'Unfinished Sympathy', artist: 'Massive Attack', isrc: 'GBAAA9100003', provider_uris: { gamma: 'gamma:album:g-gone' } };
    // Like a real adapter's validateUri: it parses the URI and says which entity it names.
    const validate = async (uri: string) => {
      const [, entity, id] = uri.split(':');
      return { valid: true, entity: entity ?? null, id: id ?? null };
    };
    const unfinished = track({ id: 'a-unfinished', title: 'Unfinished Sympathy', artist: 'Massive Attack', album: 'Blue Lines', duration_s: 308, isrc: 'GBAAA9100003' });

    it('an edge whose URI the target names as an album is removed in every scope, and the item is searched again', async () => {
      await matching.recordReadTracks('gamma', [track(gone)]);
      await matching.confirm({ accountId: 'acct-R', source: unfinished, sourceProvider: 'alpha', targetProvider: 'gamma', target: track(gone) });
      expect(await execute({ text: `select scope from track_edge where provider_track_id = 'g-gone' order by scope`, values: [] })).toEqual([{ scope: 'account:acct-R' }, { scope: 'global' }]);
      // Without validation the graph would answer with the album.
      expect(await matching.resolve({ source: unfinished, sourceProvider: 'alpha', target: target('gamma', 'acct-R') })).toMatchObject({ from: 'graph', chosen: { id: 'g-gone' } });

      // The next edge of the identity, or else a search, answers: never the album.
      const result = await matching.resolve({ source: unfinished, sourceProvider: 'alpha', target: target('gamma', 'acct-R'), validate });
      expect(result).toMatchObject({ decision: 'accept', chosen: { id: 'g-unfinished' }, droppedEdges: ['g-gone'] });
      expect(await execute({ text: `select scope from track_edge where provider_track_id = 'g-gone'`, values: [] })).toEqual([]);
      // The valid edge the search recorded answers next time, validated, with zero searches.
      expect(await matching.resolve({ source: unfinished, sourceProvider: 'alpha', target: target('gamma', 'acct-R'), validate })).toMatchObject({ from: 'graph', searches: 0, chosen: { id: 'g-unfinished' } });
    });

    it('search-made edges are checked once a month old; refused drops the edge, an adapter error keeps it', async () => {
      const source = track({ id: 'a-weightless-2', title: 'Weightless', artist: 'Marconi Union', duration_s: 480, isrc: 'GBUM71200002' });
      // Only edges with a URI can be checked: a read gives this one its URI.
      await matching.recordReadTracks('gamma', [track({ ...GAMMA[1]!, provider_uris: { gamma: 'gamma:track:g-weightless' } })]);
      const failing = async () => {
        throw new Error('provider down');
      };
      // A fresh edge a search or read made is used as it is; a month later it is checked.
      let checks = 0;
      const counting = async () => {
        checks += 1;
        return { valid: true, entity: 'track', id: 'g-weightless' };
      };
      expect(await matching.resolve({ source, sourceProvider: 'alpha', target: target('gamma'), validate: counting })).toMatchObject({ from: 'graph', chosen: { id: 'g-weightless' } });
      expect(checks).toBe(0);
      const later = new MatchService({ execute, transaction, plugins: app.app.services.plugins.host, catalogue: app.app.services.plugins.catalogue, now: () => new Date(Date.now() + 31 * 86_400_000) });
      expect(await later.resolve({ source, sourceProvider: 'alpha', target: target('gamma'), validate: counting })).toMatchObject({ from: 'graph', chosen: { id: 'g-weightless' } });
      expect(checks).toBe(1);
      expect(await later.resolve({ source, sourceProvider: 'alpha', target: target('gamma'), validate: failing })).toMatchObject({ from: 'graph', chosen: { id: 'g-weightless' } });
      const refused = await later.resolve({ source, sourceProvider: 'alpha', target: target('gamma'), validate: async () => ({ valid: false }) });
      // The edge went; the ISRC search found the track again and recorded it afresh.
      expect(refused).toMatchObject({ from: 'search', chosen: { id: 'g-weightless' }, droppedEdges: ['g-weightless'] });
    });

    it('a write that answered NotFound forgets the target everywhere: the next resolve searches', async () => {
      const source = track({ id: 'a-svefn-nf', title: 'Svefn-g-englar', artist: 'Sigur Rós', album: 'Ágætis byrjun', duration_s: 605 });
      expect(await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta') })).toMatchObject({ from: 'search', chosen: { id: 'b-svefn' } });
      expect(await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta') })).toMatchObject({ from: 'graph' });
      expect(await matching.forgetTarget('beta', 'b-svefn')).toBeGreaterThanOrEqual(1);
      expect(await execute({ text: `select id from track_edge where provider = 'beta' and provider_track_id = 'b-svefn'`, values: [] })).toEqual([]);
      expect(await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta') })).toMatchObject({ from: 'search', searches: 1 });
    });

    it('exact_release never answers from a fuzzy edge (its score says nothing about the release)', async () => {
      const source = track({ id: 'a-svefn-ex', title: 'Svefn-g-englar', artist: 'Sigur Rós', album: 'Ágætis byrjun', duration_s: 605 });
      expect(await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta') })).toMatchObject({ from: 'search' });
      expect(await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta') })).toMatchObject({ from: 'graph', edge: { source: 'fuzzy' } });
      expect(await matching.resolve({ source, sourceProvider: 'alpha', target: target('beta'), strictness: 'exact_release' })).toMatchObject({ from: 'search', searches: 1 });
    });

    it('exact_release does not take a compilation copy from an ISRC edge; it searches and picks the same album, and a confirmation of this source answers', async () => {
      const compilation = track({ ...GAMMA[5]!, provider_uris: { gamma: 'gamma:track:g-hyper-comp' } });
      expect(await matching.recordReadTracks('gamma', [compilation])).toBe(1);
      const source = track({ id: 'a-hyper', title: 'Hyperballad', artist: 'Björk', album: 'Post', duration_s: 321, isrc: 'QZCOMP000001' });
      // Any release of the recording will do for same_recording: the read's ISRC edge answers.
      expect(await matching.resolve({ source, sourceProvider: 'alpha', target: target('gamma') })).toMatchObject({ from: 'graph', searches: 0, chosen: { id: 'g-hyper-comp' } });
      const exact = await matching.resolve({ source, sourceProvider: 'alpha', target: target('gamma'), strictness: 'exact_release' });
      expect(exact).toMatchObject({ decision: 'accept', from: 'search', chosen: { id: 'g-hyper-album' } });
      // Accepting it linked this source to the recording; still not a person's decision, so exact_release searches again.
      expect(await matching.resolve({ source, sourceProvider: 'alpha', target: target('gamma'), strictness: 'exact_release' })).toMatchObject({ from: 'search', chosen: { id: 'g-hyper-album' } });

      await matching.confirm({ accountId: 'acct-A', source, sourceProvider: 'alpha', targetProvider: 'gamma', target: track({ ...GAMMA[4]!, provider_uris: { gamma: 'gamma:track:g-hyper-album' } }) });
      expect(await matching.resolve({ source, sourceProvider: 'alpha', target: target('gamma'), strictness: 'exact_release' })).toMatchObject({
        from: 'graph',
        searches: 0,
        chosen: { id: 'g-hyper-album' },
        edge: { source: 'user_confirmed' },
      });
    });
  });

  describe('a source that already names a target track (a pasted link, a file exported from that service)', () => {
    /** What a real adapter's validateUri says: shape only, `gamma:<entity>:<id>` or its web link `https://gamma.example/<entity>/<id>`. */
    const offered: string[] = [];
    const shapeCheck = async (uri: string) => {
      offered.push(uri);
      const web = /^https:\/\/gamma\.example\/([a-z]+)\/([\w-]+)$/.exec(uri);
      if (web) return { valid: true, entity: web[1]!, id: web[2]!, normalizedUri: `gamma:${web[1]!}:${web[2]!}` };
      const [provider, entity, id] = uri.split(':');
      return provider === 'gamma' && entity && id ? { valid: true, entity, id, normalizedUri: `gamma:${entity}:${id}` } : { valid: false };
    };

    it('is the answer at every strictness: no graph, no search, nothing recorded', async () => {
      // Its title says nothing gamma could find: only the link can answer.
      const source = track({ title: 'Teardrop (live, bootleg)', artist: 'Massive Attack', provider_uris: { gamma: 'gamma:track:g-teardrop' } });
      const before = await totalSearches('gamma');
      const edges = async () => (await execute({ text: `select count(*)::int as n from track_edge`, values: [] }))[0]!['n'];
      const edgesBefore = await edges();
      for (const strictness of ['exact_release', 'same_recording', 'best_effort'] as const) {
        const result = await matching.resolve({ source, sourceProvider: 'import', target: target('gamma'), strictness, validate: shapeCheck });
        expect(result).toMatchObject({ decision: 'accept', from: 'source_uri', searches: 0, confidence: 1, chosen: { id: 'g-teardrop', uri: 'gamma:track:g-teardrop' } });
        expect(result.reason).toContain('gamma:track:g-teardrop');
      }
      expect(await totalSearches('gamma')).toBe(before);
      expect(await edges()).toBe(edgesBefore);
    });

    it('a link the target does not take as a track, a denied one, or no validator: the usual graph and search answer', async () => {
      const album = track({ title: 'Teardrop', artist: 'Massive Attack', provider_uris: { gamma: 'gamma:album:mezzanine' } });
      expect(await matching.resolve({ source: album, sourceProvider: 'import', target: target('gamma', 'acct-L'), validate: shapeCheck })).toMatchObject({ from: 'search', chosen: { id: 'g-teardrop' } });
      const broken = track({ title: 'Midnight City', artist: 'M83', provider_uris: { gamma: 'not a gamma uri' } });
      expect(await matching.resolve({ source: broken, sourceProvider: 'import', target: target('gamma', 'acct-L'), validate: shapeCheck })).toMatchObject({ decision: 'accept', chosen: { id: 'g-midnight' } });
      expect((await matching.resolve({ source: broken, sourceProvider: 'import', target: target('gamma', 'acct-L'), validate: shapeCheck })).from).not.toBe('source_uri');

      const linked = track({ title: 'Unfinished Sympathy', artist: 'Massive Attack', provider_uris: { gamma: 'gamma:track:g-other-version' } });
      expect(await matching.resolve({ source: linked, sourceProvider: 'import', target: target('gamma', 'acct-L'), validate: shapeCheck })).toMatchObject({ from: 'source_uri', chosen: { id: 'g-other-version' } });
      await matching.deny({ accountId: 'acct-L', source: linked, sourceProvider: 'import', targetProvider: 'gamma', targetTrackId: 'g-other-version' });
      const afterDenial = await matching.resolve({ source: linked, sourceProvider: 'import', target: target('gamma', 'acct-L'), validate: shapeCheck });
      expect(afterDenial.from).not.toBe('source_uri');
      expect(afterDenial.chosen?.id).toBe('g-unfinished');
      // Another account did not deny it.
      expect(await matching.resolve({ source: linked, sourceProvider: 'import', target: target('gamma', 'acct-M'), validate: shapeCheck })).toMatchObject({ from: 'source_uri', chosen: { id: 'g-other-version' } });
      // Without a validator nothing vouches for the link: it is not taken.
      expect((await matching.resolve({ source: linked, sourceProvider: 'import', target: target('gamma', 'acct-M') })).from).not.toBe('source_uri');
    });

    it('a link of another service alone (no title, artist, album or ISRC) is not searched for, and says why', async () => {
      const before = await totalSearches('beta');
      const onlyLink = track({ title: '', artist: '', provider_uris: { gamma: 'gamma:track:g-teardrop' } });
      const result = await matching.resolve({ source: onlyLink, sourceProvider: 'import', target: target('beta'), validate: shapeCheck });
      expect(result).toMatchObject({ decision: 'reject', from: 'unsearchable', searches: 0, candidates: [] });
      expect(result.reason).toBe('it is only a gamma link (gamma:track:g-teardrop), with no title, artist or album to search beta by. Add the song\'s title and artist to the file, or migrate it to gamma.');
      expect(await totalSearches('beta')).toBe(before);
      // The target's own link that its plugin does not take as a song: the reason says so, not "migrate it to gamma".
      const albumOnly = track({ title: '', artist: '', provider_uris: { gamma: 'gamma:album:mezzanine' } });
      expect((await matching.resolve({ source: albumOnly, sourceProvider: 'import', target: target('gamma'), validate: shapeCheck })).reason).toBe(
        'it is only a gamma link (gamma:album:mezzanine) that gamma does not take as a song, with no title, artist or album to search by. Add the song\'s title and artist to the file.',
      );
      // Not a no-match: nothing is cached, so a later file with the words is searched at once.
      expect(await execute({ text: `select source_key from match_miss where source_key like 'uri:%'`, values: [] })).toEqual([]);

      // With an ISRC it is found by that (here from the graph, which earlier reads filled); never by an empty text search.
      const gammaBefore = await searchCounts('gamma');
      const withIsrc = track({ title: '', artist: '', isrc: 'GBUM71200002', provider_uris: { beta: 'beta:track:b-unknown' } });
      expect(await matching.resolve({ source: withIsrc, sourceProvider: 'import', target: target('gamma') })).toMatchObject({ decision: 'accept', chosen: { id: 'g-weightless' } });
      expect((await searchCounts('gamma')).text).toBe(gammaBefore.text);
    });

    it("a web link a file kept (CSV source column, playlist location) answers when the target's plugin knows it as its track", async () => {
      const before = await totalSearches('gamma');
      const fromCsv = track({ title: 'Teardrop', artist: 'Massive Attack', metadata: { source_uri: 'https://gamma.example/track/g-teardrop' } });
      expect(await matching.resolve({ source: fromCsv, sourceProvider: 'import', target: target('gamma'), validate: shapeCheck })).toMatchObject({
        from: 'source_uri',
        searches: 0,
        chosen: { id: 'g-teardrop', uri: 'gamma:track:g-teardrop' },
        reason: 'The source names this very gamma track (https://gamma.example/track/g-teardrop); no search needed.',
      });
      const fromM3u = track({ title: 'Midnight City', artist: 'M83', metadata: { location: 'https://gamma.example/track/g-midnight' } });
      expect(await matching.resolve({ source: fromM3u, sourceProvider: 'import', target: target('gamma'), validate: shapeCheck })).toMatchObject({ from: 'source_uri', chosen: { id: 'g-midnight' } });
      expect(await totalSearches('gamma')).toBe(before);
      // Someone else's link, or a link to an album, is not the song: the usual search answers.
      const elsewhere = track({ title: 'Teardrop', artist: 'Massive Attack', metadata: { source_uri: 'https://video.example/watch?v=1', location: 'https://gamma.example/album/mezzanine' } });
      expect((await matching.resolve({ source: elsewhere, sourceProvider: 'import', target: target('gamma'), validate: shapeCheck })).from).not.toBe('source_uri');
      // A path or another kind of address is never offered to the plugin.
      offered.length = 0;
      await matching.resolve({ source: track({ title: 'Teardrop', artist: 'Massive Attack', metadata: { location: 'C:\\Music\\Teardrop.mp3', source_uri: 'spotify:local:a:b:c:1' } }), sourceProvider: 'import', target: target('gamma'), validate: shapeCheck });
      expect(offered).toEqual([]);
    });

    it('link-only entries are remembered by their link, not by one shared empty key', () => {
      const first = track({ title: '', artist: '', provider_uris: { tidal: 'tidal:track:1', spotify: 'spotify:track:a' } });
      const second = track({ title: '', artist: '', provider_uris: { tidal: 'tidal:track:2' } });
      expect(sourceKeyOf(first)).toBe('uri:spotify:track:a');
      expect(sourceKeyOf(second)).toBe('uri:tidal:track:2');
      expect(sourceKeyOf(track({ title: 'Song', artist: '', provider_uris: { tidal: 'tidal:track:3' } }))).toBe('text:song||');
      // A song page a file kept (a pasted Deezer link), when there is no provider URI; a path is no link.
      expect(sourceKeyOf(track({ title: '', artist: '', metadata: { location: 'https://www.deezer.com/track/1' } }))).toBe('uri:https://www.deezer.com/track/1');
      expect(sourceKeyOf(track({ title: '', artist: '', metadata: { location: 'https://www.deezer.com/track/2' } }))).toBe('uri:https://www.deezer.com/track/2');
      expect(sourceKeyOf(track({ title: '', artist: '', metadata: { location: 'C:\\Music\\a.mp3' } }))).toBe('text:||');
    });
  });

  describe('graph writes are atomic and race-safe between workers', () => {
    it('concurrent reads of one recording by several workers create one identity', async () => {
      const workers = [0, 1, 2].map(() => new MatchService({ execute, transaction, plugins: app.app.services.plugins.host, catalogue: app.app.services.plugins.catalogue }));
      const isrc = 'QZRACE000001';
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          workers[i % 3]!.recordReadTracks(i % 2 === 0 ? 'alpha' : 'gamma', [track({ id: `race-${i}`, title: 'Race Song', artist: 'Racers', isrc, duration_s: 200 })]),
        ),
      );
      expect(await execute({ text: 'select count(*)::int as n from track_identity where isrc = ?', values: [isrc] })).toEqual([{ n: 1 }]);
      const edges = await execute({ text: `select count(distinct e.identity_id)::int as identities, count(*)::int as edges from track_edge e where e.provider_track_id like 'race-%'`, values: [] });
      expect(edges).toEqual([{ identities: 1, edges: 12 }]);
    });

    it('two accounts confirming the same pair at the same moment promote it exactly once', async () => {
      const workers = [0, 1].map(() => new MatchService({ execute, transaction, plugins: app.app.services.plugins.host, catalogue: app.app.services.plugins.catalogue }));
      const source = track({ id: 'a-race-conf', title: 'Hoppípolla', artist: 'Sigur Rós', duration_s: 270 });
      const chosen = track({ ...BETA[2]!, provider_uris: { beta: 'beta:track:b-hoppi' } });
      const results = await Promise.all(workers.map((worker, i) => worker.confirm({ accountId: `acct-race-${i}`, source, sourceProvider: 'alpha', targetProvider: 'beta', target: chosen })));
      expect(new Set(results.map((r) => r.identityId)).size).toBe(1);
      expect(results.map((r) => r.confirmingAccounts).sort()).toEqual([1, 2]);
      expect(results.filter((r) => r.promoted)).toHaveLength(1);
      expect(await execute({ text: `select source, scope from track_edge where provider = 'beta' and provider_track_id = 'b-hoppi' and scope = 'global'`, values: [] })).toEqual([{ source: 'user_confirmed', scope: 'global' }]);
    });

    it('a failing write leaves nothing half-done', async () => {
      const before = await execute({ text: 'select count(*)::int as n from track_identity', values: [] });
      const broken = new MatchService({
        execute,
        // The transaction runs the real statements, then the edge insert fails.
        transaction: (work) =>
          app.app.services.database.orm.em.fork().transactional((em) =>
            work(async (statement) => {
              if (statement.text.startsWith('insert into track_edge')) throw new Error('disk full');
              return em.execute(statement.text, statement.values);
            }),
          ),
        plugins: app.app.services.plugins.host,
        catalogue: app.app.services.plugins.catalogue,
      });
      await expect(broken.recordReadTracks('alpha', [track({ id: 'half-1', title: 'Half Done', artist: 'Nobody', isrc: 'QZHALF000001' })])).rejects.toThrow(/disk full/u);
      expect(await execute({ text: 'select count(*)::int as n from track_identity', values: [] })).toEqual(before);
    });
  });
});
