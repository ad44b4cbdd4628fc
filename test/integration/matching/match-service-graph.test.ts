import { beforeAll, describe, expect, it } from 'vitest';
import { MatchService, sourceKeyOf, type GraphTransaction } from '../../../core/services/matching/index.ts';
import type { MatchingEnv } from './match-service.setup.ts';
import { BETA, GAMMA, searchCounts as countsOf, target, track, useMatchingApp } from './match-service.setup.ts';
import type { TestApp } from '../support/test-app.ts';

describe('match service: revalidated graph hits, sources naming their target, concurrent writers (real engine, real PostgreSQL)', () => {
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
