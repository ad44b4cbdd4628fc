import { formatKit, PLUGIN_DEFINITION_MARK, type TrackInput } from '@opl/plugin-sdk';
import { FORMAT_OPERATIONS, type PlaylistInput } from '@opl/plugin-sdk/schemas';
import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
// The M3U8 plugin, only to check the conversion end to end (XSPF ⇒ model ⇒ M3U8) as `opl convert` runs it.
import m3u8 from '../../m3u8/src/index.ts';
import { LOCAL_FILE_REASON as M3U_LOCAL_FILE_REASON } from '../../m3u8/src/m3u-parser.ts';
import plugin from './index.ts';
import { LOCAL_FILE_REASON } from './xspf-names.ts';

const encoder = new TextEncoder();

async function exported(playlist: PlaylistInput, options: Record<string, unknown> = {}): Promise<string> {
  return (await runSerialize(plugin, [playlist], options)).text;
}

const parse = (file: Uint8Array | string, filename: string | null = 'list.xspf') => runParse(plugin, file, { filename });

async function refusal(bytes: Uint8Array | string, filename: string | null = 'list.xspf'): Promise<string> {
  try {
    await parse(bytes, filename);
  } catch (error) {
    expect((error as { type?: string }).type).toBe('InvalidInput');
    return (error as Error).message;
  }
  throw new Error('expected the file to be refused');
}

/** What a playlist becomes after the host validates it (defaults filled in). */
function normalized(playlist: PlaylistInput) {
  const full = FORMAT_OPERATIONS.parse.output.parse({ playlists: [playlist], issues: [] }).playlists[0]!;
  return { ...full, tracks: full.tracks.map((track, index) => ({ ...track, position: index })) };
}

const rich: PlaylistInput = {
  id: '37i9dQZF1DXcBWIGoYBM5M',
  name: '  J-Pop 名曲 / Русский рок & <friends> ',
  description: 'Любимые песни — お気に入り\nline two\r\nwith CR',
  photo: 'https://img.example/photo.jpg',
  owner_id: 'owner-1',
  owner_name: 'Ünïcode Owner',
  created_at: '2023-12-31T23:59:59Z',
  updated_at: '2024-05-01T10:00:00.250+09:00',
  artwork_uri: 'https://img.example/cover.jpg',
  snapshot_id: 'snap-1',
  is_owned: true,
  is_followed: false,
  collaborative: null,
  track_count: 4,
  provider_uris: { spotify: 'spotify:playlist:37i9dQZF1DXcBWIGoYBM5M', tidal: 'tidal:playlist:abc' },
  metadata: { nested: { list: [1, 'two', null], flag: true }, quote: '"\'<>&' },
  tracks: [
    {
      id: 'trk-1',
      source_item_id: 'set-1',
      title: '花束を君に',
      artist: '宇多田ヒカル',
      artists: ['宇多田ヒカル'],
      album: 'Fantôme',
      duration_s: 282,
      isrc: 'JPB601601133',
      release_date: '2016-09-28',
      release_year: 2016,
      genre: 'J-Pop',
      track_number: 3,
      disc_number: 1,
      explicit: false,
      composer: 'Utada',
      credits: [{ role: 'producer', name: 'A & B', instrument: null, uri: 'spotify:artist:x' }],
      label: 'Epic',
      provider_uris: { spotify: 'spotify:track:2xAmple', tidal: 'tidal:track:123', deezer: 'deezer:track:9' },
      artwork_uri: 'https://img.example/a.jpg',
      added_at: '2024-01-01T00:00:00Z',
      source_position: 0,
      provider_metadata: { videoType: 'MUSIC', popularity: 71 },
    },
    // A duplicate, in place, with a fractional duration and track number 0 (not an XSPF trackNum).
    { id: 'trk-1', title: '花束を君に', artist: '宇多田ヒカル', duration_s: 282.0005, track_number: 0, provider_uris: { spotify: 'spotify:track:2xAmple' }, source_position: 1 },
    {
      title: 'Bad\u0000chars\u0007 ]]> here',
      artist: "'Til Tuesday",
      media_type: 'episode',
      is_migratable: false,
      unsupported_reason: 'podcast episodes are not migrated',
      provider_uris: { spotify: 'spotify:episode:abc' },
      explicit: true,
    },
    {
      title: 'Song',
      artist: 'Someone',
      media_type: 'local_file',
      is_local: true,
      is_migratable: false,
      unsupported_reason: 'local file',
      metadata: { location: 'file:///home/me/Music/Song.mp3' },
    },
  ],
};

