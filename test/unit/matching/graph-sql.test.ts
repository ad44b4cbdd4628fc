import { trackSchema } from '@opl/plugin-sdk/schemas';
import { describe, expect, it } from 'vitest';
import * as sql from '../../../core/services/matching/match-graph.sql.ts';
import { accountScope, linkableId, normalizeIsrc, sourceKeyOf } from '../../../core/services/matching/match-keys.ts';

const placeholders = (text: string) => (text.match(/\?/g) ?? []).length;

describe('identity graph SQL statements', () => {
  const missKey = { sourceProvider: 'alpha', sourceKey: 'id:1', targetProvider: 'beta', strictness: 'same_recording' };
  const denialKey = { scope: 'account:a', sourceProvider: 'alpha', sourceKey: 'id:1', targetProvider: 'beta' };
  const statements: Array<[string, sql.SqlStatement]> = [
    ['selectIdentityByIsrc', sql.selectIdentityByIsrc('GBAAA9100003')],
    ['insertIdentity', sql.insertIdentity({ isrc: null, title: 't', artist: 'a', album: null, durationS: 1 })],
    ['fillIdentity', sql.fillIdentity('id', { album: 'x' })],
    ['selectSourceIdentity', sql.selectSourceIdentity('alpha', '1', null, 'account:a')],
    ['upsertEdge', sql.upsertEdge({ identityId: 'i', provider: 'p', providerTrackId: '1', providerUri: null, confidence: 1, source: 'fuzzy', scope: 'global' })],
    ['deleteEdge', sql.deleteEdge('account:a', 'p', '1', 'i')],
    [
      'selectGraphMatch',
      sql.selectGraphMatch({ sourceProvider: 'alpha', sourceTrackId: '1', isrc: null, sourceKey: 'id:1', targetProvider: 'beta', scope: 'account:a', minFuzzyConfidence: 0.88 }),
    ],
    ['selectConfirmedIdentity', sql.selectConfirmedIdentity('alpha', '1', 'beta', '2')],
    ['countConfirmingAccounts', sql.countConfirmingAccounts('beta', '2', 'i')],
    ['selectMiss', sql.selectMiss(missKey)],
    ['recordMiss', sql.recordMiss(missKey, new Date(0), 86_400, 30 * 86_400)],
    ['deleteMiss', sql.deleteMiss(missKey)],
    ['insertDenial', sql.insertDenial(denialKey, '2')],
    ['deleteDenial', sql.deleteDenial(denialKey, '2')],
    ['selectDenied', sql.selectDenied(denialKey)],
    ['lockGraphKey', sql.lockGraphKey('isrc:GBAAA9100003')],
    ['deleteTargetEdges', sql.deleteTargetEdges('beta', '2')],
    [
      'selectGraphMatch without fuzzy edges',
      sql.selectGraphMatch({ sourceProvider: 'alpha', sourceTrackId: '1', isrc: null, sourceKey: 'id:1', targetProvider: 'beta', scope: 'account:a', minFuzzyConfidence: null, excludeTrackIds: ['x', 'y'] }),
    ],
  ];

  it.each(statements)('%s binds one value per placeholder', (_name, statement) => {
    expect(placeholders(statement.text)).toBe(statement.values.length);
  });

  it('never lets a weaker edge replace a stronger one', () => {
    const { text } = sql.upsertEdge({ identityId: 'i', provider: 'p', providerTrackId: '1', providerUri: null, confidence: 0.9, source: 'fuzzy', scope: 'global' });
    expect(text).toMatch(/where \(case track_edge\.source .*\) <= \(case excluded\.source/);
  });

  it('consults the overlay before global edges and excludes the account’s denials', () => {
    const { text, values } = sql.selectGraphMatch({ sourceProvider: 'alpha', sourceTrackId: '1', isrc: 'X', sourceKey: 'id:1', targetProvider: 'beta', scope: 'account:a', minFuzzyConfidence: 0.9 });
    expect(text).toMatch(/order by case when t\.scope = 'global' then 1 else 0 end/);
    expect(text).toMatch(/not exists \(select 1 from match_denial/);
    expect(values.filter((v) => v === 'account:a')).toHaveLength(3);
  });

  it('a null fuzzy bar excludes fuzzy edges (confidence never reaches 2); excluded tracks travel as one JSON array', () => {
    const { text, values } = sql.selectGraphMatch({ sourceProvider: 'alpha', sourceTrackId: '1', isrc: null, sourceKey: 'id:1', targetProvider: 'beta', scope: 'account:a', minFuzzyConfidence: null, excludeTrackIds: ['x'] });
    expect(text).toMatch(/t\.confidence >= coalesce\(\?::double precision, 2\)/u);
    expect(values).toContain(null);
    expect(values).toContain('["x"]');
  });

  it('graph locks are transaction-scoped advisory locks in their own key space', () => {
    expect(sql.lockGraphKey('track:beta:2')).toEqual({ text: `select pg_advisory_xact_lock(hashtextextended('opl.match-graph:' || ?, 0))`, values: ['track:beta:2'] });
  });
});

describe('match keys', () => {
  const track = (fields: Record<string, unknown>) => trackSchema.parse({ title: 'Título', artist: 'Artista', ...fields });

  it('normalises ISRCs and refuses what is not one', () => {
    expect(normalizeIsrc('us-rc1-17-00001')).toBe('USRC11700001');
    expect(normalizeIsrc('nope')).toBeNull();
    expect(normalizeIsrc(null)).toBeNull();
  });

  it('keys a source by id, else ISRC, else normalised text; local files never by their path', () => {
    expect(sourceKeyOf(track({ id: '42', isrc: 'USRC11700001' }))).toBe('id:42');
    expect(sourceKeyOf(track({ isrc: 'usrc11700001' }))).toBe('isrc:USRC11700001');
    const local = track({ id: '/home/alice/a.mp3', is_local: true, duration_s: 200.4 });
    expect(linkableId(local)).toBeNull();
    expect(sourceKeyOf(local)).toBe('text:titulo|artista|200');
  });

  it('builds account scopes and refuses an empty account', () => {
    expect(accountScope('x')).toBe('account:x');
    expect(() => accountScope('')).toThrow();
  });
});
