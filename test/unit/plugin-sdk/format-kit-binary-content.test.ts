import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { looksBinary } from '../../../plugin-sdk/src/format-kit/binary-content.ts';

/** The rule spelled out one code unit at a time: what the regular-expression scan must agree with. */
function byCodeUnit(text: string, nulIsBinary: boolean): boolean {
  const allowed = Math.max(8, text.length / 100);
  let controls = 0;
  for (const char of text.split('')) {
    const code = char.charCodeAt(0);
    if (code === 0 && nulIsBinary) return true;
    if (code < 0x20 && (code < 0x09 || code > 0x0d) && ++controls > allowed) return true;
  }
  return false;
}

describe('looksBinary', () => {
  it('reads playlists as text: tabs, line ends, a form feed, a few stray controls, any Unicode', () => {
    const lines = Array.from({ length: 2_000 }, (_, index) => `#EXTINF:${index},Artist ${index} - Ночь 東京 🎵\r\nC:\\Music\\${index}.mp3\t\v\f`).join('\n');
    expect(looksBinary(lines, { nulIsBinary: true })).toBe(false);
    // One stray control per thousand characters is text that went through a careless tool.
    const stray = lines.replace(/\r\n/g, (match, offset: number) => (offset % 40 === 0 ? '\u0007\r\n' : match));
    expect(looksBinary(stray, { nulIsBinary: true })).toBe(false);
  });

  it('refuses binary: many controls, or one NUL where the format never writes one', () => {
    const bytes = Array.from({ length: 4_096 }, (_, index) => String.fromCharCode((index * 37) % 256)).join('');
    expect(looksBinary(bytes, { nulIsBinary: false })).toBe(true);
    expect(looksBinary('Artist - Title\0\n', { nulIsBinary: true })).toBe(true);
    expect(looksBinary('Artist - Title\0\n', { nulIsBinary: false })).toBe(false);
    // Eight controls are always allowed, a ninth in a short text is too many.
    expect(looksBinary('\u0001'.repeat(8), { nulIsBinary: false })).toBe(false);
    expect(looksBinary('\u0001'.repeat(9), { nulIsBinary: false })).toBe(true);
  });

  it('agrees with the rule read one code unit at a time, and gives the same answer when asked twice', () => {
    const unit = fc.oneof(fc.constantFrom('\0', '\u0001', '\u0008', '\t', '\n', '\u000b', '\f', '\r', '\u000e', '\u001f', ' ', 'a', 'é', '東'), fc.string({ maxLength: 3 }));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 400 }), fc.boolean(), (parts, nulIsBinary) => {
        const text = parts.join('');
        const expected = byCodeUnit(text, nulIsBinary);
        expect(looksBinary(text, { nulIsBinary })).toBe(expected);
        // The scan keeps state in a shared regular expression: an early answer must not leak into the next call.
        expect(looksBinary(text, { nulIsBinary })).toBe(expected);
      }),
      { numRuns: 2_000 },
    );
  });
});