describe('opl.format.xspf', () => {
  it('is a format plugin with parse and serialize', () => {
    expect(plugin.mark).toBe(PLUGIN_DEFINITION_MARK);
    expect(plugin.kind).toBe('format');
  });

  it('writes exactly these bytes for a small playlist', async () => {
    const text = await exported({
      id: 'pl-1',
      name: 'Road <trip> & more',
      owner_name: 'me',
      tracks: [{ title: 'One', artist: 'A "B"', album: 'Al', duration_s: 201.5, track_number: 2, provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' } }, { title: 'Two', artist: 'C', provider_uris: { tidal: 'tidal:track:77' } }],
    });
    expect(text).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<playlist version="1" xmlns="http://xspf.org/ns/0/" xmlns:opl="https://open-playlist.org/ns/xspf/1">',
        '  <title>Road &lt;trip&gt; &amp; more</title>',
        '  <creator>me</creator>',
        '  <extension application="https://open-playlist.org/ns/xspf/1">',
        '    <opl:id>pl-1</opl:id>',
        '  </extension>',
        '  <trackList>',
        '    <track>',
        '      <location>https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC</location>',
        '      <identifier>spotify:track:4uLU6hMCjMI75M1A2tKUQC</identifier>',
        '      <title>One</title>',
        '      <creator>A "B"</creator>',
        '      <album>Al</album>',
        '      <trackNum>2</trackNum>',
        '      <duration>201500</duration>',
        '      <extension application="https://open-playlist.org/ns/xspf/1">',
        '        <opl:provider_uris>',
        '          <opl:uri provider="spotify">spotify:track:4uLU6hMCjMI75M1A2tKUQC</opl:uri>',
        '        </opl:provider_uris>',
        '      </extension>',
        '    </track>',
        '    <track>',
        '      <location>https://tidal.com/browse/track/77</location>',
        '      <identifier>tidal:track:77</identifier>',
        '      <title>Two</title>',
        '      <creator>C</creator>',
        '      <extension application="https://open-playlist.org/ns/xspf/1">',
        '        <opl:provider_uris>',
        '          <opl:uri provider="tidal">tidal:track:77</opl:uri>',
        '        </opl:provider_uris>',
        '      </extension>',
        '    </track>',
        '  </trackList>',
        '</playlist>',
        '',
      ].join('\n'),
    );
  });

  it('round-trips rich metadata, duplicates and Unicode; strips XML-illegal characters', async () => {
    const text = await exported(rich, { source_provider: 'tidal' });
    expect(text).not.toContain('\u0000');
    expect(text).not.toContain('\u0007');
    expect(text).toContain('<location>https://tidal.com/browse/track/123</location>\n      <location>https://open.spotify.com/track/2xAmple</location>');
    expect(text).toContain('<location>file:///home/me/Music/Song.mp3</location>');
    const result = await parse(text);
    expect(result.issues).toEqual([]);
    const expected = normalized(rich);
    expected.tracks[2]!.title = 'Badchars ]]> here';
    expect(result.playlists).toEqual([expected]);
  });

  it('round-trips an empty playlist', async () => {
    const text = await exported({ name: 'Empty', kind: 'LIKED_TRACKS' });
    expect(text).toContain('<trackList/>');
    expect((await parse(text)).playlists).toEqual([normalized({ name: 'Empty', kind: 'LIKED_TRACKS' })]);
  });

  it('refuses several playlists in one document', async () => {
    await expect(runSerialize(plugin, [{ name: 'a' }, { name: 'b' }], {})).rejects.toThrow(/exactly one playlist, and 2 were given/);
  });

  it('yields chunks of at most 64 KiB that join into the document', async () => {
    const tracks = Array.from({ length: 3_000 }, (_, index) => ({ title: `Träck ${index} 😀`, artist: 'Ärtist', provider_uris: { spotify: `spotify:track:id${index}` } }));
    const { chunks } = await runSerialize(plugin, [{ name: 'Big', metadata: { blob: 'é'.repeat(150_000) }, tracks }], {});
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(encoder.encode(chunk).length).toBeLessThanOrEqual(64 * 1024);
    const result = await parse(chunks.join(''));
    expect(result.playlists[0]!.tracks).toHaveLength(3_000);
    expect(result.playlists[0]!.metadata.blob).toHaveLength(150_000);
    expect(result.issues).toEqual([]);
  });
});

