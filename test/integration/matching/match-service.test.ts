import { beforeAll, describe, expect, it } from 'vitest';
import { MatchService, type GraphTransaction } from '../../../core/services/matching/index.ts';
import type { MatchingEnv } from './match-service.setup.ts';
import { ALPHA, BETA, GAMMA, searchCounts as countsOf, target, track, useMatchingApp } from './match-service.setup.ts';
import type { TestApp } from '../support/test-app.ts';

describe('match service (real engine, real PostgreSQL, signed test providers)', () => {
  const env = useMatchingApp();
  let app: TestApp;
  let matching: MatchService;
  let execute: MatchingEnv['execute'];
  let transaction: GraphTransaction;
  beforeAll(() => {
    ({ app, matching, execute, transaction } = env);
  });
  const searchCounts = (provider: string) => countsOf(env, provider);
  const totalSearches = async (provider: string) => {
    const counts = await searchCounts(provider);
    return counts.isrc + counts.text;
  };

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
});
