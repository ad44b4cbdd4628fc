import { PLUGIN_DEFINITION_MARK } from '@opl/plugin-sdk';
import { type PlaylistInput } from '@opl/plugin-sdk/schemas';
import { runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';
import { encoder, exported, parse, refusal, normalized, rich, locationsOf } from './xspf-test-support.ts';

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
