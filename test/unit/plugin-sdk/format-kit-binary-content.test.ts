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

  it('with legacyDecoded, refuses windows-1252 text that holds C1 controls (the undefined bytes), not a Latin-1 list', () => {
    const cp1252 = new TextDecoder('windows-1252');
    let seed = 11;
    const highBytes = Uint8Array.from({ length: 20_000 }, () => 0x80 + (((seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 16) & 0x7f));
    const garbage = cp1252.decode(highBytes);
    // No C0 control at all: without the option this garbage passes as text.
    expect(looksBinary(garbage, { nulIsBinary: true })).toBe(false);
    expect(looksBinary(garbage, { nulIsBinary: true, legacyDecoded: true })).toBe(true);
    // Every printable windows-1252 byte, many times over: accented titles, curly quotes, dashes, €.
    const printable = Array.from({ length: 0x80 }, (_, index) => 0x80 + index).filter((byte) => ![0x81, 0x8d, 0x8f, 0x90, 0x9d].includes(byte));
    const latin1 = cp1252.decode(Uint8Array.from(Array.from({ length: 200 }, () => [...new TextEncoder().encode('Beyonc'), ...printable, 0x0a]).flat()));
    expect(latin1).toContain('€');
    expect(looksBinary(latin1, { nulIsBinary: true, legacyDecoded: true })).toBe(false);
    // In UTF-8 text, C1 characters are mojibake of curly quotes (`â\u0080\u0099`), still the user's text.
    const mojibake = 'Don\u00e2\u0080\u0099t Stop Me Now\n'.repeat(500);
    expect(looksBinary(mojibake, { nulIsBinary: true })).toBe(false);
  });
});
