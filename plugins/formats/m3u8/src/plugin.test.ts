import { runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';
import { formatKit } from '@opl/plugin-sdk';
import { LOCAL_FILE_REASON } from './m3u-parser.ts';
import { encoder, parse, parseText, richPlaylists, normalized } from './m3u8-test-support.ts';

describe('round trip', () => {
  it('keeps several playlists, rich metadata, Unicode, duplicates and empty playlists', async () => {
    const { text } = await runSerialize(plugin, richPlaylists);
    const result = await parse(encoder.encode(text));
    expect(result.issues).toEqual([]);
    expect(result.playlists).toEqual(normalized(richPlaylists));
  });

  it('reads its own output back identically when exported again', async () => {
    const first = (await runSerialize(plugin, richPlaylists)).text;
    const second = (await runSerialize(plugin, (await parseText(first)).playlists)).text;
    expect(second).toBe(first);
  });

  it('round-trips zero playlists', async () => {
    const { text } = await runSerialize(plugin, []);
    expect(text).toBe('#EXTM3U\n#OPL-SCHEMA-VERSION:1\n');
    expect((await parseText(text)).playlists).toEqual([]);
  });
});

describe('serialize', () => {
  it('writes the exact bytes of a small export', async () => {
    const { text } = await runSerialize(plugin, [
      {
        id: 'p1',
        name: 'Road trip',
        tracks: [
          { id: 't1', title: 'One More Time', artist: 'Daft Punk', duration_s: 320.4, isrc: 'GBDUW0000059', provider_uris: { spotify: 'spotify:track:0DiWol3AO6WpXZgp0goxAV' } },
          { title: 'Mørketid', artist: 'Kino', duration_s: 200, provider_uris: { tidal: 'tidal:track:77' } },
          { title: 'Unplayable', artist: 'Nobody', provider_uris: { deezer: 'deezer:track:1' } },
        ],
      },
    ]);
    expect(text).toBe(
      [
        '#EXTM3U',
        '#OPL-SCHEMA-VERSION:1',
        '#PLAYLIST:Road trip',
        '#OPL-PLAYLIST-ID:p1',
        '#OPL-PLAYLIST-KIND:PLAYLIST',
        '#EXTINF:320,Daft Punk - One More Time',
        '#OPL-DURATION:320.4',
        '#OPL-SOURCE-URI:spotify:track:0DiWol3AO6WpXZgp0goxAV',
        '#OPL-TRACK-ID:t1',
        '#OPL-ISRC:GBDUW0000059',
        'https://open.spotify.com/track/0DiWol3AO6WpXZgp0goxAV',
        '#EXTINF:200,Kino - Mørketid',
        '#OPL-SOURCE-URI:tidal:track:77',
        'https://tidal.com/browse/track/77',
        '#EXTINF:-1,Nobody - Unplayable',
        '#OPL-SOURCE-URI:deezer:track:1',
        '',
      ].join('\n'),
    );
  });

  it('prefers the source provider for the location', async () => {
    const playlists = [{ name: 'p', tracks: [{ title: 't', artist: 'a', provider_uris: { spotify: 'spotify:track:S1', tidal: 'tidal:track:5' } }] }];
    const { text } = await runSerialize(plugin, playlists, { source_provider: 'tidal' });
    expect(text).toContain('#OPL-SOURCE-URI:tidal:track:5\n');
    expect(text).toContain('\nhttps://tidal.com/browse/track/5\n');
  });

  it('never lets a value start a new line or directive', async () => {
    const nasty = 'a\nhttp://evil.example/x\r#EXTINF:1,b\u2028c\u0085d\ve\ff';
    const { text } = await runSerialize(plugin, [{ id: nasty, name: nasty, description: nasty, tracks: [{ title: nasty, artist: nasty, album: nasty }] }]);
    const lines = text.split(/\r\n|\n|\r|\u2028|\u2029|\u0085|\v|\f/);
    expect(lines.filter((line) => line.startsWith('#EXTINF'))).toHaveLength(1);
    expect(lines.filter((line) => line !== '' && !line.startsWith('#'))).toEqual([]);
    const back = (await parseText(text)).playlists[0];
    expect(back).toMatchObject({ id: nasty, name: nasty, description: nasty, tracks: [{ title: nasty, artist: nasty, album: nasty }] });
  });

  it('yields chunks of at most 64 KiB of UTF-8', async () => {
    const tracks = Array.from({ length: 3_000 }, (_, index) => ({ title: `曲 ${index} 🎵`.repeat(5), artist: 'Артист', provider_uris: { spotify: `spotify:track:x${index}` } }));
    const { chunks } = await runSerialize(plugin, [{ name: 'big', tracks }, { name: 'huge', metadata: { big: '🎵'.repeat(100_000) }, tracks: [] }]);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(encoder.encode(chunk).length).toBeLessThanOrEqual(64 * 1024);
    const back = await parseText(chunks.join(''));
    expect(back.playlists[0]?.tracks).toHaveLength(3_000);
    expect(back.playlists[1]?.metadata).toEqual({ big: '🎵'.repeat(100_000) });
  });
});

describe('parse: encodings', () => {
  const text = '#EXTM3U\n#EXTINF:215,Björk - Jóga\nC:\\Música\\Jóga.mp3\n';
  const expected = { artist: 'Björk', title: 'Jóga', duration_s: 215, metadata: { location: 'C:\\Música\\Jóga.mp3' } };

  it('reads UTF-8 with and without BOM', async () => {
    expect((await parse(encoder.encode(text))).playlists[0]?.tracks[0]).toMatchObject(expected);
    expect((await parse(new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(text)]))).playlists[0]?.tracks[0]).toMatchObject(expected);
  });

  it('reads UTF-16 LE and BE with BOM', async () => {
    const units = [...text].map((char) => char.charCodeAt(0));
    const le = new Uint8Array([0xff, 0xfe, ...units.flatMap((unit) => [unit & 0xff, unit >> 8])]);
    const be = new Uint8Array([0xfe, 0xff, ...units.flatMap((unit) => [unit >> 8, unit & 0xff])]);
    expect((await parse(le)).playlists[0]?.tracks[0]).toMatchObject(expected);
    expect((await parse(be)).playlists[0]?.tracks[0]).toMatchObject(expected);
  });

  it('falls back to windows-1252 for bytes that are not UTF-8', async () => {
    const bytes = new Uint8Array([...text].map((char) => (char === '’' ? 0x92 : char.charCodeAt(0))));
    const result = await parse(bytes, 'old.m3u');
    expect(result.playlists[0]).toMatchObject({ name: 'old', tracks: [expected] });
    expect(result.issues).toEqual([expect.objectContaining({ code: 'legacy_encoding', severity: 'warning', line: null })]);
    // UTF-8 (and UTF-16) files say nothing about their encoding.
    expect((await parse(new TextEncoder().encode(text), 'new.m3u8')).issues).toEqual([]);
  });

  it('keeps a UTF-8 playlist UTF-8 when a line of windows-1252 was added to it, and says on which line', async () => {
    const utf8 = (value: string) => [...new TextEncoder().encode(value)];
    const bytes = new Uint8Array([...utf8('#EXTM3U\n#EXTINF:200,Björk - Jóga\nBjörk/Joga.mp3\n#EXTINF:261,Motörhead - Ace of Spades\nace.mp3\n#EXTINF:261,Beyonc'), 0xe9, ...utf8(' - Halo\nhalo.mp3\n')]);
    const result = await parse(bytes, 'mixed.m3u');
    expect(result.playlists[0]!.tracks.map((track) => [track.artist, track.title])).toEqual([['Björk', 'Jóga'], ['Motörhead', 'Ace of Spades'], ['Beyoncé', 'Halo']]);
    expect(result.issues).toEqual([expect.objectContaining({ code: 'mixed_encoding', severity: 'warning', line: 6 })]);
  });

  it('keeps a real U+FFFD in UTF-8 as UTF-8', async () => {
    const result = await parseText('#EXTINF:1,A - B\uFFFDé\nb.mp3\n');
    expect(result.playlists[0]?.tracks[0]?.title).toBe('B\uFFFDé');
  });
});

