import { formatKit } from '@opl/plugin-sdk';
import { runParse } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
// The M3U8 plugin, only to check the conversion end to end (XSPF ⇒ model ⇒ M3U8) as `opl convert` runs it.
import m3u8 from '../../m3u8/src/index.ts';
import { LOCAL_FILE_REASON as M3U_LOCAL_FILE_REASON } from '../../m3u8/src/m3u-parser.ts';
import { LOCAL_FILE_REASON } from './xspf-names.ts';
import { parse, refusal, XSPF_HEAD } from './xspf-test-support.ts';

describe('reading XSPF written elsewhere', () => {
  it('parses a conforming document: web links, local files and other locations', async () => {
    const result = await parse(
      `${XSPF_HEAD}  <title>Mix</title>\n  <creator>DJ</creator>\n  <date>2005-01-08T17:10:47-05:00</date>\n  <identifier>urn:x:1</identifier>\n  <link rel="http://e.example/r">http://e.example/</link>\n  <meta rel="http://e.example/m">v</meta>\n  <extension application="http://other.example/app"><anything xmlns="urn:a"><deep/></anything></extension>\n  <trackList>\n` +
        '    <track><location>https://open.spotify.com/intl-de/track/abc?si=1</location><title>Web</title><creator>A</creator><duration>1000</duration><trackNum>1</trackNum></track>\n' +
        '    <track><location>file:///C:/Music/a%20b.mp3</location><title>Local</title></track>\n' +
        '    <track><location>http://radio.example/stream.mp3</location><identifier>deezer:track:5</identifier></track>\n' +
        '    <track><location>Music/relative.ogg</location><annotation>note</annotation></track>\n' +
        '    <track/>\n' +
        '  </trackList>\n</playlist>\n',
    );
    expect(result.issues).toEqual([]);
    const [playlist] = result.playlists;
    expect(playlist).toMatchObject({ name: 'Mix', owner_name: 'DJ', created_at: '2005-01-08T17:10:47-05:00', metadata: { identifier: 'urn:x:1' } });
    const tracks = playlist!.tracks;
    expect(tracks[0]).toMatchObject({ title: 'Web', artist: 'A', duration_s: 1, track_number: 1, provider_uris: { spotify: 'spotify:track:abc' }, is_local: false, media_type: 'track' });
    expect(tracks[1]).toMatchObject({ title: 'Local', is_local: true, media_type: 'local_file', is_migratable: false, metadata: { location: 'C:/Music/a b.mp3', local_path: 'C:/Music/a b.mp3' } });
    expect(tracks[1]!.unsupported_reason).toMatch(/local file/);
    expect(tracks[2]).toMatchObject({ title: '', artist: '', provider_uris: { deezer: 'deezer:track:5' }, metadata: { location: 'http://radio.example/stream.mp3' }, is_local: false });
    expect(tracks[3]).toMatchObject({ is_local: true, metadata: { location: 'Music/relative.ogg', local_path: 'Music/relative.ogg', annotation: 'note' } });
    expect(tracks[4]).toMatchObject({ title: '', position: 4 });
  });

  it('finds the document after any amount of leading white space (5,000 line breaks, 5 MB of spaces), XSPF and JSPF alike', async () => {
    // Without an XML declaration: XML allows one only at the very start.
    const xspf = '<playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList><track><title>x</title></track></trackList></playlist>';
    for (const blank of ['\n'.repeat(5_000), ' '.repeat(5 * 1024 * 1024)]) {
      expect((await parse(`${blank}${xspf}`)).playlists[0]!.tracks[0]!.title).toBe('x');
      expect((await parse(`${blank}{"playlist":{"title":"J","track":[]}}`, 'x.jspf')).playlists[0]!.name).toBe('J');
    }
    expect(await refusal('\n'.repeat(5_000))).toMatch(/holds only whitespace/);
  });

  it('accepts version 0, a prefixed XSPF namespace, and names the playlist after the file when it has no title', async () => {
    const result = await parse('<x:playlist version="0" xmlns:x="http://xspf.org/ns/0/"><x:trackList/></x:playlist>', 'folder/My List.xspf');
    expect(result.playlists[0]).toMatchObject({ name: 'My List', tracks: [] });
  });

  it('drops the line breaks and indentation a pretty-printer puts around a text, and keeps spaces that are part of it', async () => {
    // As Python's minidom.toprettyxml (before 3.8) and XML formatters write every text on its own line.
    const result = await parse(
      `${XSPF_HEAD}  <title>\n    Road trip\n  </title>\n  <creator>\r\n\tLéa\r\n  </creator>\n  <trackList>\n    <track>\n      <location>\n        http://example.org/a.mp3\n      </location>\n` +
        '      <title>\n        Hunter\n      </title>\n      <creator>\n        Björk\n      </creator>\n      <album>\n        Homogenic\n      </album>\n      <annotation>\n        line one\n        line two\n      </annotation>\n    </track>\n' +
        '    <track><title>  Spaced  </title><creator> A </creator><album>B\n</album></track>\n  </trackList>\n</playlist>',
    );
    expect(result.playlists[0]).toMatchObject({ name: 'Road trip', owner_name: 'Léa' });
    expect(result.playlists[0]!.tracks.map((track) => [track.title, track.artist, track.album, track.metadata.annotation])).toEqual([
      ['Hunter', 'Björk', 'Homogenic', 'line one\n        line two'],
      ['  Spaced  ', ' A ', 'B', undefined],
    ]);
  });

  it('ignores foreign elements outside <extension> with a warning', async () => {
    const result = await parse(`${XSPF_HEAD}<foo xmlns="urn:foo"/><trackList><track><bar xmlns="urn:bar"/><title>T</title></track></trackList></playlist>`);
    expect(result.issues.map((issue) => [issue.code, issue.line])).toEqual([
      ['ignored_element', 3],
      ['ignored_element', 3],
    ]);
    expect(result.playlists[0]!.tracks[0]!.title).toBe('T');
  });

  it('reads tracks while parsing yet reports in document-tree order: playlist issues before track issues, playlist refusals first', async () => {
    const warned = await parse(`${XSPF_HEAD}<trackList><track><bar xmlns="urn:bar"/></track><baz xmlns="urn:baz"/></trackList>\n<foo xmlns="urn:foo"/></playlist>`);
    expect(warned.issues.map((issue) => [issue.code, issue.line, issue.message.slice(0, 5)])).toEqual([
      ['ignored_element', 4, '<foo>'],
      ['ignored_element', 3, '<bar>'],
      ['ignored_element', 3, '<baz>'],
    ]);
    // A bad track comes first in the file, but the playlist-level refusal is the one reported (as before streaming).
    const message = await refusal('<playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList><track><duration>x</duration></track></trackList><title/><title/></playlist>');
    expect(message).toMatch(/only one <title>/);
    expect(await refusal('<playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList><song/></trackList><trackList/></playlist>')).toMatch(/only one <trackList>/);
  });

  it('reports conversion warnings after the reading ones, in playlist order: header fields, then each track, then date and extension', async () => {
    const opl = 'https://open-playlist.org/ns/xspf/1';
    const result = await parse(
      `<playlist version="1" xmlns="http://xspf.org/ns/0/" xmlns:opl="${opl}">\n<trackList>\n` +
        `<track><bar xmlns="urn:bar"/><title>${'t'.repeat(2_001)}</title><duration>1000000001000</duration><extension application="${opl}"><opl:explicit>maybe</opl:explicit><opl:isrc>${'I'.repeat(33)}</opl:isrc></extension></track>\n` +
        `<track><creator>${'c'.repeat(2_001)}</creator><baz xmlns="urn:baz"/></track>\n` +
        `</trackList>\n<title>${'n'.repeat(1_001)}</title>\n<foo xmlns="urn:foo"/>\n<date>2005-01-08T17:10:47</date>\n` +
        `<extension application="${opl}"><opl:track_count>many</opl:track_count></extension>\n</playlist>`,
    );
    expect(result.issues.map((issue) => [issue.code, issue.line, issue.message.slice(0, 30)])).toEqual([
      ['ignored_element', 7, '<foo> (namespace urn:foo) is n'],
      ['ignored_element', 3, '<bar> (namespace urn:bar) is n'],
      ['ignored_element', 4, '<baz> (namespace urn:baz) is n'],
      ['value_truncated', 1, 'the playlist title is longer t'],
      ['value_truncated', 3, 'the track title is longer than'],
      ['invalid_value', 3, 'the duration 1000000001000 ms '],
      ['value_truncated', 3, 'extension field isrc is too lo'],
      ['invalid_value', 3, 'extension field explicit "mayb'],
      ['value_truncated', 4, 'the track creator is longer th'],
      ['invalid_value', 1, 'the playlist date "2005-01-08T'],
      ['invalid_value', 1, 'extension field track_count "m'],
    ]);
  });

  it('bounds reading and conversion warnings together: the first 200 in playlist order, then a count', async () => {
    const tracks = Array.from({ length: 150 }, (_, index) => `<track><bar xmlns="urn:bar"/><title>${'t'.repeat(2_001)}</title><album>${index}</album></track>\n`).join('');
    const result = await parse(`${XSPF_HEAD}<foo xmlns="urn:foo"/><title>${'n'.repeat(1_001)}</title><date>2005-01-08T17:10:47</date>\n<trackList>\n${tracks}</trackList></playlist>`);
    const issues = result.issues;
    expect(issues).toHaveLength(201);
    // <foo>, then the 150 tracks' foreign elements (lines 5 to 154), all read before anything is converted.
    expect(issues.slice(0, 151).map((issue) => [issue.code, issue.line])).toEqual([['ignored_element', 3], ...Array.from({ length: 150 }, (_, index) => ['ignored_element', 5 + index])]);
    expect(issues[151]).toMatchObject({ code: 'value_truncated', line: 2, message: expect.stringMatching(/^the playlist title/) as unknown });
    expect(issues.slice(152, 200).map((issue) => [issue.code, issue.line])).toEqual(Array.from({ length: 48 }, (_, index) => ['value_truncated', 5 + index]));
    // The other 102 track titles and the date.
    expect(issues[200]).toMatchObject({ code: 'too_many_issues', message: expect.stringMatching(/^103 more issues/) as unknown });
  });

  it('lists at most 200 issues of a stream plus one summary', async () => {
    const tracks = '<track><bar xmlns="urn:bar"/></track>'.repeat(300);
    const result = await parse(`${XSPF_HEAD}<trackList>${tracks}</trackList></playlist>`);
    expect(result.issues).toHaveLength(201);
    expect(result.issues.at(-1)).toMatchObject({ code: 'too_many_issues', message: expect.stringMatching(/^100 more issues/) as unknown });
    expect(result.playlists[0]!.tracks).toHaveLength(300);
  });

  it('accepts what XSPF allows: xml:base and other namespaced attributes, integers with sign, zeros and spaces, empty elements, any element order', async () => {
    const result = await parse(
      '<playlist xml:base="http://example.org/" version="1" xmlns="http://xspf.org/ns/0/" xmlns:v="urn:vendor">\n' +
        '<trackList v:state="open">\n  <track>\n    <duration>\n 0003000 </duration><trackNum>+2</trackNum><title/><annotation></annotation><meta rel="http://example.org/rel/1/"/><creator>C</creator>\n  </track>\n</trackList>\n' +
        '<attribution>\n  <location>http://example.org/a.xspf</location>\n  <identifier>urn:x:1</identifier>\n</attribution>\n' +
        '<date> 2005-01-08T17:10:47-05:00 </date><link rel="http://example.org/rel/home">http://example.org/</link><extension application="urn:vendor"><v:any>free <v:b/> content</v:any></extension>\n</playlist>',
    );
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]).toMatchObject({ created_at: '2005-01-08T17:10:47-05:00', tracks: [{ title: '', artist: 'C', duration_s: 3, track_number: 2 }] });
  });

  it('leaves a conforming duration or trackNum too large for the model empty, with a warning', async () => {
    const result = await parse(`${XSPF_HEAD}<trackList><track><title>T</title><trackNum>123456789012345678901</trackNum><duration>99999999999999999999999</duration></track></trackList></playlist>`);
    expect(result.playlists[0]!.tracks[0]).toMatchObject({ title: 'T', track_number: null, duration_s: null });
    expect(result.issues.map((issue) => [issue.code, issue.message.slice(0, 10)])).toEqual([
      ['invalid_value', '<trackNum>'],
      ['invalid_value', 'the durati'],
    ]);
  });

  it('warns about a date without a time zone and keeps the rest', async () => {
    const result = await parse(`${XSPF_HEAD}<date>2005-01-08T17:10:47</date><trackList/></playlist>`);
    expect(result.playlists[0]!.created_at).toBeNull();
    expect(result.issues[0]).toMatchObject({ code: 'invalid_value', line: 2, severity: 'warning' });
  });

  it.each([
    ['a root outside the XSPF namespace', '<playlist version="1"><trackList/></playlist>', /XSPF namespace/],
    ['the wrong namespace', '<playlist version="1" xmlns="http://xspf.org/ns/1/"><trackList/></playlist>', /XSPF namespace/],
    ['another root', '<smil xmlns="http://xspf.org/ns/0/"/>', /root element is <smil>/],
    ['no version', '<playlist xmlns="http://xspf.org/ns/0/"><trackList/></playlist>', /no version/],
    ['version 2', '<playlist version="2" xmlns="http://xspf.org/ns/0/"><trackList/></playlist>', /version "2"/],
    ['no trackList', '<playlist version="1" xmlns="http://xspf.org/ns/0/"><title>x</title></playlist>', /no <trackList>/],
    ['two trackLists', '<playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList/><trackList/></playlist>', /only one <trackList>/],
    ['two titles', '<playlist version="1" xmlns="http://xspf.org/ns/0/"><title/><title/><trackList/></playlist>', /only one <title>/],
    ['an unknown XSPF element', '<playlist version="1" xmlns="http://xspf.org/ns/0/"><tracks/><trackList/></playlist>', /<tracks> is not an XSPF element/],
    ['a non-track in trackList', '<playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList><song/></trackList></playlist>', /only <track>/],
    ['a negative duration', '<playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList><track><duration>-5</duration></track></trackList></playlist>', /<duration> must be a non-negative whole number of milliseconds/],
    ['a duration in seconds', '<playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList><track><duration>3:20</duration></track></trackList></playlist>', /line 1.*<duration>/],
    ['trackNum 0', '<playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList><track><trackNum>0</trackNum></track></trackList></playlist>', /<trackNum> must be a positive/],
    ['markup inside title', '<playlist version="1" xmlns="http://xspf.org/ns/0/"><title><b>x</b></title><trackList/></playlist>', /must hold text/],
    ['an extension without application', '<playlist version="1" xmlns="http://xspf.org/ns/0/"><extension/><trackList/></playlist>', /application attribute/],
    ['a link without rel', `${XSPF_HEAD}<link>http://example.org/</link><trackList/></playlist>`, /<link> needs a rel attribute/],
    ['a track meta without rel', `${XSPF_HEAD}<trackList><track><meta>14</meta></track></trackList></playlist>`, /<meta> needs a rel attribute/],
    ['an extension without application in a track', `${XSPF_HEAD}<trackList><track><extension/></track></trackList></playlist>`, /<extension> needs an application attribute/],
    ['text directly in playlist', `${XSPF_HEAD}stray<trackList/></playlist>`, /<playlist> holds text "stray"/],
    ['text directly in trackList', `${XSPF_HEAD}<trackList>stray</trackList></playlist>`, /<trackList> holds text/],
    ['text directly in a track', `${XSPF_HEAD}<trackList><track>stray<title>T</title></track></trackList></playlist>`, /<track> holds text/],
    ['text directly in attribution', `${XSPF_HEAD}<attribution>stray</attribution><trackList/></playlist>`, /<attribution> holds text/],
    ['a title in attribution', `${XSPF_HEAD}<attribution><title>x</title></attribution><trackList/></playlist>`, /<attribution> may hold only <location> and <identifier>/],
    ['an attribute XSPF does not define on playlist', '<playlist version="1" mode="x" xmlns="http://xspf.org/ns/0/"><trackList/></playlist>', /<playlist> has an attribute "mode"/],
    ['an attribute on annotation', `${XSPF_HEAD}<annotation lang="en">x</annotation><trackList/></playlist>`, /<annotation> has an attribute "lang"/],
    ['an attribute on a track', `${XSPF_HEAD}<trackList><track id="1"/></trackList></playlist>`, /<track> has an attribute "id"/],
    ['a date that is no dateTime', `${XSPF_HEAD}<date>yesterday</date><trackList/></playlist>`, /<date> must be an XML Schema dateTime/],
    ['an extension in a version 0 document', '<playlist version="0" xmlns="http://xspf.org/ns/0/"><trackList><track><extension application="urn:x"/></track></trackList></playlist>', /not part of XSPF version 0/],
  ])('refuses %s with the reason', async (_name, document, reason) => {
    const message = await refusal(document);
    expect(message).toMatch(/not a conforming XSPF document/);
    expect(message).toMatch(reason);
  });
});

