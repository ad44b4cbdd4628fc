import { describe, expect, it } from 'vitest';
import { InvalidInput } from '../../../plugin-sdk/src/errors.ts';
import { decodeXmlDocument, xmlEncoding } from '../../../plugin-sdk/src/xml/index.ts';

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