describe('parse: entries', () => {
  it('reads #EXTINF with IPTV attributes, commas inside quotes, and in the title', async () => {
    const result = await parseText('#EXTM3U\n#EXTINF:-1 tvg-id="x" group-title="Rock, Pop",Artist - Title, with comma\nhttp://stream.example/1\n');
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]?.tracks[0]).toMatchObject({
      artist: 'Artist',
      title: 'Title, with comma',
      duration_s: null,
      metadata: { location: 'http://stream.example/1', extinf_attributes: { 'tvg-id': 'x', 'group-title': 'Rock, Pop' } },
      is_local: false,
      // `-1` and a web address: a stream, not a song.
      media_type: 'unknown',
      is_migratable: false,
      unsupported_reason: formatKit.REMOTE_ITEM_REASONS.stream,
    });
  });

  it('keeps IPTV attributes named like JavaScript object members, the first of a repeated key winning', async () => {
    const result = await parseText('#EXTM3U\n#EXTINF:-1 constructor="c" toString="t" tvg-id="x" tvg-id="y",Station\nhttp://stream.example/2\n');
    expect(result.playlists[0]?.tracks[0]?.metadata.extinf_attributes).toEqual({ constructor: 'c', toString: 't', 'tvg-id': 'x' });
  });

  it('reads plain M3U: titles from file names, never opening them', async () => {
    const result = await parseText('C:\\Music\\Daft Punk - Aerodynamic.mp3\n\\\\server\\share\\b.flac\n../rel/Song.ogg\nfile:///home/me/My%20Song.mp3\nfile:///C:/Music/%C3%A9t%C3%A9.mp3\n', 'mix.m3u');
    expect(result.issues).toEqual([]);
    const tracks = result.playlists[0]?.tracks ?? [];
    expect(result.playlists[0]?.name).toBe('mix');
    expect(tracks.map((track) => [track.artist, track.title, track.metadata.local_path])).toEqual([
      ['Daft Punk', 'Aerodynamic', 'C:\\Music\\Daft Punk - Aerodynamic.mp3'],
      ['', 'b', '\\\\server\\share\\b.flac'],
      ['', 'Song', '../rel/Song.ogg'],
      ['', 'My Song', '/home/me/My Song.mp3'],
      ['', 'été', 'C:/Music/été.mp3'],
    ]);
    for (const track of tracks) expect(track).toMatchObject({ is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: LOCAL_FILE_REASON });
  });

  it('turns Spotify and TIDAL web links back into track URIs', async () => {
    const result = await parseText(
      '#EXTINF:1,a - b\nhttps://open.spotify.com/intl-de/track/6rqhFgbbKwnb9MLmUQDhG6?si=abc\n#EXTINF:1,c - d\nhttps://listen.tidal.com/track/12345\n#EXTINF:1,e - f\nhttps://tidal.com/browse/track/9\n#EXTINF:1,g - h\nspotify:track:RAW\n',
    );
    expect(result.playlists[0]?.tracks.map((track) => track.provider_uris)).toEqual([
      { spotify: 'spotify:track:6rqhFgbbKwnb9MLmUQDhG6' },
      { tidal: 'tidal:track:12345' },
      { tidal: 'tidal:track:9' },
      { spotify: 'spotify:track:RAW' },
    ]);
  });

  it('reads #EXTALB, #EXTART and #PLAYLIST; ignores unknown directives', async () => {
    const result = await parseText('#EXTM3U\n#PLAYLIST:Named\n#EXT-X-VERSION:3\n#EXTINF:100,Only Title\n#EXTALB:Album\n#EXTART:Album Artist\n#SOMETHING\nsong.mp3\n');
    expect(result.issues).toEqual([]);
    expect(result.playlists).toMatchObject([{ name: 'Named', tracks: [{ title: 'Only Title', artist: 'Album Artist', album: 'Album', duration_s: 100 }] }]);
  });

  it('reports a malformed #EXTINF and keeps its neighbours and the entry', async () => {
    const result = await parseText('#EXTINF:10,A - One\na.mp3\n#EXTINF:abc no comma\nb.mp3\n#EXTINF:5 x="unclosed,B - Two\nc.mp3\n#EXTINF:3,C - Three\nd.mp3\n');
    expect(result.playlists[0]?.tracks.map((track) => track.title)).toEqual(['One', 'b', 'c', 'Three']);
    expect(result.issues.map((issue) => [issue.line, issue.code])).toEqual([
      [3, 'invalid_extinf'],
      [5, 'invalid_extinf'],
    ]);
  });

  it('keeps duplicates and Unicode, and reports an entry without location', async () => {
    const result = await parseText('#EXTINF:1,Кино - Кукушка\nk.mp3\n#EXTINF:1,Кино - Кукушка\nk.mp3\n#EXTINF:2,宇多田ヒカル - 道\n');
    expect(result.playlists[0]?.tracks.map((track) => track.title)).toEqual(['Кукушка', 'Кукушка', '道']);
    expect(result.issues).toMatchObject([{ line: 5, code: 'missing_location', severity: 'warning' }]);
  });

  it('ignores #OPL-* comments of an unsupported schema version', async () => {
    const result = await parseText('#EXTM3U\n#OPL-SCHEMA-VERSION:2\n#PLAYLIST:P\n#OPL-PLAYLIST-ID:x\n#EXTINF:1,a - b\n#OPL-TRACK-ID:t\nb.mp3\n');
    expect(result.issues).toMatchObject([{ line: 2, code: 'unsupported_schema_version' }]);
    expect(result.playlists[0]).toMatchObject({ id: null, name: 'P', tracks: [{ id: null, title: 'b', is_local: true }] });
  });

  it('reports #OPL-* values the model cannot hold and keeps the track', async () => {
    const result = await parseText('#OPL-SCHEMA-VERSION:1\n#PLAYLIST:P\n#OPL-PLAYLIST-KIND:ALBUM\n#EXTINF:1,a - b\n#OPL-ADDED-AT:yesterday\n#OPL-METADATA:{broken\n#OPL-MEDIA-TYPE:podcast\nb.mp3\n');
    expect(result.issues.map((issue) => [issue.line, issue.code])).toEqual([
      [3, 'invalid_value'],
      [5, 'invalid_value'],
      [6, 'invalid_value'],
      [7, 'invalid_value'],
    ]);
    expect(result.playlists[0]).toMatchObject({ kind: 'PLAYLIST', tracks: [{ title: 'b', added_at: null, media_type: 'track' }] });
  });

  it('reports timestamps on dates the calendar does not have, instead of failing the whole file', async () => {
    const result = await parseText(
      '#OPL-SCHEMA-VERSION:1\n#PLAYLIST:P\n#OPL-PLAYLIST-CREATED-AT:2024-02-30T10:00:00Z\n#OPL-PLAYLIST-UPDATED-AT:2024-02-29T10:00:00Z\n#EXTINF:1,a - b\n#OPL-ADDED-AT:2023-02-29T00:00:00Z\nb.mp3\n#EXTINF:1,c - d\n#OPL-ADDED-AT:2023-04-31T00:00:00+02:00\nd.mp3\n',
    );
    expect(result.issues.map((issue) => [issue.line, issue.code])).toEqual([
      [3, 'invalid_value'],
      [6, 'invalid_value'],
      [9, 'invalid_value'],
    ]);
    expect(result.playlists[0]).toMatchObject({ created_at: null, updated_at: '2024-02-29T10:00:00Z', tracks: [{ title: 'b', added_at: null }, { title: 'd', added_at: null }] });
  });

  it('keeps a provider-style location or source URI too long for provider_uris as data, never failing the file', async () => {
    const long = `deezer:track:${'9'.repeat(2_000)}`;
    const result = await parseText(`#EXTINF:1,a - b\n${long}\n#EXTINF:1,c - d\n#OPL-SOURCE-URI:${long}\nhttps://x.example/d.mp3\n#EXTINF:1,e - f\ndeezer:track:3\n`);
    const [first, second, third] = result.playlists[0]?.tracks ?? [];
    expect(first).toMatchObject({ title: 'b', provider_uris: {}, metadata: { location: long } });
    expect(second).toMatchObject({ title: 'd', provider_uris: {}, metadata: { source_uri: long } });
    expect(third).toMatchObject({ title: 'f', provider_uris: { deezer: 'deezer:track:3' } });
  });

  it('gives an empty file one empty playlist and a warning', async () => {
    const result = await parseText('#EXTM3U\n', null);
    expect(result.playlists).toMatchObject([{ name: 'Imported playlist', tracks: [] }]);
    expect(result.issues).toMatchObject([{ code: 'no_tracks' }]);
  });
});
