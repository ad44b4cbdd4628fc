import { describe, expect, it } from 'vitest';
import { decodeFile, detectEncoding } from '../../../plugin-sdk/src/format-kit/text-decoding.ts';
import { isValidUtf8 } from '../../../plugin-sdk/src/format-kit/utf8-validator.ts';

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
});

describe('decodeFile', () => {
  it('reads UTF-8 without a BOM', () => {
    expect(decodeFile(utf8('Кино - Группа крови'), decode)).toEqual({ text: 'Кино - Группа крови', encoding: 'utf-8' });
  });

  it('drops a UTF-8 BOM', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('宇多田ヒカル - First Love')]);
    expect(decodeFile(bytes, decode)).toEqual({ text: '宇多田ヒカル - First Love', encoding: 'utf-8' });
  });

  it('reads UTF-16 LE and BE with a BOM', () => {
    const text = 'Björk - Jóga\n宇多田ヒカル - 花束を君に';
    expect(decodeFile(utf16(text, true), decode)).toEqual({ text, encoding: 'utf-16le' });
    expect(decodeFile(utf16(text, false), decode)).toEqual({ text, encoding: 'utf-16be' });
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
});
