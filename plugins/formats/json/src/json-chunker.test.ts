import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkPieces, MAX_CHUNK_BYTES } from './json-chunker.ts';

const encoder = new TextEncoder();

describe('chunkPieces', () => {
  it('never exceeds the byte limit, never splits a surrogate pair, and loses nothing', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { maxLength: 30 }), fc.integer({ min: 6, max: 64 }), (pieces, maxBytes) => {
        const chunks = [...chunkPieces(pieces, maxBytes)];
        expect(chunks.join('')).toBe(pieces.join(''));
        for (const chunk of chunks) {
          expect(chunk.length).toBeGreaterThan(0);
          expect(encoder.encode(chunk).length).toBeLessThanOrEqual(maxBytes);
          expect(chunk.isWellFormed()).toBe(true);
        }
      }),
    );
  });

  it('packs small pieces together and splits a large one', () => {
    expect([...chunkPieces(['ab', 'cd', 'ef'], 6)]).toEqual(['abcdef']);
    expect([...chunkPieces(['x'.repeat(MAX_CHUNK_BYTES * 2 + 1)])].map((chunk) => chunk.length)).toEqual([MAX_CHUNK_BYTES, MAX_CHUNK_BYTES, 1]);
    expect([...chunkPieces(['é'.repeat(10)], 7)]).toEqual(['ééé', 'ééé', 'ééé', 'é']);
    expect(() => [...chunkPieces([], 5)]).toThrow(RangeError);
  });
});
