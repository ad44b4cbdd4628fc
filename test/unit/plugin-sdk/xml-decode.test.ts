import { describe, expect, it } from 'vitest';
import { InvalidInput } from '../../../plugin-sdk/src/errors.ts';
import { decodeXmlDocument, decodeXmlPieces, parseXml, xmlEncoding } from '../../../plugin-sdk/src/xml/index.ts';

/** `decodeXmlDocument`: how every XML format plugin turns its upload into text. */

const decode = (bytes: Uint8Array, encoding = 'utf-8'): string => new TextDecoder(encoding).decode(bytes);
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const utf16le = (text: string): Uint8Array => Uint8Array.from([...text].flatMap((char) => [char.charCodeAt(0) & 0xff, char.charCodeAt(0) >> 8]));

describe('decodeXmlDocument', () => {
  it('follows a byte order mark, then the declared encoding, then UTF-8', () => {
    expect(decodeXmlDocument(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('<a>ü</a>')]), decode)).toBe('<a>ü</a>');
    expect(decodeXmlDocument(Uint8Array.from([0xff, 0xfe, ...utf16le('<a>ü</a>')]), decode)).toBe('<a>ü</a>');
    expect(decodeXmlDocument(utf16le('<a>ü</a>'), decode)).toBe('<a>ü</a>');
    const latin1 = Uint8Array.from([...'<?xml version="1.0" encoding="ISO-8859-1"?><a>\xfc</a>'].map((char) => char.charCodeAt(0)));
    expect(decodeXmlDocument(latin1, decode)).toBe('<?xml version="1.0" encoding="ISO-8859-1"?><a>ü</a>');
    expect(decodeXmlDocument(utf8('<a>宇多田</a>'), decode)).toBe('<a>宇多田</a>');
    // A replacement character the file really holds is text, not a sign of damage.
    expect(decodeXmlDocument(utf8('<a>\uFFFD</a>'), decode)).toBe('<a>\uFFFD</a>');
  });

  it('refuses invalid UTF-8, a UTF-16 declaration without a mark and an unknown encoding', () => {
    expect(() => decodeXmlDocument(Uint8Array.from([0x3c, 0x61, 0x3e, 0xff, 0xfe, 0x3c]), decode)).toThrow(/not valid UTF-8/);
    expect(() => decodeXmlDocument(utf8('<?xml version="1.0" encoding="UTF-16"?><a/>'), decode)).toThrow(/no UTF-16 byte order mark/);
    expect(() => decodeXmlDocument(utf8('<?xml version="1.0" encoding="x-made-up"?><a/>'), decode)).toThrow(InvalidInput);
  });
});

describe('xmlEncoding', () => {
  it('says what decodeXmlDocument decodes with, where the text starts and what decided', () => {
    expect(xmlEncoding(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('<a/>')]))).toEqual({ encoding: 'utf-8', start: 3, source: 'bytes' });
    expect(xmlEncoding(Uint8Array.from([0xfe, 0xff, 0x00, 0x3c]))).toEqual({ encoding: 'utf-16be', start: 2, source: 'bytes' });
    expect(xmlEncoding(utf16le('<a/>'))).toEqual({ encoding: 'utf-16le', start: 0, source: 'bytes' });
    expect(xmlEncoding(utf8('<?xml version="1.0" encoding="UTF8"?><a/>'))).toEqual({ encoding: 'utf-8', start: 0, source: 'declaration' });
    expect(xmlEncoding(utf8("<?xml version='1.0' encoding='Windows-1252'?><a/>"))).toEqual({ encoding: 'windows-1252', start: 0, source: 'declaration' });
    expect(xmlEncoding(utf8('<a/>'))).toEqual({ encoding: 'utf-8', start: 0, source: 'default' });
  });
});

describe('decodeXmlPieces', () => {
  // Code units, not code points: the surrogate pair is two of them.
  const units = (text: string): number[] => Array.from({ length: text.length }, (_, index) => text.charCodeAt(index));
  const utf16be = (text: string): Uint8Array => Uint8Array.from(units(text).flatMap((unit) => [unit >> 8, unit & 0xff]));
  const utf16 = (text: string): Uint8Array => Uint8Array.from(units(text).flatMap((unit) => [unit & 0xff, unit >> 8]));
  const joined = (bytes: Uint8Array, size: number): string => [...decodeXmlPieces(bytes, decode, size)()].join('');
  // Multi-byte characters, a surrogate pair and U+FEFF (text in the middle of a document, which a
  // decoder would drop at the start of a piece) wherever a cut may fall.
  const text = '<a>ü宇\uFEFF\uFEFF𝄞x\uFEFFé</a>';

  it('joins into what decodeXmlDocument decodes, for every piece size and every encoding it cuts', () => {
    const files = [utf8(text), Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(text)]), Uint8Array.from([0xff, 0xfe, ...utf16(text)]), Uint8Array.from([0xfe, 0xff, ...utf16be(text)]), utf16(text)];
    for (const bytes of files) {
      const whole = decodeXmlDocument(bytes, decode);
      expect(whole).toBe(text);
      for (let size = 1; size <= bytes.length + 1; size += 1) expect(joined(bytes, size), `${size} bytes`).toBe(whole);
    }
  });

  it('decodes another declared encoding whole, and can be read again from the start', () => {
    const latin1 = Uint8Array.from([...'<?xml version="1.0" encoding="ISO-8859-1"?><a>\xfc</a>'].map((char) => char.charCodeAt(0)));
    const pieces = decodeXmlPieces(latin1, decode, 4);
    expect([...pieces()]).toEqual(['<?xml version="1.0" encoding="ISO-8859-1"?><a>ü</a>']);
    expect([...pieces()]).toEqual([...pieces()]);
  });

  it('refuses invalid UTF-8 when its piece is decoded, and a UTF-16 declaration without a mark', () => {
    const pieces = decodeXmlPieces(Uint8Array.from([...utf8('<a>0123456789'), 0xff, ...utf8('</a>')]), decode, 4);
    const read: string[] = [];
    expect(() => {
      for (const piece of pieces()) read.push(piece);
    }).toThrow(/not valid UTF-8/);
    // Pieces of four bytes: the one holding the bad byte is refused whole.
    expect(read.join('')).toBe('<a>012345678');
    expect(() => [...decodeXmlPieces(utf8('<?xml version="1.0" encoding="UTF-16"?><a/>'), decode)()]).toThrow(/no UTF-16 byte order mark/);
  });

  it('gives parseXml what the whole text gives it, an allowed DOCTYPE split across pieces included', () => {
    const allowedDoctype = { name: 'plist', publicId: '-//Apple//DTD PLIST 1.0//EN', systemId: 'http://www.apple.com/DTDs/PropertyList-1.0.dtd' };
    const document = `<?xml version="1.0"?>\n<!-- c -->\n<!DOCTYPE plist PUBLIC "${allowedDoctype.publicId}" "${allowedDoctype.systemId}">\n<plist version="1.0"><dict><key>Ü</key></dict></plist>`;
    const whole = parseXml(document, { allowedDoctype });
    for (let size = 1; size <= 40; size += 1) expect(parseXml(decodeXmlPieces(utf8(document), decode, size), { allowedDoctype })).toEqual(whole);
    const other = document.replace('PropertyList-1.0', 'Other');
    for (const size of [1, 7, 1 << 20]) expect(() => parseXml(decodeXmlPieces(utf8(other), decode, size), { allowedDoctype })).toThrow(/line 3, column 1: a DOCTYPE other than/);
  });
});