describe('tracks without a title, ISRC identifiers and counts (files from other software)', () => {
  const OPL = 'https://open-playlist.org/ns/xspf/1';
  const tracksOf = async (body: string) => (await parse(`${XSPF_HEAD}<trackList>${body}</trackList></playlist>`)).playlists[0]!.tracks;

  it('names a track without a <title> by its file name, as the M3U, PLS and WPL readers do', async () => {
    const locations = [
      'file:///home/u/Music/Daft%20Punk%20-%20One%20More%20Time.mp3', // VLC: untagged file, no <title>
      'file:///C:/Rips/07%20Digital%20Love.flac', // a ripper's track number
      'Music/50%20Cent%20-%20In%20Da%20Club.mp3', // a relative reference; "50 Cent" is a name, not a number
      'http://files.example/Mara%20Voss%20-%20%C3%9Cnder%20Glass.mp3?dl=1', // a song on a server
      'http://radio.example:8000/', // a stream without a file name: named by its host
    ];
    const tracks = await tracksOf(locations.map((location) => `<track><location>${location}</location></track>`).join(''));
    expect(tracks.map((track) => [track.title, track.artist, track.track_number])).toEqual([
      ['One More Time', 'Daft Punk', null],
      ['Digital Love', '', 7],
      ['In Da Club', '50 Cent', null],
      ['Ünder Glass', 'Mara Voss', null],
      ['radio.example:8000', '', null],
    ]);
    // Exactly the names the M3U reader gives the same entries (the decoded paths, the URLs as written).
    const lines = tracks.map((track, index) => (track.is_local ? (track.metadata.local_path as string) : locations[index]!));
    const m3u = await runParse(m3u8, `#EXTM3U\n${lines.join('\n')}\n`, { filename: 'same.m3u8' });
    expect(m3u.playlists[0]!.tracks.map((track) => [track.title, track.artist, track.track_number])).toEqual(tracks.map((track) => [track.title, track.artist, track.track_number]));
    // Local files are local-file tracks with the M3U reader's reason, word for word; a named song on a server stays a song; a bare stream is not one.
    expect(LOCAL_FILE_REASON).toBe(M3U_LOCAL_FILE_REASON);
    expect(tracks.slice(0, 3).map((track) => [track.media_type, track.is_migratable, track.unsupported_reason])).toEqual(Array.from({ length: 3 }, () => ['local_file', false, M3U_LOCAL_FILE_REASON]));
    expect(tracks[3]).toMatchObject({ media_type: 'track', is_migratable: true, unsupported_reason: null, metadata: { location: locations[3] } });
    expect(tracks[4]).toMatchObject({ media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.REMOTE_ITEM_REASONS.unnamed });
  });

  it('keeps what the track says: <title>, <creator> and <trackNum> win over the file name; provider tracks are not renamed', async () => {
    const tracks = await tracksOf(
      [
        '<track><location>file:///m/Wrong%20-%20Name.mp3</location><title>Right</title></track>',
        '<track><location>file:///m/Daft%20Punk%20-%20Aerodynamic.mp3</location><creator>Daft Punk (DJ set)</creator></track>',
        '<track><location>file:///m/03%20Voyager.mp3</location><trackNum>9</trackNum><title> </title></track>',
        '<track><location>https://open.spotify.com/track/abc</location><location>file:///m/x%20-%20y.mp3</location></track>',
        '<track><location>rtsp://live.example/Artist%20-%20Title.mp3</location></track>',
        '<track><location>http://h.example/lists/Artist%20-%20Mix.m3u</location></track>',
        '<track><location>http://h.example/Only%20Title.mp3</location><creator>Someone</creator></track>',
        `<track><location>file:///m/Ours%20-%20Kept.mp3</location><title/><extension application="${OPL}"><opl:media_type xmlns:opl="${OPL}">local_file</opl:media_type></extension></track>`,
      ].join(''),
    );
    expect(tracks.map((track) => [track.title, track.artist, track.track_number])).toEqual([
      ['Right', '', null],
      ['Aerodynamic', 'Daft Punk (DJ set)', null],
      ['Voyager', '', 9],
      ['', '', null],
      ['Title', 'Artist', null],
      ['Mix', 'Artist', null],
      ['Only Title', 'Someone', null],
      // Our own export is read from its extension: an empty title stays empty.
      ['', '', null],
    ]);
    expect(tracks[3]).toMatchObject({ provider_uris: { spotify: 'spotify:track:abc' }, is_local: false, media_type: 'track' });
    expect(tracks.slice(4, 7).map((track) => [track.media_type, track.is_migratable, track.unsupported_reason])).toEqual([
      ['unknown', false, formatKit.REMOTE_ITEM_REASONS.stream],
      ['unknown', false, formatKit.REMOTE_ITEM_REASONS.playlist],
      ['track', true, null],
    ]);
  });

  it('reads an ISRC identifier (isrc:, urn:isrc:) into isrc, normalised; anything else stays an identifier', async () => {
    const tracks = await tracksOf(
      [
        '<track><identifier>isrc:GBDUW0000059</identifier><title>A</title></track>',
        '<track><identifier> urn:isrc:gb-duw-00-00059 </identifier><identifier>spotify:track:abc</identifier><title>B</title></track>',
        '<track><identifier>ISRC:usrc17607839</identifier><identifier>urn:isrc:GBDUW0000059</identifier><identifier>isrc:usrc17607839</identifier><title>C</title></track>',
        '<track><identifier>isrc:not-an-isrc</identifier><identifier>urn:x:1</identifier><title>D</title></track>',
      ].join(''),
    );
    expect(tracks.map((track) => [track.isrc, track.provider_uris, track.metadata.identifiers])).toEqual([
      ['GBDUW0000059', {}, undefined],
      ['GBDUW0000059', { spotify: 'spotify:track:abc' }, undefined],
      // The first ISRC is the track's; a different one is kept, a repeated one is not.
      ['USRC17607839', {}, ['urn:isrc:GBDUW0000059']],
      [null, {}, ['isrc:not-an-isrc', 'urn:x:1']],
    ]);
  });

  it('drops a negative opl:track_count with a warning instead of failing the import', async () => {
    const withCount = (value: string) => `${XSPF_HEAD}<title>Counted</title><extension application="${OPL}"><opl:track_count xmlns:opl="${OPL}">${value}</opl:track_count></extension><trackList><track><title>T</title></track></trackList></playlist>`;
    const negative = await parse(withCount('-3'));
    expect(negative.playlists[0]).toMatchObject({ name: 'Counted', track_count: null, tracks: [{ title: 'T' }] });
    expect(negative.issues).toEqual([{ line: 2, column: null, code: 'invalid_value', severity: 'warning', message: 'extension field track_count "-3" is negative, and a count cannot be; it was left empty' }]);
    expect((await parse(withCount('0'))).playlists[0]!.track_count).toBe(0);
    const jspf = await parse(JSON.stringify({ playlist: { title: 'J', extension: { [OPL]: [{ track_count: -1 }] }, track: [] } }), 'x.jspf');
    expect(jspf.playlists[0]!.track_count).toBeNull();
    expect(jspf.issues).toEqual([expect.objectContaining({ code: 'invalid_value', message: expect.stringContaining('track_count "-1" is negative') as unknown })]);
  });
});
