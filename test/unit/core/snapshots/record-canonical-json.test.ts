import { albumSchema, artistSchema } from '@opl/plugin-sdk/schemas';
import { canonicalJson } from '@opl/plugin-sdk/tools';
import { describe, expect, it } from 'vitest';
import { recordCanonicalJson } from '../../../../core/services/snapshots/archive/snapshot-records.ts';
import { track } from './snapshot-parts.ts';

/** The verifier's fast canonical JSON must be the SDK's canonical JSON, byte for byte, or items checksums would change meaning. */
describe('the canonical JSON of a snapshot record', () => {
  const records: unknown[] = [
    track(1),
    track(2, { title: 'Zoë \u2028 "quoted" \\ back\nslash \u0007 🎵', provider_metadata: { b: 1, a: 'x', c: true, d: null } }),
    track(3, { artists: [], isrc: null, provider_uris: { tidal: 't:1', spotify: 's:1', apple: 'a:1' } }),
    { ...track(4), album: undefined },
    JSON.parse('{"title":"T","provider_metadata":{"__proto__":{"x":1},"z":2,"a":[1,{"b":2,"a":1}]}}') as unknown,
    albumSchema.parse({ id: 'a1', title: 'Blue', artists: ['Joni'] }),
    artistSchema.parse({ id: 'r1', name: 'Joni Mitchell' }),
    { nested: { deeper: { z: [3, 2, 1], a: { y: -0.5, x: 1e21 } } }, list: [{ b: 1, a: 2 }, 'text', 0, false, null] },
  ];

  it.each(records.map((record, index) => [index, record] as const))('#%i agrees with canonicalJson', (_index, record) => {
    expect(recordCanonicalJson(record)).toBe(canonicalJson(record));
  });

  it('keeps key orders apart for objects of the same keys in another order', () => {
    expect(recordCanonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
    expect(recordCanonicalJson({ a: 2, b: 1 })).toBe('{"a":2,"b":1}');
  });
});
