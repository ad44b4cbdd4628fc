import { trackSchema } from '@opl/plugin-sdk/schemas';
import { describe, expect, it } from 'vitest';
import { acceptedKeys, firstPerIdentity, nextRound, type AcceptedWrite } from '../../../core/services/matching/accepted-writes.ts';
import { deleteMisses, fillIdentities, insertIdentities, selectIdentitiesByIsrc, selectSourceIdentities } from '../../../core/services/matching/accepted-writes.sql.ts';

const track = (fields: Record<string, unknown>) => trackSchema.parse({ title: 'Song', artist: 'Artist', ...fields });
const missKey = { sourceProvider: 'alpha', sourceKey: 'id:1', targetProvider: 'beta', strictness: 'same_recording' };

function write(sourceId: string, isrc: string | null, chosenId: string, chosenIsrc: string | null = isrc): AcceptedWrite {
  return {
    source: track({ id: sourceId, isrc }),
    sourceProvider: 'alpha',
    targetProvider: 'beta',
    chosen: track({ id: chosenId, isrc: chosenIsrc, provider_uris: { beta: `beta:track:${chosenId}` } }),
    chosenId,
    confidence: 0.95,
    missKey,
    hadMiss: false,
  };
}

describe('a slice of acceptances applied set-based', () => {
  it('keys an acceptance by both tracks and both ISRCs', () => {
    expect(acceptedKeys(write('s1', 'USAAA1700001', 't1', 'USAAA1700002')).sort()).toEqual(['isrc:USAAA1700001', 'isrc:USAAA1700002', 'track:alpha:s1', 'track:beta:t1']);
    expect(acceptedKeys(write('s1', null, 't1'))).toEqual(['track:beta:t1', 'track:alpha:s1']);
  });

  it('takes every write that shares no key with an earlier one still waiting', () => {
    expect(nextRound([['a'], ['b'], ['c']])).toEqual([0, 1, 2]);
    // The second copy of a song waits for the first; a third that only shares with the waiting
    // second waits too (it must come after it), an unrelated fourth does not.
    expect(nextRound([['a', 'x'], ['a'], ['a', 'y'], ['b']])).toEqual([0, 3]);
    expect(nextRound([['a'], ['b', 'c'], ['c', 'd'], ['d']])).toEqual([0, 1]);
    expect(nextRound([])).toEqual([]);
  });

  it('the first write always goes, so rounds always make progress', () => {
    expect(nextRound([['a', 'a']])).toEqual([0]);
    expect(nextRound([['a'], ['a'], ['a']])).toEqual([0]);
  });

  it('keeps only the first write of each existing identity in a round; new identities never collide', () => {
    expect(firstPerIdentity(['i1', null, 'i2', 'i1', null, 'i2', 'i3'])).toEqual([true, true, true, false, true, false, true]);
    expect(firstPerIdentity([])).toEqual([]);
  });

  it('sends each set-based statement its rows as one JSON value, bound to its only parameter', () => {
    const statements = [
      selectSourceIdentities([{ provider: 'alpha', trackId: '1', isrc: null, scope: 'global' }]),
      selectIdentitiesByIsrc(['USAAA1700001', 'USAAA1700001']),
      fillIdentities([{ id: 'i', isrc: null, album: 'A', durationS: 200 }]),
      insertIdentities([{ id: 'i', isrc: 'USAAA1700001', title: 't', artist: 'a', album: null, durationS: null }]),
      deleteMisses([missKey]),
    ];
    for (const statement of statements) {
      expect((statement.text.match(/\?/g) ?? []).length).toBe(statement.values.length);
      expect(statement.values).toHaveLength(1);
    }
    expect(JSON.parse(String(selectIdentitiesByIsrc(['X', 'X', 'Y']).values[0]))).toEqual(['X', 'Y']);
  });
});
