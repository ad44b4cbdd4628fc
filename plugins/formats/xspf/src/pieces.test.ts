import { decodeXmlPieces } from '@opl/plugin-sdk';
import { describe, expect, it } from 'vitest';
import { parseXspfDocument, type ParsedXspf } from './xspf-parser.ts';
import { encoder, XSPF_HEAD } from './xspf-test-support.ts';

/**
 * The plugin parses a document as it is decoded, a piece at a time (about 1 MiB each, see
 * `decodeXmlPieces`). Whatever the pieces' size, the result — tracks, warnings with their lines,
 * refusals with theirs — is the one the whole text gives.
 */

const decode = (bytes: Uint8Array, encoding = 'utf-8'): string => new TextDecoder(encoding).decode(bytes);

type Outcome = { readonly parsed: ParsedXspf } | { readonly refused: string };

function outcome(read: () => ParsedXspf): Outcome {
  try {
    return { parsed: read() };
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

/** The document read whole, and read from pieces of every size from 1 byte to `largest`. */
function expectSameInPieces(document: string, largest = 64): Outcome {
  const bytes = encoder.encode(document);
  const whole = outcome(() => parseXspfDocument(decode(bytes), 'list.xspf'));
  for (let size = 1; size <= largest; size += 1) {
    expect(outcome(() => parseXspfDocument(decodeXmlPieces(bytes, decode, size), 'list.xspf')), `pieces of ${size} bytes`).toEqual(whole);
  }
  return whole;
}

describe('XSPF read from pieces', () => {
  it('keeps every track, and warns on the same lines, whatever the pieces', () => {
    const document = `${XSPF_HEAD}  <info>not a uri at all</info>
  <trackList>
    <track><title>Ночь — 東京の夜 𝄞</title><creator>Simon &amp; Garfunkel</creator><duration>239000</duration></track>
    <track>
      <title><![CDATA[A <b> & c]]></title>
      <identifier>has space</identifier>
      <link rel="http://example.org/rel">bad uri here</link>
      <x:foo xmlns:x="http://example.org/x">ignored</x:foo>
    </track>
  </trackList>
</playlist>
`;
    const whole = expectSameInPieces(document);
    expect('parsed' in whole).toBe(true);
    if (!('parsed' in whole)) return;
    const [playlist] = whole.parsed.playlists;
    expect(playlist?.tracks?.map((track) => track.title)).toEqual(['Ночь — 東京の夜 𝄞', 'A <b> & c']);
    expect(whole.parsed.issues.map((issue) => [issue.line, issue.code])).toEqual(
      expect.arrayContaining([
        [3, 'invalid_value'],
        [8, 'invalid_value'],
        [9, 'invalid_value'],
        [10, 'ignored_element'],
      ]),
    );
  });

  it.each([
    ['a DOCTYPE after a comment', `<?xml version="1.0"?>\n<!-- a comment -->\n<!DOCTYPE playlist [<!ENTITY a "aaaaaaaaaa">]>\n<playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList/></playlist>`, /line 3, column 1: a DOCTYPE/],
    ['a document cut short', `${XSPF_HEAD}<trackList><track><title>Cut</title></track><track><ti`, /XML refused/],
    ['a bare ampersand far into the file', `${XSPF_HEAD}<trackList>\n<track><title>a</title></track>\n<track><title>Simon & Garfunkel</title></track></trackList></playlist>`, /line 5, column \d+: a bare "&"/],
    ['an unknown entity', `${XSPF_HEAD}<trackList>\n<track><title>&eacute;</title></track></trackList></playlist>`, /line 4, column \d+: undefined entity "&eacute;"/],
    ['a wrong version', '<playlist version="2" xmlns="http://xspf.org/ns/0/"><trackList/></playlist>', /version "2" is not XSPF version 0 or 1/],
    ['no trackList', `${XSPF_HEAD}<title>t</title></playlist>`, /has no <trackList>/],
    ['markup in a text element', `${XSPF_HEAD}<trackList>\n<track><title>a <b>bold</b></title></track></trackList></playlist>`, /line 4\): <title> must hold text, not elements/],
    ['an element XSPF does not define', `${XSPF_HEAD}<trackList>\n\n<track><lyrics>la</lyrics></track></trackList></playlist>`, /line 5\): <lyrics> is not an XSPF element/],
  ])('refuses %s with the same reason and line', (_name, document, reason) => {
    const whole = expectSameInPieces(document);
    expect('refused' in whole ? whole.refused : '').toMatch(reason);
  });

  it('refuses invalid UTF-8 wherever it stands, and reads JSPF and blank files as before', () => {
    const bytes = Uint8Array.from([...encoder.encode(`${XSPF_HEAD}<trackList><track><title>`), 0xff, ...encoder.encode('</title></track></trackList></playlist>')]);
    for (const size of [4, 16, 1 << 20]) expect(() => parseXspfDocument(decodeXmlPieces(bytes, decode, size), null)).toThrow(/not valid UTF-8/);
    expect(expectSameInPieces('  \n {"playlist":{"title":"J","track":[{"title":"One","creator":"A"}]}}', 8)).toMatchObject({ parsed: { playlists: [{ name: 'J', tracks: [{ title: 'One' }] }] } });
    expect(expectSameInPieces('   \n  ', 4)).toEqual({ refused: 'the file holds only whitespace' });
    expect(() => parseXspfDocument(decodeXmlPieces(new Uint8Array(0), decode), null)).toThrow('the file is empty');
  });
});
