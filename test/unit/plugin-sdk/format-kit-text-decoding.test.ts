import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFile, decodingWarning, detectEncoding } from '../../../plugin-sdk/src/format-kit/text-decoding.ts';
import { isValidUtf8, utf8SequenceAt } from '../../../plugin-sdk/src/format-kit/utf8-validator.ts';

const decode = (bytes: Uint8Array, encoding = 'utf-8'): string => new TextDecoder(encoding).decode(bytes);
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

function utf16(text: string, littleEndian: boolean): Uint8Array {
  const bytes = new Uint8Array(2 + text.length * 2);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, 0xfeff, littleEndian);
  for (let index = 0; index < text.length; index++) view.setUint16(2 + index * 2, text.charCodeAt(index), littleEndian);
  return bytes;
}

describe('isValidUtf8', () => {
  it('accepts well-formed text', () => {
    expect(isValidUtf8(utf8('ASCII, é, Ж, 日本, 🎵'))).toBe(true);
    expect(isValidUtf8(new Uint8Array([]))).toBe(true);
  });

  it.each([
    ['a stray continuation byte', [0x80]],
    ['a Latin-1 é', [0x63, 0x61, 0x66, 0xe9]],
    ['an overlong two-byte form', [0xc0, 0xaf]],
    ['an overlong three-byte form', [0xe0, 0x80, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a truncated sequence', [0xe6, 0x97]],
    ['a bad continuation', [0xe6, 0x41, 0xa5]],
    ['an invalid lead', [0xff]],
  ])('rejects %s', (_name, bytes) => {
    expect(isValidUtf8(new Uint8Array(bytes))).toBe(false);
  });

  // The ASCII runs are checked a word at a time through an aligned view: every offset into a
  // buffer and every place of a bad byte must give the strict decoder's answer.
  const strict = new TextDecoder('utf-8', { fatal: true });
  const strictAnswer = (bytes: Uint8Array): boolean => {
    try {
      strict.decode(bytes);
      return true;
    } catch {
      return false;
    }
  };

  it('agrees with a strict decoder on any bytes, at any offset into a buffer', () => {
    const mostlyAscii = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0x00, max: 0x7f }) }, { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) });
    fc.assert(
      fc.property(fc.array(mostlyAscii, { maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 30 }), fc.nat(7), fc.nat(7), (noise, text, before, after) => {
        for (const content of [noise, [...utf8(text)], [...utf8(text), ...noise]]) {
          const buffer = new Uint8Array(before + content.length + after).fill(0x41);
          buffer.set(content, before);
          const view = buffer.subarray(before, before + content.length);
          expect(isValidUtf8(view)).toBe(strictAnswer(view));
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('finds a bad byte anywhere in a long ASCII run', () => {
    const run = new Uint8Array(67).fill(0x61);
    for (let offset = 0; offset < 4; offset++) {
      for (let at = 0; at < run.length - offset; at++) {
        const bytes = run.slice().subarray(offset);
        bytes[at] = 0xe9;
        expect(isValidUtf8(bytes)).toBe(false);
      }
    }
    expect(isValidUtf8(new Uint8Array(8).subarray(3, 3))).toBe(true);
    expect(isValidUtf8(new Uint8Array(8).subarray(7))).toBe(true);
  });
});

describe('decodeFile', () => {
  it('reads UTF-8 without a BOM', () => {
    expect(decodeFile(utf8('Кино - Группа крови'), decode)).toEqual({ text: 'Кино - Группа крови', encoding: 'utf-8', repaired: null });
  });

  it('drops a UTF-8 BOM', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('宇多田ヒカル - First Love')]);
    expect(decodeFile(bytes, decode)).toEqual({ text: '宇多田ヒカル - First Love', encoding: 'utf-8', repaired: null });
  });

  it('reads UTF-16 LE and BE with a BOM', () => {
    const text = 'Björk - Jóga\n宇多田ヒカル - 花束を君に';
    expect(decodeFile(utf16(text, true), decode)).toEqual({ text, encoding: 'utf-16le', repaired: null });
    expect(decodeFile(utf16(text, false), decode)).toEqual({ text, encoding: 'utf-16be', repaired: null });
  });

  it('falls back to windows-1252 when the bytes are not UTF-8', () => {
    // "Beyoncé – Halo" and "Motörhead" in windows-1252 (0x96 is the en dash there).
    const bytes = new Uint8Array([0x42, 0x65, 0x79, 0x6f, 0x6e, 0x63, 0xe9, 0x20, 0x96, 0x20, 0x48, 0x61, 0x6c, 0x6f, 0x0a, 0x4d, 0x6f, 0x74, 0xf6, 0x72, 0x68, 0x65, 0x61, 0x64]);
    expect(detectEncoding(bytes)).toEqual({ encoding: 'windows-1252', bomLength: 0 });
    expect(decodeFile(bytes, decode).text).toBe('Beyoncé – Halo\nMotörhead');
  });

  it('asks the context for the detected encoding and passes the bytes without the BOM', () => {
    const calls: { bytes: number[]; encoding: string | undefined }[] = [];
    const spy = (bytes: Uint8Array, encoding?: string): string => {
      calls.push({ bytes: [...bytes], encoding });
      return 'x';
    };
    decodeFile(new Uint8Array([0xff, 0xfe, 0x78, 0x00]), spy);
    expect(calls).toEqual([{ bytes: [0x78, 0x00], encoding: 'utf-16le' }]);
  });

  it('keeps a UTF-8 file with a few windows-1252 bytes in UTF-8, reading only those bytes as windows-1252, and says where', () => {
    // "Björk" in UTF-8 and "Beyoncé" in windows-1252 (0xE9), as a tool still on windows-1252 appends a line.
    const bytes = new Uint8Array([...utf8('#EXTM3U\n#EXTINF:200,Björk - Jóga\n'), ...utf8('#EXTINF:261,Beyonc'), 0xe9, ...utf8(' – Halo\n'), 0x93, ...utf8('Quoted'), 0x94, 0x0a]);
    expect(decodeFile(bytes, decode)).toEqual({ text: '#EXTM3U\n#EXTINF:200,Björk - Jóga\n#EXTINF:261,Beyoncé – Halo\n“Quoted”\n', encoding: 'utf-8', repaired: { bytes: 3, line: 3 } });
    expect(decodingWarning(decodeFile(bytes, decode))).toEqual({ line: 3, code: 'mixed_encoding', message: 'the file is UTF-8 but 3 bytes are not (the first on this line): they were read as windows-1252; check the accented letters there' });
  });

  it('reads every stray byte as the windows-1252 decoder does', () => {
    for (let byte = 0x80; byte <= 0xff; byte++) {
      const bytes = new Uint8Array([...utf8('Sigur Rós: '), byte, 0x2e]);
      expect(decodeFile(bytes, decode).text).toBe(`Sigur Rós: ${decode(new Uint8Array([byte]), 'windows-1252')}.`);
    }
  });

  it('reads a windows-1252 file as windows-1252 even when two of its characters happen to spell a UTF-8 sequence', () => {
    // "CAFÉ’s" (C9 92 is also the UTF-8 of "ɒ") among other accented letters of windows-1252.
    const bytes = new Uint8Array([0x43, 0x41, 0x46, 0xc9, 0x92, 0x73, 0x0a, 0x4d, 0x6f, 0x74, 0xf6, 0x72, 0x68, 0x65, 0x61, 0x64, 0x0a, 0x4e, 0x61, 0xef, 0x76, 0x65]);
    expect(decodeFile(bytes, decode)).toEqual({ text: 'CAFÉ’s\nMotörhead\nNaïve', encoding: 'windows-1252', repaired: null });
    expect(decodingWarning(decodeFile(bytes, decode))?.code).toBe('legacy_encoding');
    expect(decodingWarning(decodeFile(utf8('Björk'), decode))).toBeNull();
  });

  it('keeps a U+FFFD the file really contains, and decodes a well-formed file once', () => {
    const encodings: (string | undefined)[] = [];
    const counting = (bytes: Uint8Array, encoding?: string): string => {
      encodings.push(encoding);
      return decode(bytes, encoding);
    };
    expect(decodeFile(utf8('Sigur Rós - � (untitled)'), counting)).toEqual({ text: 'Sigur Rós - � (untitled)', encoding: 'utf-8', repaired: null });
    expect(decodeFile(utf8('Sigur Rós - Hoppípolla'), counting)).toEqual({ text: 'Sigur Rós - Hoppípolla', encoding: 'utf-8', repaired: null });
    expect(encodings).toEqual(['utf-8', 'utf-8']);
  });

  it('chooses what detectEncoding chooses and decodes with it, for any bytes', () => {
    const mostlyAscii = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0x00, max: 0x7f }) }, { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) });
    const replacement = [0xef, 0xbf, 0xbd];
    fc.assert(
      fc.property(fc.array(fc.oneof(mostlyAscii.map((byte) => [byte]), fc.string({ unit: 'grapheme', maxLength: 4 }).map((text) => [...utf8(text)]), fc.constant(replacement))), (pieces) => {
        const bytes = new Uint8Array(pieces.flat());
        const detected = detectEncoding(bytes);
        const decoded = decodeFile(bytes, decode);
        if (decoded.repaired !== null) {
          // A UTF-8 file with stray bytes: each well-formed sequence is its UTF-8 character, each other byte its windows-1252 one.
          expect(detected.encoding).toBe('windows-1252');
          expect(decoded.encoding).toBe('utf-8');
          let expected = '';
          for (let index = 0; index < bytes.length; ) {
            const length = utf8SequenceAt(bytes, index);
            const piece = bytes.subarray(index, index + Math.max(length, 1));
            expected += length > 0 ? decode(piece) : decode(piece, 'windows-1252');
            index += piece.length;
          }
          expect(decoded.text).toBe(expected.replace(/^\uFEFF/, ''));
        } else {
          expect(decoded).toEqual({ text: decode(bytes.subarray(detected.bomLength), detected.encoding).replace(/^\uFEFF/, ''), encoding: detected.encoding, repaired: null });
        }
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('utf8SequenceAt', () => {
  it('gives a well-formed sequence its length and an ill-formed one minus the bytes a decoder replaces with one U+FFFD', () => {
    const bytes = Uint8Array.from([0x41, 0xc3, 0xa9, 0xe6, 0x9d, 0xb1, 0xf0, 0x9f, 0x98, 0x80, 0x80, 0xe6, 0x9d, 0x41, 0xed, 0xa0, 0x80, 0xc3]);
    expect([0, 1, 3, 6, 10, 11, 14, 17].map((index) => utf8SequenceAt(bytes, index))).toEqual([1, 2, 3, 4, -1, -2, -1, -1]);
    // The same count of replacements as the host's decoder.
    const replaced = [...new TextDecoder().decode(bytes)].filter((char) => char === '\ufffd').length;
    expect(replaced).toBe(6);
  });
});