describe('texts longer than the reader accepts in one element (1,000,000 characters)', () => {
  const LIMIT = 1_000_000;
  /** The length of the longest text between two tags, as the parser reads it (escapes undone). */
  function longestTexts(text: string): number {
    let longest = 0;
    for (const match of text.matchAll(/>([^<]*)</g)) longest = Math.max(longest, match[1]!.replace(/&(?:amp|lt|gt|#xD);/g, '_').length);
    return longest;
  }

  it('writes metadata of any size (the model does not bound it) in parts, and reads it back exactly', { timeout: 60_000 }, async () => {
    // The JSON text starts {"blob":" (9 characters), so the emoji's surrogate pair straddles the first cut at 1,000,000.
    const blob = `${'a'.repeat(LIMIT - 10)}😀${'<&>"\\\r\n\u0007\uFFFE\uFFFF\uD800 é 宇 🎵'.repeat(150_000)}`;
    const huge: PlaylistInput = {
      name: 'Huge',
      metadata: { blob: 'x'.repeat(2_500_000) },
      created_at: `2024-01-01T00:00:00.${'1'.repeat(LIMIT)}Z`,
      updated_at: `2024-01-02T00:00:00.${'2'.repeat(LIMIT + 5)}+09:00`,
      tracks: [
        {
          title: 'T',
          artist: 'A',
          metadata: { blob, location: `/${'ü'.repeat(LIMIT)}.mp3` },
          provider_metadata: { nested: { list: Array.from({ length: 120_000 }, (_, index) => ({ index, note: 'n&<' })) } },
          added_at: `2024-01-03T00:00:00.${'3'.repeat(LIMIT * 2)}Z`,
        },
      ],
    };
    const text = await exported(huge);
    expect(longestTexts(text)).toBeLessThanOrEqual(LIMIT);
    expect(text).toContain('<opl:metadata>\n          <opl:part>{"blob":"aaa');
    expect(text).toContain('<opl:created_at>\n      <opl:part>2024-01-01T00:00:00.111');
    expect(text).not.toContain('<date>');
    // The location is too long for a <location>; the extension keeps it.
    expect(locationsOf(text)).toEqual([]);
    const result = await parse(text);
    expect(result.issues).toEqual([]);
    const expected = normalized(huge);
    // What XML cannot carry (U+0007, a lone surrogate, U+FFFE, U+FFFF) is a JSON escape in the metadata text, so the blob reads back whole.
    expect(result.playlists).toEqual([expected]);
  });

  it('keeps one element (no parts) for a text of exactly the limit, and reads parts written by hand', async () => {
    const exact = await exported({ name: 'E', metadata: { k: 'k'.repeat(LIMIT - 8) } });
    expect(exact).toContain(`<opl:metadata>{"k":"${'k'.repeat(LIMIT - 8)}"}</opl:metadata>`);
    expect((await parse(exact)).playlists[0]!.metadata.k).toHaveLength(LIMIT - 8);
    const opl = 'https://open-playlist.org/ns/xspf/1';
    const parts = await parse(
      `<playlist version="1" xmlns="http://xspf.org/ns/0/" xmlns:opl="${opl}"><extension application="${opl}"><opl:metadata> <opl:part>{"a":</opl:part>\n<opl:part>[1,"x&amp;y</opl:part><opl:part>"]}</opl:part> </opl:metadata><opl:snapshot_id><opl:part>s-</opl:part><opl:part>1</opl:part></opl:snapshot_id></extension><trackList/></playlist>`,
    );
    expect(parts.issues).toEqual([]);
    expect(parts.playlists[0]).toMatchObject({ metadata: { a: [1, 'x&y'] }, snapshot_id: 's-1' });
  });

  it('still refuses one text longer than the limit, in the extension or in a part', async () => {
    const opl = 'https://open-playlist.org/ns/xspf/1';
    const head = `<playlist version="1" xmlns="http://xspf.org/ns/0/" xmlns:opl="${opl}"><extension application="${opl}">`;
    expect(await refusal(`${head}<opl:metadata>"${'m'.repeat(LIMIT)}"</opl:metadata></extension><trackList/></playlist>`)).toMatch(/the text of <metadata> is longer than 1000000 characters/);
    expect(await refusal(`${head}<opl:metadata><opl:part>${'m'.repeat(LIMIT + 1)}</opl:part></opl:metadata></extension><trackList/></playlist>`)).toMatch(/the text of <part> is longer than 1000000 characters/);
  });

  it('round-trips the numbers the model accepts exactly: safe integers, and durations JavaScript writes with 17 digits or an exponent', async () => {
    const numbers: PlaylistInput = {
      name: 'N',
      track_count: 9_007_199_254_740_991,
      tracks: [
        { title: 'a', artist: '', release_year: 9_007_199_254_740_991, disc_number: -9_007_199_254_740_991, source_position: 0, duration_s: 1e-7 },
        { title: 'b', artist: '', track_number: -3, duration_s: 0.30000000000000004 },
        { title: 'c', artist: '', duration_s: 398_955.192_999_999_97 },
        { title: 'd', artist: '', duration_s: 5e-324, metadata: { odd: '\uFFFE\uFFFF', [`k${'\uFFFF'.repeat(3)}`]: 1 } },
      ],
    };
    const text = await exported(numbers);
    expect(text).toContain('<opl:duration_s>398955.19299999997</opl:duration_s>');
    const result = await parse(text);
    expect(result.issues).toEqual([]);
    expect(result.playlists).toEqual([normalized(numbers)]);
  });
});

/** The `<location>` texts of an exported document, in order (XML-unescaped). */
function locationsOf(text: string): string[] {
  return [...text.matchAll(/<location>(.*?)<\/location>/g)].map((match) => match[1]!.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&'));
}

/** A local-file track as the M3U, PLS and WPL readers make it: the line as written in `metadata.location`. */
function localTrack(location: string, title = 'Song'): TrackInput {
  return { title, artist: 'A', media_type: 'local_file', is_local: true, is_migratable: false, unsupported_reason: 'local file', metadata: { location, local_path: location } };
}

/** The document as software that does not know our extension sees it: only the standard elements. */
function withoutOurExtension(text: string): string {
  return text.replace(/\n *<extension application="https:\/\/open-playlist\.org\/ns\/xspf\/1">[\s\S]*?<\/extension>/g, '');
}

describe('local files: imported paths are written as URIs', () => {
  const paths = [
    'C:\\Music\\Artist\\Song.mp3',
    '\\\\server\\share\\a.mp3',
    '/home/me/Music/a b.mp3',
    'Music/a.mp3',
    '..\\a.mp3',
    'C:\\Mü sic\\#1 100%.mp3',
    'file:///already/a%20uri.mp3',
    'C:\\x\\<b>&amp;\u0007\uD800.mp3',
  ];
  const uris = [
    'file:///C:/Music/Artist/Song.mp3',
    'file://server/share/a.mp3',
    'file:///home/me/Music/a%20b.mp3',
    'Music/a.mp3',
    '../a.mp3',
    'file:///C:/M%C3%BC%20sic/%231%20100%25.mp3',
    'file:///already/a%20uri.mp3',
    'file:///C:/x/%3Cb%3E%26amp%3B%07%EF%BF%BD.mp3',
  ];
  const playlist: PlaylistInput = { name: 'From M3U', tracks: paths.map((path, index) => localTrack(path, `Song ${index}`)) };

  it('writes drive, UNC, POSIX and relative paths as file: or relative URIs, and a URI as it is', async () => {
    const text = await exported(playlist);
    expect(locationsOf(text)).toEqual(uris);
    // Percent-encoded: the hostile path leaves no markup or control character in <location>.
    expect(text).toContain('<location>file:///C:/x/%3Cb%3E%26amp%3B%07%EF%BF%BD.mp3</location>');
    expect(text).not.toMatch(/<location>[^<]*\\/);
  });

  it('reads back the exact paths from our extension (so an M3U written from it has the original lines)', async () => {
    const result = await parse(await exported(playlist));
    expect(result.issues).toEqual([]);
    const expected = normalized(playlist);
    // The lone surrogate cannot be written as XML; JSON escapes it (\ud800) in the extension's metadata.
    expect(result.playlists).toEqual([expected]);
    expect(result.playlists[0]!.tracks.map((track) => track.metadata.location)).toEqual(paths);
  });

  it('lets other software read them as local files (our extension removed), which our reader decodes back into paths', async () => {
    const result = await parse(withoutOurExtension(await exported(playlist)));
    expect(result.issues).toEqual([]);
    const tracks = result.playlists[0]!.tracks;
    // The path each URI names (as the SDK decodes a file: URL for the M3U reader: drive and UNC paths with slashes).
    const decoded = ['C:/Music/Artist/Song.mp3', '//server/share/a.mp3', '/home/me/Music/a b.mp3', 'Music/a.mp3', '../a.mp3', 'C:/Mü sic/#1 100%.mp3', '/already/a uri.mp3'];
    expect(tracks.slice(0, 7).map((track) => track.metadata)).toEqual(decoded.map((path) => ({ location: path, local_path: path })));
    // A path with a control character (%07) is no playlist line: the URI stays as written.
    expect(tracks[7]!.metadata).toEqual({ location: uris[7], local_path: 'C:/x/<b>&amp;\u0007\uFFFD.mp3' });
    expect(tracks.every((track) => track.is_local && track.media_type === 'local_file')).toBe(true);
  });

  it('converts every location of metadata.locations, in order, written once each', async () => {
    const text = await exported({ name: 'L', tracks: [{ title: 'T', artist: '', metadata: { location: 'C:\\a.mp3', locations: ['C:\\a.mp3', 'C:/a.mp3', 'http://radio.example/s', '', 42, 'b c.ogg'] } }] });
    expect(locationsOf(text)).toEqual(['file:///C:/a.mp3', 'http://radio.example/s', 'b%20c.ogg']);
  });

  it('writes no <location> for an empty one, and keeps it in the extension', async () => {
    const empty: PlaylistInput = { name: 'E', tracks: [{ title: 'T', artist: '', metadata: { location: '' } }] };
    const text = await exported(empty);
    expect(locationsOf(text)).toEqual([]);
    expect((await parse(text)).playlists).toEqual([normalized(empty)]);
  });

  it('writes a long path in full, and leaves out one so long that the document would not read back', async () => {
    const long = `C:\\${'ü'.repeat(50_000)}\\a.mp3`;
    const absurd = `/${' '.repeat(400_000)}`;
    const input: PlaylistInput = { name: 'Long', tracks: [localTrack(long), localTrack(absurd)] };
    const text = await exported(input);
    const [written, ...rest] = locationsOf(text);
    expect(rest).toEqual([]);
    expect(written).toBe(`file:///C:/${'%C3%BC'.repeat(50_000)}/a.mp3`);
    const result = await parse(text);
    expect(result.issues).toEqual([]);
    expect(result.playlists).toEqual([normalized(input)]);
  });
});

const XSPF_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<playlist version="1" xmlns="http://xspf.org/ns/0/">\n';

/** An XSPF as VLC writes one (tabs, absolute file: URIs, its own extension), plus relative references as other players write them. */
const VLC_LIKE = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<playlist xmlns="http://xspf.org/ns/0/" xmlns:vlc="http://www.videolan.org/vlc/playlist/ns/0/" version="1">',
  '\t<title>Wiedergabeliste</title>',
  '\t<trackList>',
  '\t\t<track>',
  '\t\t\t<location>file:///home/u/Music/a%20b.mp3</location>',
  '\t\t\t<title>A B</title>',
  '\t\t\t<duration>215000</duration>',
  '\t\t\t<extension application="http://www.videolan.org/vlc/playlist/0">',
  '\t\t\t\t<vlc:id>0</vlc:id>',
  '\t\t\t</extension>',
  '\t\t</track>',
  '\t\t<track>',
  '\t\t\t<location>file:///C:/Users/u/Music/Bj%C3%B6rk%20-%20J%C3%B3ga.flac</location>',
  '\t\t\t<extension application="http://www.videolan.org/vlc/playlist/0"><vlc:id>1</vlc:id></extension>',
  '\t\t</track>',
  '\t\t<track><location>file://nas/share/%231%20hit.ogg</location></track>',
  '\t\t<track><location>Music/a%20b.mp3</location></track>',
  '\t\t<track><location>../x/%C3%A9t%C3%A9.flac</location></track>',
  '\t\t<track><location>file:///home/u/%E9t%E9.mp3</location></track>',
  '\t\t<track><location>Music/%zz.mp3</location></track>',
  '\t\t<track><location>http://radio.example/live%20stream.mp3</location></track>',
  '\t</trackList>',
  '\t<extension application="http://www.videolan.org/vlc/playlist/0">',
  '\t\t<vlc:item tid="0"/>',
  '\t\t<vlc:item tid="1"/>',
  '\t</extension>',
  '</playlist>',
  '',
].join('\n');

describe('locations written by other software', () => {
  it('reads file: URIs and relative references as the decoded local paths the M3U, PLS and WPL readers keep', async () => {
    const result = await parse(VLC_LIKE, 'vlc.xspf');
    const tracks = result.playlists[0]!.tracks;
    const paths = ['/home/u/Music/a b.mp3', 'C:/Users/u/Music/Björk - Jóga.flac', '//nas/share/#1 hit.ogg', 'Music/a b.mp3', '../x/été.flac'];
    expect(tracks.slice(0, 5).map((track) => track.metadata)).toEqual(paths.map((path) => ({ location: path, local_path: path })));
    expect(tracks.slice(0, 7).every((track) => track.is_local && track.media_type === 'local_file' && !track.is_migratable)).toBe(true);
    expect(tracks[0]).toMatchObject({ title: 'A B', duration_s: 215 });
    // Malformed escapes: kept as written (the path as the SDK leaves it), with a warning on the track's line.
    expect(tracks[5]!.metadata).toEqual({ location: 'file:///home/u/%E9t%E9.mp3', local_path: '/home/u/%E9t%E9.mp3' });
    expect(tracks[6]!.metadata).toEqual({ location: 'Music/%zz.mp3', local_path: 'Music/%zz.mp3' });
    expect(result.issues).toEqual([
      { line: 20, column: null, code: 'invalid_value', severity: 'warning', message: expect.stringMatching(/^the location "file:\/\/\/home\/u\/%E9t%E9\.mp3" has a malformed percent-encoding .*kept as written$/) as unknown },
      { line: 21, column: null, code: 'invalid_value', severity: 'warning', message: expect.stringMatching(/^the location "Music\/%zz\.mp3" is not a URI, as XSPF requires \(it holds a "%" that is not followed by two hexadecimal digits\); it was read as written$/) as unknown },
    ]);
    // A web URL stays as it is: not a local file. Named by its file ("live stream"), it names no artist, so it is no song to search for (as in M3U).
    expect(tracks[7]).toMatchObject({ title: 'live stream', artist: '', is_local: false, media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.REMOTE_ITEM_REASONS.unnamed, metadata: { location: 'http://radio.example/live%20stream.mp3' } });
    // Tracks without a <title> are named by their file, as the M3U, PLS and WPL readers name them.
    expect(tracks.map((track) => [track.title, track.artist])).toEqual([
      ['A B', ''],
      ['Jóga', 'Björk'],
      ['#1 hit', ''],
      ['a b', ''],
      ['été', ''],
      ['%E9t%E9', ''],
      ['%zz', ''],
      ['live stream', ''],
    ]);
  });

  it('converts to M3U8 with the decoded paths as lines (as `opl convert x.xspf --to m3u8` does)', async () => {
    const { playlists } = await parse(VLC_LIKE, 'vlc.xspf');
    const text = (await runSerialize(m3u8, playlists, {})).text;
    const lines = text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(lines).toEqual(['/home/u/Music/a b.mp3', 'C:/Users/u/Music/Björk - Jóga.flac', '//nas/share/#1 hit.ogg', 'Music/a b.mp3', '../x/été.flac', 'file:///home/u/%E9t%E9.mp3', 'Music/%zz.mp3', 'http://radio.example/live%20stream.mp3']);
    // And back: the M3U8 reader reads the same local files.
    const back = await runParse(m3u8, text, { filename: 'vlc.m3u8' });
    expect(back.playlists[0]!.tracks.slice(0, 5).map((track) => track.metadata.local_path)).toEqual(['/home/u/Music/a b.mp3', 'C:/Users/u/Music/Björk - Jóga.flac', '//nas/share/#1 hit.ogg', 'Music/a b.mp3', '../x/été.flac']);
  });

  it('writes the decoded paths back as the same URIs (a document without our extension, read and exported again)', async () => {
    const { playlists } = await parse(VLC_LIKE, 'vlc.xspf');
    const again = await exported(playlists[0]!);
    expect(locationsOf(withoutOurExtension(again))).toEqual([
      'file:///home/u/Music/a%20b.mp3',
      'file:///C:/Users/u/Music/Bj%C3%B6rk%20-%20J%C3%B3ga.flac',
      'file://nas/share/%231%20hit.ogg',
      'Music/a%20b.mp3',
      '../x/%C3%A9t%C3%A9.flac',
      'file:///home/u/%E9t%E9.mp3',
      // A path with a literal % (the escape could not be decoded) is written as a URI that names it.
      'Music/%25zz.mp3',
      'http://radio.example/live%20stream.mp3',
    ]);
  });

  it('writes back what the standard elements of another program said: identifiers, annotations, info, the playlist location and license', async () => {
    const { playlists } = await parse(
      `${XSPF_HEAD}  <title>Mix</title>\n  <info>http://e.example/mix</info>\n  <location>http://e.example/mix.xspf</location>\n  <identifier>urn:uuid:5c2d1d2a-4a3e-4b5c-9d8e-1f2a3b4c5d6e</identifier>\n  <license>http://creativecommons.org/licenses/by/4.0/</license>\n  <trackList>\n` +
        '    <track><location>http://e.example/a.mp3</location><identifier>https://musicbrainz.org/recording/8f3471b5-7e6a-48da-86a9-c1c07a0f47ae</identifier><identifier>amarok-sqltrackuid://6f2c0ad9</identifier><title>Strangers</title><creator>Portishead</creator><annotation>B-side &amp; more</annotation><info>http://e.example/strangers</info></track>\n' +
        '    <track><identifier>deezer:track:5</identifier><identifier>urn:x:2</identifier><title>T</title></track>\n' +
        '  </trackList>\n</playlist>\n',
    );
    const again = withoutOurExtension(await exported(playlists[0]!));
    expect(again).toContain('<title>Mix</title>\n  <info>http://e.example/mix</info>\n  <location>http://e.example/mix.xspf</location>\n  <identifier>urn:uuid:5c2d1d2a-4a3e-4b5c-9d8e-1f2a3b4c5d6e</identifier>\n  <license>http://creativecommons.org/licenses/by/4.0/</license>\n');
    expect(again).toContain(
      '<location>http://e.example/a.mp3</location>\n      <identifier>https://musicbrainz.org/recording/8f3471b5-7e6a-48da-86a9-c1c07a0f47ae</identifier>\n      <identifier>amarok-sqltrackuid://6f2c0ad9</identifier>\n' +
        '      <title>Strangers</title>\n      <creator>Portishead</creator>\n      <annotation>B-side &amp; more</annotation>\n      <info>http://e.example/strangers</info>\n',
    );
    // After the provider URI, which comes first.
    expect(again).toContain('<identifier>deezer:track:5</identifier>\n      <identifier>urn:x:2</identifier>\n');
    // Read back without our extension, as another program reads it, the same values come out.
    const back = await parse(again);
    expect(back.playlists[0]!.metadata).toEqual(playlists[0]!.metadata);
    expect(back.playlists[0]!.tracks.map((track) => track.metadata)).toEqual(playlists[0]!.tracks.map((track) => track.metadata));
  });

  it('decodes the locations of a track with several, once each, and JSPF locations too', async () => {
    const result = await parse(`${XSPF_HEAD}<trackList><track><location>http://radio.example/a</location><location>file:///m/a%20b.mp3</location><location>file://localhost/m/a%20b.mp3</location><location>m/c%20d.mp3</location></track></trackList></playlist>`);
    expect(result.playlists[0]!.tracks[0]).toMatchObject({ is_local: true, metadata: { location: 'http://radio.example/a', local_path: '/m/a b.mp3', locations: ['http://radio.example/a', '/m/a b.mp3', 'm/c d.mp3'] } });
    const jspf = await parse(JSON.stringify({ playlist: { track: [{ location: ['../x/%C3%A9t%C3%A9.flac'] }, { location: ['%E9.mp3'] }] } }), 'x.jspf');
    expect(jspf.playlists[0]!.tracks.map((track) => track.metadata)).toEqual([{ location: '../x/été.flac', local_path: '../x/été.flac' }, { location: '%E9.mp3', local_path: '%E9.mp3' }]);
    expect(jspf.issues).toEqual([expect.objectContaining({ line: null, code: 'invalid_value' })]);
  });
});

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

describe('JSPF', () => {
  const jspf = {
    playlist: {
      title: 'JSPF mix',
      creator: 'Me',
      annotation: 'notes',
      date: '2024-02-03T04:05:06Z',
      identifier: 'spotify:playlist:p1',
      track: [
        { location: ['https://tidal.com/browse/track/42'], title: 'Tidal', creator: 'T', album: 'Al', duration: 2500, trackNum: 4, identifier: ['urn:isrc:USAAA0000002'] },
        { location: 'file:///music/x.flac', title: 'Local string location' },
        { title: 'Ours', extension: { 'https://open-playlist.org/ns/xspf/1': [{ isrc: 'USAAA0000001', explicit: true, artists: ['A', 'B'], provider_uris: { spotify: 'spotify:track:z' }, release_year: 1999, metadata: { k: 1 } }] } },
      ],
    },
  };

  it('parses JSPF by content, whatever the extension', async () => {
    for (const filename of ['mix.jspf', 'mix.json', null]) {
      const result = await parse(JSON.stringify(jspf), filename);
      expect(result.issues).toEqual([]);
      const [playlist] = result.playlists;
      expect(playlist).toMatchObject({ name: 'JSPF mix', owner_name: 'Me', description: 'notes', created_at: '2024-02-03T04:05:06Z', provider_uris: { spotify: 'spotify:playlist:p1' } });
      expect(playlist!.tracks[0]).toMatchObject({ title: 'Tidal', artist: 'T', album: 'Al', duration_s: 2.5, track_number: 4, isrc: 'USAAA0000002', provider_uris: { tidal: 'tidal:track:42' }, metadata: {} });
      expect(playlist!.tracks[1]).toMatchObject({ is_local: true, media_type: 'local_file', metadata: { location: '/music/x.flac', local_path: '/music/x.flac' } });
      expect(playlist!.tracks[2]).toMatchObject({ title: 'Ours', isrc: 'USAAA0000001', explicit: true, artists: ['A', 'B'], provider_uris: { spotify: 'spotify:track:z' }, release_year: 1999, metadata: { k: 1 } });
    }
  });

  it.each([
    ['not JSON', '{"playlist": ', /not valid JSON/],
    ['no playlist object', '{"title": "x"}', /"playlist" object/],
    ['no track list', '{"playlist": {"title": "x"}}', /track must be a list/],
    ['a numeric title', '{"playlist": {"title": 5, "track": []}}', /playlist.title must be a string/],
    ['a string duration', '{"playlist": {"track": [{"duration": "300"}]}}', /track\[0\].duration must be a non-negative whole number/],
    ['a fractional duration', '{"playlist": {"track": [{"duration": 1.5}]}}', /duration/],
    ['a non-object track', '{"playlist": {"track": [1]}}', /track\[0\] must be an object/],
    ['a link whose rel is no URI', '{"playlist": {"link": [{"has space": "http://a.example/"}], "track": []}}', /playlist.link\[0\]'s key \(its rel\) must be a URI/],
    ['a link whose target is no URI', '{"playlist": {"track": [{"link": [{"http://rel.example/x": "not a uri"}]}]}}', /playlist.track\[0\].link\[0\]\["http:\/\/rel.example\/x"\] must be a URI/],
    ['a link that is not an object', '{"playlist": {"link": ["http://a.example/"], "track": []}}', /playlist.link\[0\] must be an object/],
    ['a meta whose rel is no URI', '{"playlist": {"track": [{"meta": [{"a\\\\b": "v"}]}]}}', /track\[0\].meta\[0\]'s key \(its rel\) must be a URI/],
    ['a meta whose value is no string', '{"playlist": {"meta": [{"http://rel.example/n": 5}], "track": []}}', /playlist.meta\[0\]\["http:\/\/rel.example\/n"\] must be a string/],
    ['an attribution entry other than location and identifier', '{"playlist": {"attribution": [{"title": "x"}], "track": []}}', /may hold only "location" and "identifier", not "title"/],
    ['an attribution location that is no URI', '{"playlist": {"attribution": [{"location": "a b"}], "track": []}}', /playlist.attribution\[0\]\["location"\] must be a URI/],
  ])('refuses %s', async (_name, document, reason) => {
    const message = await refusal(document, 'x.jspf');
    expect(message).toMatch(/not a conforming JSPF document/);
    expect(message).toMatch(reason);
  });

  it('reads conforming link, meta and attribution entries (relative rels, free meta text, single objects) and keeps the tracks', async () => {
    const document = {
      playlist: {
        title: 'Linked',
        link: [{ 'http://foaf.example.org/namespace/version1': 'http://socialnetwork.example.org/foaf/mary.rdfs' }],
        meta: [{ playCount: 'any text at all, spaces included' }],
        attribution: [{ location: 'http://bar.example.com/modified_version_of_original_playlist.xspf' }, { identifier: 'somescheme:original_playlist.xspf' }],
        track: [{ title: 'T', creator: 'A', link: { 'http://r.example/': 'http://t.example/' }, meta: [{ 'http://r.example/m': '' }] }],
      },
    };
    const result = await parse(JSON.stringify(document), 'x.jspf');
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]).toMatchObject({ name: 'Linked', tracks: [{ title: 'T', artist: 'A' }] });
  });

  it('survives deeply nested JSON', async () => {
    const deep = `{"playlist": {"track": [], "meta": ${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    const result = await parse(deep, 'x.jspf').catch((error: Error) => error);
    // Refused for what it is (a meta entry must be an object), not for a stack overflow.
    expect(result instanceof Error ? result.message : 'parsed').toMatch(/not a conforming JSPF document: playlist.meta\[0\] must be an object/);
  });
});

describe('hostile files', () => {
  it('refuses billion laughs, external entities and any DOCTYPE', async () => {
    const laughs = `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>\n<playlist version="1" xmlns="http://xspf.org/ns/0/"><title>&lol2;</title><trackList/></playlist>`;
    expect(await refusal(laughs)).toMatch(/line 2.*DOCTYPE/);
    const xxe = `<?xml version="1.0"?>\n<!DOCTYPE playlist [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<playlist version="1" xmlns="http://xspf.org/ns/0/"><title>&xxe;</title><trackList/></playlist>`;
    expect(await refusal(xxe)).toMatch(/DOCTYPE/);
    expect(await refusal('<!DOCTYPE playlist><playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList/></playlist>')).toMatch(/DOCTYPE/);
    expect(await refusal('<playlist version="1" xmlns="http://xspf.org/ns/0/"><title>&xxe;</title><trackList/></playlist>')).toMatch(/entity/i);
  });

  // A hang guard (the timeout), not a speed check.
  it('refuses a 50 MB single line', { timeout: 120_000 }, async () => {
    expect(await refusal('A'.repeat(50 * 1024 * 1024))).toMatch(/does not start with "<"/);
    expect(await refusal(`${XSPF_HEAD}<title>${'A'.repeat(50 * 1024 * 1024)}</title><trackList/></playlist>`)).toMatch(/longer than 1000000 characters/);
  });

  // A hang guard (the timeout), not a speed check: one 50 MB line either parses or is refused naming the limit.
  it('reads a 50 MB single line within the limits, and refuses one beyond them naming the limit', { timeout: 120_000 }, async () => {
    const OPL = 'https://open-playlist.org/ns/xspf/1';
    const part = 'a'.repeat(900_000);
    const within = `<playlist version="1" xmlns="http://xspf.org/ns/0/" xmlns:opl="${OPL}"><extension application="${OPL}"><opl:metadata><opl:part>{"blob":"</opl:part>${`<opl:part>${part}</opl:part>`.repeat(58)}<opl:part>"}</opl:part></opl:metadata></extension><trackList/></playlist>`;
    expect(within.length).toBeGreaterThan(50_000_000);
    const read = await parse(within);
    expect(read.issues).toEqual([]);
    expect((read.playlists[0]!.metadata.blob as string).length).toBe(58 * 900_000);
    expect(await refusal(`${XSPF_HEAD.replace('">', `" xml:base="${'a'.repeat(50 * 1024 * 1024)}">`)}<trackList/></playlist>`)).toMatch(/attribute "xml:base" is longer than 1000000 characters/);
    expect(await refusal(`${XSPF_HEAD}${'<x>'.repeat(17_000_000)}`)).toMatch(/nested deeper than 32 levels/);
    expect(await refusal('<'.repeat(50 * 1024 * 1024))).toMatch(/XML refused at line 1/);
  });

  it('refuses invalid UTF-8, binary garbage and empty files', async () => {
    const invalid = new Uint8Array([...encoder.encode(`${XSPF_HEAD}<title>`), 0xc3, 0x28, 0xff, ...encoder.encode('</title><trackList/></playlist>')]);
    expect(await refusal(invalid)).toMatch(/not valid UTF-8/);
    const garbage = Uint8Array.from({ length: 65_536 }, (_, index) => (index * 7919 + 13) % 256);
    expect(await refusal(garbage)).toMatch(/UTF-8|XSPF/);
    expect(await refusal(new Uint8Array([0x3c, 0x00, 0x00, 0x01, 0x02]))).toMatch(/XML refused/);
    expect(await refusal('')).toMatch(/empty/);
    expect(await refusal('<playlist')).toMatch(/XML refused/);
  });

  it('keeps a genuine U+FFFD and reads a UTF-16 file with a BOM and a Latin-1 declared file', async () => {
    const genuine = await parse(`${XSPF_HEAD}<title>\uFFFD</title><trackList/></playlist>`);
    expect(genuine.playlists[0]!.name).toBe('\uFFFD');
    const utf16 = `\uFEFF${XSPF_HEAD.replace('UTF-8', 'UTF-16')}<title>Ünï 😀</title><trackList/></playlist>`;
    const bytes = new Uint8Array(utf16.length * 2);
    for (let index = 0; index < utf16.length; index += 1) {
      bytes[index * 2] = utf16.charCodeAt(index) & 0xff;
      bytes[index * 2 + 1] = utf16.charCodeAt(index) >> 8;
    }
    expect((await parse(bytes)).playlists[0]!.name).toBe('Ünï 😀');
    const latin1 = Uint8Array.from(`<?xml version="1.0" encoding="ISO-8859-1"?><playlist version="1" xmlns="http://xspf.org/ns/0/"><title>Caf\u00e9</title><trackList/></playlist>`, (char) => char.charCodeAt(0));
    expect((await parse(latin1)).playlists[0]!.name).toBe('Café');
  });
});

describe('provider URIs that are not tracks, Spotify local files and copied links', () => {
  const list = (tracks: string) => `<?xml version="1.0" encoding="UTF-8"?><playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList>${tracks}</trackList></playlist>`;

  it('reads each for what it names', async () => {
    const result = await parse(
      list(
        '<track><location>spotify:local:Daft+Punk:Discovery:One+More+Time:320</location></track>' +
          '<track><location>spotify:local:Daft+Punk:Discovery:One+More+Time:320</location><title>Own Title</title><album>Own Album</album><duration>200000</duration></track>' +
          '<track><location>spotify:album:2noRn2Aes5aoNVsU6iWThc</location><title>Discovery</title></track>' +
          '<track><location>tidal:album:17927863</location></track>' +
          '<track><location>spotify:episode:512ojhOuo1ktJprKbVcKyQ</location></track>' +
          '<track><location>https://tidal.com/track/53796003/u</location></track>' +
          '<track><location>https://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC</location></track>' +
          '<track><location>spotify:playlist:37i9dQZF1DXcBWIGoYBM5M</location><location>spotify:track:4uLU6hMCjMI75M1A2tKUQC</location></track>',
      ),
    );
    const tracks = result.playlists[0]!.tracks;
    expect(tracks[0]).toMatchObject({ artist: 'Daft Punk', title: 'One More Time', album: 'Discovery', duration_s: 320, provider_uris: {}, is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: formatKit.LOCAL_FILE_REASON, metadata: { location: 'spotify:local:Daft+Punk:Discovery:One+More+Time:320' } });
    expect(tracks[0]!.metadata).not.toHaveProperty('local_path');
    expect(tracks[1]).toMatchObject({ artist: 'Daft Punk', title: 'Own Title', album: 'Own Album', duration_s: 200, media_type: 'local_file' });
    expect(tracks[2]).toMatchObject({ title: 'Discovery', provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.album, metadata: { location: 'spotify:album:2noRn2Aes5aoNVsU6iWThc' } });
    expect(tracks[3]).toMatchObject({ provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.album });
    expect(tracks[4]).toMatchObject({ provider_uris: { spotify: 'spotify:episode:512ojhOuo1ktJprKbVcKyQ' }, media_type: 'episode', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.episode });
    expect(tracks[5]).toMatchObject({ provider_uris: { tidal: 'tidal:track:53796003' }, media_type: 'track', is_migratable: true });
    expect(tracks[6]).toMatchObject({ provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, media_type: 'track', is_migratable: true });
    // A track location next to a playlist link: the track, with the link kept as a location.
    expect(tracks[7]).toMatchObject({ provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, media_type: 'track', is_migratable: true, metadata: { location: 'spotify:playlist:37i9dQZF1DXcBWIGoYBM5M' } });
  });

  it('writes metadata.source_uri (a CSV or TXT import) as the location when the track has no other', async () => {
    const text = await exported({
      name: 'Links',
      tracks: [
        { title: 'Never Gonna Give You Up', artist: 'Rick Astley', metadata: { source_uri: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' } },
        { title: 'Path', artist: 'A', metadata: { source_uri: 'C:\\Music\\a b.mp3' } },
        { title: 'Provider', artist: 'B', provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, metadata: { source_uri: 'https://a.example/x.mp3' } },
      ],
    });
    const locations = [...text.matchAll(/<location>([^<]*)<\/location>/g)].map((match) => match[1]);
    expect(locations).toEqual(['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'file:///C:/Music/a%20b.mp3', 'https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC']);
  });
});
