import { describe, expect, it } from 'vitest';
import { chunkUtf8, MAX_CHUNK_BYTES, utf8ByteLength } from '../../../plugin-sdk/src/format-kit/utf8-chunker.ts';

const encoder = new TextEncoder();

describe('utf8ByteLength', () => {
  it.each(['', 'abc', 'é', 'Привет', '日本語', '🎵', 'a🎵b', '\ud800', 'x\udc00'])('matches TextEncoder for %j', (text) => {
    expect(utf8ByteLength(text)).toBe(encoder.encode(text).length);
  });
});

describe('chunkUtf8', () => {
  it('packs small pieces together', () => {
    expect([...chunkUtf8(['ab', 'cd', 'ef'], 4)]).toEqual(['abcd', 'ef']);
  });

  it('never exceeds the byte limit and never splits a code point', () => {
    const pieces = ['日本語のタイトル\n', '🎵'.repeat(50), 'Привет, мир\n', 'x'.repeat(37), '🎶é'.repeat(30)];
    for (const max of [4, 5, 7, 16, 64]) {
      const chunks = [...chunkUtf8(pieces, max)];
      for (const chunk of chunks) {
        expect(encoder.encode(chunk).length).toBeLessThanOrEqual(max);
        expect(chunk).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
      }
      expect(chunks.join('')).toBe(pieces.join(''));
    }
  });

  it('uses 64 KiB by default', () => {
    const chunks = [...chunkUtf8(Array.from({ length: 3_000 }, () => 'Ж'.repeat(50)))];
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(encoder.encode(chunk).length).toBeLessThanOrEqual(MAX_CHUNK_BYTES);
  });

  it('yields nothing for nothing', () => {
    expect([...chunkUtf8([])]).toEqual([]);
  });

  it('refuses a limit that cannot hold a code point', () => {
    expect(() => [...chunkUtf8(['x'], 3)]).toThrow(RangeError);
  });

  it('never splits a surrogate pair and keeps every character (M3U lines)', () => {
    const lines = ['ab', '🎵'.repeat(10), 'c'];
    const chunks = [...chunkUtf8(lines, 5)];
    expect(chunks.join('')).toBe(lines.join(''));
    for (const chunk of chunks) {
      expect(encoder.encode(chunk).length).toBeLessThanOrEqual(5);
      expect(chunk.length).toBeLessThanOrEqual(5);
      expect(chunk).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
  });
});
