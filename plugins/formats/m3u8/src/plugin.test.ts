import { FORMAT_OPERATIONS, type PlaylistInput } from '@opl/plugin-sdk/schemas';
import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';
import { formatKit } from '@opl/plugin-sdk';
import { LOCAL_FILE_REASON } from './m3u-parser.ts';

const encoder = new TextEncoder();

const parse = (bytes: Uint8Array, filename: string | null = 'list.m3u8') => runParse(plugin, bytes, { filename, mediaType: 'audio/x-mpegurl' });

const parseText = (text: string, filename?: string | null) => parse(encoder.encode(text), filename);

const richPlaylists: PlaylistInput[] = [
  {
    id: '37i9dQZF1DXcBWIGoYBM5M',
    name: 'J-Pop 名曲 / Русский рок',
    description: 'Любимые песни —\nお気に入り \\ #EXTINF:1,x',
    owner_id: 'owner-1',
    owner_name: 'Ana',
    photo: 'https://img.example/p.jpg',
    artwork_uri: 'https://img.example/cover.jpg',
    created_at: '2023-12-31T23:59:59Z',
    updated_at: '2024-05-01T10:00:00.250+09:00',
    snapshot_id: 'snap',
    track_count: 4,
    is_owned: true,
    is_followed: false,
    collaborative: false,
    kind: 'PLAYLIST',
    provider_uris: { spotify: 'spotify:playlist:37i9dQZF1DXcBWIGoYBM5M' },
    metadata: { note: 'line\r\nbreak', nested: { a: [1, 2] } },
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
        track_number: 1,
        disc_number: 1,
        explicit: false,
        composer: 'Hikaru Utada',
        credits: [{ role: 'producer', name: 'Hikaru Utada', instrument: null, uri: null }],
        label: 'Virgin',
        artwork_uri: 'https://img.example/a.jpg',
        provider_uris: { spotify: 'spotify:track:2x' },
        added_at: '2024-01-01T00:00:00Z',
        source_position: 0,
        provider_metadata: { popularity: 70 },
      },
      { id: 'trk-2', title: 'Группа крови', artist: 'Кино', duration_s: 285.6, provider_uris: { tidal: 'tidal:track:4242' } },
      // A duplicate entry: kept twice, in place.
      { id: 'trk-1', source_item_id: 'set-3', title: '花束を君に', artist: '宇多田ヒカル', provider_uris: { spotify: 'spotify:track:2x' } },
      {
        id: 'ep-1',
        title: 'Episode - Part 1',
        artist: '',
        media_type: 'episode',
        is_migratable: false,
        unsupported_reason: 'podcast episodes are not migrated',
        provider_uris: { spotify: 'spotify:episode:9z', youtube: 'https://music.youtube.com/watch?v=abc' },
      },
      { title: 'Local - Song', artist: 'A - B', media_type: 'local_file', is_local: true, is_migratable: false, metadata: { location: 'C:\\Music\\a.mp3' } },
      { title: '  spaced  ', artist: 'AC-DC', duration_s: 0 },
    ],
  },
  { id: 'empty', name: 'Nothing yet', kind: 'LIKED_TRACKS' },
  { id: 'p3', name: 'Third', tracks: [{ title: 'x', artist: 'y', provider_uris: { deezer: 'deezer:track:1' } }] },
];

/** The models the host would hold, with positions as a reader assigns them (0-based in the read playlist). */
function normalized(playlists: PlaylistInput[]) {
  return FORMAT_OPERATIONS.serialize.input.parse({ playlists }).playlists.map((playlist) => ({
    ...playlist,
    tracks: playlist.tracks.map((track, index) => ({ ...track, position: index })),
  }));
}

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

describe('parse: remote locations', () => {
  const { stream, playlist, unnamed } = formatKit.REMOTE_ITEM_REASONS;
  const notSong = (reason: string) => ({ media_type: 'unknown', is_migratable: false, is_local: false, unsupported_reason: reason });
  const song = { media_type: 'track', is_migratable: true, is_local: false, unsupported_reason: null };

  it('reads radio streams and other web addresses that name no song as unknown media, not migrated', async () => {
    const result = await parseText(
      [
        '#EXTM3U',
        '#EXTINF:-1,Radio FIP',
        'http://icecast.radiofrance.fr/fip-midfi.mp3',
        '#EXTINF:-1,FIP - Live',
        'https://stream.example/fip.mp3',
        'http://stream.example.com:8000/live',
        '#EXTINF:-1 tvg-id="bbc1.uk" group-title="UK",BBC One HD',
        'http://example.com/live/bbc1.m3u8',
        '#EXTINF:3600,Station - Morning Show',
        'rtsp://radio.example/live',
        '#EXTINF:215,One More Time',
        'http://music.example/omt.mp3',
        '#EXTINF:200,Some - Playlist',
        'https://radio.example/listen.pls',
        '',
      ].join('\n'),
    );
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]?.tracks).toMatchObject([
      { artist: '', title: 'Radio FIP', duration_s: null, metadata: { location: 'http://icecast.radiofrance.fr/fip-midfi.mp3' }, ...notSong(stream) },
      { artist: 'FIP', title: 'Live', ...notSong(stream) },
      { artist: '', title: 'live', duration_s: null, metadata: { location: 'http://stream.example.com:8000/live' }, ...notSong(unnamed) },
      { title: 'BBC One HD', ...notSong(stream) },
      { artist: 'Station', title: 'Morning Show', duration_s: 3600, ...notSong(stream) },
      { artist: '', title: 'One More Time', duration_s: 215, ...notSong(unnamed) },
      { artist: 'Some', title: 'Playlist', ...notSong(playlist) },
    ]);
  });

  it('takes a remote file named by artist and title, with a length, for a song (matched by its names)', async () => {
    const result = await parseText('#EXTINF:215,Daft Punk - One More Time\nhttp://music.example/omt.mp3\nhttps://music.example/Daft%20Punk%20-%20Aerodynamic.mp3?dl=1\n#EXTART:Zaz\n#EXTINF:219,Je veux\nhttp://music.example/zaz.mp3\n');
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]?.tracks).toMatchObject([
      { artist: 'Daft Punk', title: 'One More Time', duration_s: 215, metadata: { location: 'http://music.example/omt.mp3' }, ...song },
      { artist: 'Daft Punk', title: 'Aerodynamic', duration_s: null, ...song },
      { artist: 'Zaz', title: 'Je veux', ...song },
    ]);
  });

  it('keeps provider track links as songs, whatever their length', async () => {
    const result = await parseText('#EXTINF:-1,Radio Edit\nhttps://open.spotify.com/track/abc\n#EXTINF:-1,x\nhttps://listen.tidal.com/album/111/track/22222\n');
    expect(result.playlists[0]?.tracks).toMatchObject([
      { provider_uris: { spotify: 'spotify:track:abc' }, ...song },
      { provider_uris: { tidal: 'tidal:track:22222' }, ...song },
    ]);
  });

  it('keeps another service\'s song page as a song, named or not, whatever its length, and takes no name from its path', async () => {
    const result = await parseText('#EXTM3U\nhttps://www.deezer.com/track/3135556\n#EXTINF:-1,\nhttps://music.youtube.com/watch?v=FGBhQbmPwH8\n#EXTINF:320,Daft Punk - One More Time\nhttps://youtu.be/FGBhQbmPwH8\n');
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]?.tracks).toMatchObject([
      { artist: '', title: '', provider_uris: {}, metadata: { location: 'https://www.deezer.com/track/3135556' }, ...song },
      { artist: '', title: '', provider_uris: {}, metadata: { location: 'https://music.youtube.com/watch?v=FGBhQbmPwH8' }, ...song },
      { artist: 'Daft Punk', title: 'One More Time', duration_s: 320, metadata: { location: 'https://youtu.be/FGBhQbmPwH8' }, ...song },
    ]);
  });

  it('reads a file on a network share (smb://) as a local file, like its UNC path', async () => {
    const result = await parseText('#EXTM3U\n#EXTINF:320,Daft Punk - One More Time\nsmb://nas/Music/Daft%20Punk%20-%20One%20More%20Time.mp3\n');
    expect(result.playlists[0]?.tracks).toMatchObject([
      { artist: 'Daft Punk', title: 'One More Time', is_local: true, media_type: 'local_file', is_migratable: false, metadata: { location: 'smb://nas/Music/Daft%20Punk%20-%20One%20More%20Time.mp3', local_path: 'smb://nas/Music/Daft%20Punk%20-%20One%20More%20Time.mp3' } },
    ]);
  });

  it("reads iTunes and Music's exports, which write `Title - Artist`, the right way round by the file's path", async () => {
    // "Export Playlist…" on a Mac: lone CR line ends, POSIX paths in the iTunes Media layout.
    const mac = [
      '#EXTM3U',
      '#EXTINF:263,Harbour Lights - The Quiet Tide',
      '/Users/ana/Music/iTunes/iTunes Media/Music/The Quiet Tide/Northern Coast/02 Harbour Lights.mp3',
      // Disc and track number before the name; a title with a dash of its own.
      '#EXTINF:301,Under Glass - Live in Oslo - Mara Voss',
      '/Users/ana/Music/Music/Media.localized/Music/Mara Voss/Live/1-07 Under Glass - Live in Oslo.m4a',
      // A compilation: the folder is no artist, the file names the title.
      '#EXTINF:199,Slow Rivers - Kestrel Park',
      '/Users/ana/Music/iTunes/iTunes Media/Music/Compilations/Summer Sampler/11 Slow Rivers.m4a',
      // A path that says nothing: the file is title first, so this entry is too.
      '#EXTINF:180,Low Tide - The Quiet Tide',
      '/Volumes/Stick/track 4.mp3',
      '',
    ].join('\r');
    expect((await parseText(mac)).playlists[0]?.tracks).toMatchObject([
      { artist: 'The Quiet Tide', title: 'Harbour Lights', duration_s: 263, track_number: null },
      { artist: 'Mara Voss', title: 'Under Glass - Live in Oslo' },
      { artist: 'Kestrel Park', title: 'Slow Rivers' },
      { artist: 'The Quiet Tide', title: 'Low Tide' },
    ]);
    // On Windows, CRLF; iTunes cuts long file names.
    const windows = '#EXTM3U\r\n#EXTINF:452,Little Harbour Lights (Northern Coast Remix) - The Quiet Tide\r\nC:\\Users\\ana\\Music\\iTunes\\iTunes Media\\Music\\The Quiet Tide\\Unknown Album\\Little Harbour Lights (Northern Coast R.mp3\r\n';
    expect((await parseText(windows)).playlists[0]?.tracks).toMatchObject([{ artist: 'The Quiet Tide', title: 'Little Harbour Lights (Northern Coast Remix)' }]);
  });

  it('keeps `Artist - Title` when the path agrees or says nothing', async () => {
    const text = [
      '#EXTM3U',
      '#EXTINF:263,The Quiet Tide - Harbour Lights',
      'D:\\Music\\The Quiet Tide\\Northern Coast\\02 Harbour Lights.mp3',
      '#EXTINF:200,The Quiet Tide - Harbour Lights',
      '../Music/The Quiet Tide - Harbour Lights.mp3',
      '#EXTINF:200,Some Artist - Some Title',
      'x.mp3',
      // Self-titled: the path fits both readings.
      '#EXTINF:240,Kestrel Park - Kestrel Park',
      '/music/Kestrel Park/Kestrel Park/01 Kestrel Park.mp3',
      '',
    ].join('\n');
    expect((await parseText(text)).playlists[0]?.tracks).toMatchObject([
      { artist: 'The Quiet Tide', title: 'Harbour Lights' },
      { artist: 'The Quiet Tide', title: 'Harbour Lights' },
      { artist: 'Some Artist', title: 'Some Title' },
      { artist: 'Kestrel Park', title: 'Kestrel Park' },
    ]);
  });

  it('reads #EXTGENRE as the genre, beside #EXTALB and #EXTART, and ignores #EXTIMG and #EXTBYT', async () => {
    const result = await parseText('#EXTM3U\n#PLAYLIST:Mix\n#EXTART:The Quiet Tide\n#EXTALB:Northern Coast\n#EXTGENRE:Dream Pop\n#EXTIMG:cover.jpg\n#EXTBYT:5242880\n#EXTINF:263,Harbour Lights\n../Music/02 Harbour Lights.mp3\n#EXTINF:200,Other - Song\nb.mp3\n');
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]?.tracks).toMatchObject([
      { artist: 'The Quiet Tide', title: 'Harbour Lights', album: 'Northern Coast', genre: 'Dream Pop', duration_s: 263 },
      { artist: 'Other', title: 'Song', album: null, genre: null },
    ]);
  });

  it('reads the content:// URIs of Android players as files on the phone, not as web addresses to migrate', async () => {
    const media = 'content://media/external/audio/media/1234';
    const document = 'content://com.android.externalstorage.documents/document/primary%3AMusic%2FAir%2FAir%20-%20Sexy%20Boy.mp3';
    const result = await parseText(`#EXTM3U\n#EXTINF:320,Daft Punk - One More Time\n${media}\n${document}\n${media}\n/storage/emulated/0/Music/Air/La Femme d'Argent.mp3\n`);
    const local = { is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: LOCAL_FILE_REASON };
    expect(result.playlists[0]?.tracks).toMatchObject([
      { artist: 'Daft Punk', title: 'One More Time', duration_s: 320, ...local, metadata: { location: media, local_path: media } },
      { artist: 'Air', title: 'Sexy Boy', ...local, metadata: { location: document, local_path: document } },
      // A media-store number names no song.
      { artist: '', title: '', ...local, metadata: { location: media } },
      { artist: '', title: "La Femme d'Argent", ...local },
    ]);
  });

  it('reads a Spotify or TIDAL album or playlist link as what it names, not as a song to search for, even with a title', async () => {
    const result = await parseText('#EXTM3U\n#EXTINF:2400,Daft Punk - Discovery\nhttps://open.spotify.com/album/2noRn2Aes5aoNVsU6iWThc?si=1\n#EXTINF:-1,Friday mix\nhttps://tidal.com/browse/playlist/0c5b2c1e-8a4f-4f57-9d43-4b1b5f0d2c7a\n');
    expect(result.playlists[0]?.tracks).toMatchObject([
      { title: 'Discovery', provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: 'album link: the location names an album, not a song', metadata: { location: 'https://open.spotify.com/album/2noRn2Aes5aoNVsU6iWThc?si=1' } },
      { provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: 'playlist link: the location names another playlist, not a song', metadata: { location: 'https://tidal.com/browse/playlist/0c5b2c1e-8a4f-4f57-9d43-4b1b5f0d2c7a' } },
    ]);
  });

  it('refuses an HLS media or master playlist: segments of one stream, not songs', async () => {
    const media = await parseText('#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:10.0,\nsegment000.ts\n#EXTINF:9.5,\nsegment001.ts\n#EXT-X-ENDLIST\n', 'video.m3u8');
    expect(media).toEqual({ playlists: [], issues: [expect.objectContaining({ line: 3, code: 'hls_playlist', severity: 'error' })] });
    expect(media.issues[0]?.message).toContain('HLS');
    const master = await parseText('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1280000,RESOLUTION=1280x720\nvideo/720p.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=640000\nvideo/360p.m3u8\n');
    expect(master).toMatchObject({ playlists: [], issues: [{ line: 2, code: 'hls_playlist' }] });
  });
});

describe('parse: files that are not M3U', () => {
  it('refuses a web page, an XML playlist, a PLS file and JSON saved as .m3u instead of reading their lines as paths', async () => {
    const page = await parseText('\n  <!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n<body><h1>Not Found</h1></body></html>\n', 'radio.m3u');
    expect(page).toEqual({ playlists: [], issues: [expect.objectContaining({ line: 2, code: 'not_m3u', severity: 'error' })] });
    expect(page.issues[0]?.message).toMatch(/HTML or XML/);
    const xspf = await parseText('<?xml version="1.0" encoding="UTF-8"?>\n<playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList/></playlist>\n');
    expect(xspf).toMatchObject({ playlists: [], issues: [{ line: 1, code: 'not_m3u' }] });
    const pls = await parseText('[playlist]\r\nFile1=http://radio.example/stream\r\nTitle1=Radio\r\nNumberOfEntries=1\r\nVersion=2\r\n', 'listen.m3u');
    expect(pls).toMatchObject({ playlists: [], issues: [{ line: 1, code: 'not_m3u', severity: 'error' }] });
    expect(pls.issues[0]?.message).toMatch(/PLS/);
    const json = await parseText('{"playlists":[]}');
    expect(json).toMatchObject({ playlists: [], issues: [{ line: 1, code: 'not_m3u' }] });
  });

  it('still reads paths that merely start with a bracket or a brace, and markup after the first entry', async () => {
    const result = await parseText('[2019] Live/01 Intro.mp3\n{Bootleg}/02 Song.mp3\n<b>.mp3\n');
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]?.tracks.map((track) => track.metadata?.location)).toEqual(['[2019] Live/01 Intro.mp3', '{Bootleg}/02 Song.mp3', '<b>.mp3']);
  });
});

describe('parse: numbered entries', () => {
  it('reads a leading track number from #EXTINF and file names as track_number, never as the artist', async () => {
    const result = await parseText(
      [
        '#EXTM3U',
        '#EXTINF:213,01 - One More Time',
        'C:\\Music\\Daft Punk\\Discovery\\01 - One More Time.mp3',
        '#EXTINF:200,Daft Punk - 02 - Aerodynamic',
        'C:\\Music\\x.mp3',
        'C:\\Music\\Daft Punk\\Discovery\\03 - Digital Love.mp3',
        'C:\\Music\\Daft Punk\\Discovery\\04 Harder Better.mp3',
        '#EXTINF:200,05 - Daft Punk - Crescendolls',
        'c.mp3',
        '#EXTINF:207,311 - Amber',
        'amber.mp3',
        'D:\\Rap\\50 Cent - In Da Club.mp3',
        '#EXTINF:251,3 Doors Down - Kryptonite',
        'k.mp3',
        '',
      ].join('\r\n'),
    );
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]?.tracks.map((track) => [track.track_number, track.artist, track.title])).toEqual([
      [1, '', 'One More Time'],
      [2, 'Daft Punk', 'Aerodynamic'],
      [3, '', 'Digital Love'],
      [4, '', 'Harder Better'],
      [5, 'Daft Punk', 'Crescendolls'],
      [null, '311', 'Amber'],
      [null, '50 Cent', 'In Da Club'],
      [null, '3 Doors Down', 'Kryptonite'],
    ]);
  });

  it('reads its own exports exactly: a title or artist that looks numbered stays as it was', async () => {
    const playlists: PlaylistInput[] = [
      {
        name: 'Numbered',
        tracks: [
          { title: '01 - Intro', artist: '' },
          { title: '1. Intro', artist: '' },
          { title: 'Aerodynamic', artist: '02' },
          { title: '02 - Aerodynamic', artist: 'Daft Punk' },
          { title: '- Bullet', artist: '' },
          { title: 'x', artist: '* y' },
        ],
      },
    ];
    const { text } = await runSerialize(plugin, playlists);
    const result = await parseText(text);
    expect(result.issues).toEqual([]);
    expect(result.playlists).toEqual(normalized(playlists));
    // A file written before numbering was read: no #OPL-TITLE, read back as written.
    const older = await parseText('#EXTM3U\n#OPL-SCHEMA-VERSION:1\n#PLAYLIST:P\n#OPL-PLAYLIST-KIND:PLAYLIST\n#EXTINF:-1,Daft Punk - 02 - Aerodynamic\n#OPL-SOURCE-URI:spotify:track:a\nhttps://open.spotify.com/track/a\n');
    expect(older.playlists[0]?.tracks[0]).toMatchObject({ artist: 'Daft Punk', title: '02 - Aerodynamic', track_number: null });
  });
});

describe('parse: file names with # and colons, stray directives', () => {
  it('keeps an unescaped # of a file: URL in the path and reads a colon in a relative file name as a path', async () => {
    const result = await parseText('#EXTINF:100,Sigur Rós - Track #1\nfile:///C:/Music/Track #1.mp3\nfile:///C:/Music/Mix #2.mp3\n#EXTINF:100,Demo - Intro\nintro:demo.mp3\nMusic/Live: Paris 1999.flac\n');
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]?.tracks).toMatchObject([
      { artist: 'Sigur Rós', title: 'Track #1', metadata: { location: 'file:///C:/Music/Track #1.mp3', local_path: 'C:/Music/Track #1.mp3' }, is_local: true },
      { artist: '', title: 'Mix #2', metadata: { local_path: 'C:/Music/Mix #2.mp3' } },
      { artist: 'Demo', title: 'Intro', provider_uris: {}, is_local: true, media_type: 'local_file', is_migratable: false, metadata: { local_path: 'intro:demo.mp3' } },
      { title: 'Live: Paris 1999', is_local: true, metadata: { local_path: 'Music/Live: Paris 1999.flac' } },
    ]);
  });

  it('creates no track for a stray #EXTART, #EXTALB or empty #EXTINF without a location', async () => {
    const tail = await parseText('#EXTM3U\n#EXTINF:300,A - B\na.mp3\n#EXTVLCOPT:foo\n#EXTART:Björk\n');
    expect(tail.playlists[0]?.tracks.map((track) => track.title)).toEqual(['B']);
    expect(tail.issues).toEqual([expect.objectContaining({ line: 5, code: 'empty_entry', severity: 'warning' })]);
    const beforePlaylist = await parseText('#EXTALB:Homogenic\n#PLAYLIST:Next\n#EXTINF:1,a - b\nb.mp3\n#EXTINF:-1,\n');
    expect(beforePlaylist.playlists).toMatchObject([{ name: 'Next', tracks: [{ title: 'b' }] }]);
    expect(beforePlaylist.issues.map((issue) => [issue.line, issue.code])).toEqual([
      [1, 'empty_entry'],
      [5, 'empty_entry'],
    ]);
  });
});

describe('parse: hostile input', () => {
  // A hang guard (the timeout), not a speed check: a backtracking pattern on this line would take hours.
  it('skips a 50 MB line with one issue, keeping the neighbours', { timeout: 120_000 }, async () => {
    const huge = 'A'.repeat(50 * 1024 * 1024);
    const result = await parseText(`#EXTINF:1,a - b\nb.mp3\n#EXTINF:1,c - d\n${huge}\n#EXTINF:1,e - f\nf.mp3\n`);
    expect(result.playlists[0]?.tracks.map((track) => track.title)).toEqual(['b', 'f']);
    expect(result.issues).toMatchObject([{ line: 4, code: 'line_too_long', severity: 'error' }]);
    expect(result.issues[0]!.message).toContain(`line 4 is ${huge.length} characters long`);
  });

  it('refuses a file that is one 50 MB line, also after #EXTM3U, instead of an empty playlist', { timeout: 120_000 }, async () => {
    const huge = 'A'.repeat(50 * 1024 * 1024);
    for (const [text, line] of [[huge, 1], [`#EXTM3U\n${huge}\n`, 2]] as const) {
      const result = await parseText(text);
      expect(result.playlists).toEqual([]);
      expect(result.issues).toMatchObject([
        { line, code: 'line_too_long', severity: 'error' },
        { line: null, code: 'nothing_readable', severity: 'error' },
      ]);
    }
  });

  it('refuses binary garbage with one clear issue', async () => {
    let seed = 7;
    const garbage = Uint8Array.from({ length: 200_000 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff);
    const result = await parse(garbage);
    expect(result.playlists).toEqual([]);
    expect(result.issues).toMatchObject([{ code: 'binary_content', severity: 'error' }]);
  });

  it('refuses garbage made only of bytes 0x80–0xFF (read as windows-1252 it has no C0 control)', async () => {
    let seed = 9;
    const garbage = Uint8Array.from({ length: 20_000 }, () => 0x80 + (((seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 16) & 0x7f));
    expect(await parse(garbage)).toMatchObject({ playlists: [], issues: [{ code: 'binary_content', severity: 'error' }] });
  });

  it('bounds the issue list', async () => {
    const result = await parseText('#EXTINF:x\nb.mp3\n'.repeat(5_000));
    expect(result.playlists[0]?.tracks).toHaveLength(5_000);
    expect(result.issues).toHaveLength(201);
    expect(result.issues[200]).toMatchObject({ code: 'too_many_issues' });
  });
});

describe('provider URIs that are not tracks, and Spotify local files', () => {
  it('reads a spotify:local URI as a local file named by it, unless #EXTINF names it', async () => {
    const result = await parseText(
      '#EXTM3U\nspotify:local:Daft+Punk:Discovery:One+More+Time:320\n#EXTINF:200,Own Title\n#EXTALB:Own Album\nspotify:local:Daft+Punk:Discovery:One+More+Time:320\n',
    );
    const [first, second] = result.playlists[0]!.tracks;
    expect(first).toMatchObject({ artist: 'Daft Punk', title: 'One More Time', album: 'Discovery', duration_s: 320, provider_uris: {}, is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: formatKit.LOCAL_FILE_REASON, metadata: { location: 'spotify:local:Daft+Punk:Discovery:One+More+Time:320' } });
    expect(first!.metadata).not.toHaveProperty('local_path');
    expect(second).toMatchObject({ artist: 'Daft Punk', title: 'Own Title', album: 'Own Album', duration_s: 200, media_type: 'local_file', is_migratable: false });
  });

  it('reads albums, playlists and artists as links that are not songs, and an episode as an episode', async () => {
    const result = await parseText(
      '#EXTM3U\n#EXTINF:-1,Discovery\nspotify:album:2noRn2Aes5aoNVsU6iWThc\nspotify:playlist:37i9dQZF1DXcBWIGoYBM5M\ntidal:album:17927863\nspotify:artist:4tZwfgrHOc3mvqYlEYSvVi\n#EXTINF:3600,Some Show - Episode 1\nspotify:episode:512ojhOuo1ktJprKbVcKyQ\n',
    );
    const tracks = result.playlists[0]!.tracks;
    expect(tracks[0]).toMatchObject({ title: 'Discovery', provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.album, metadata: { location: 'spotify:album:2noRn2Aes5aoNVsU6iWThc' } });
    expect(tracks[1]).toMatchObject({ provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.playlist });
    expect(tracks[2]).toMatchObject({ provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.album, metadata: { location: 'tidal:album:17927863' } });
    expect(tracks[3]).toMatchObject({ media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.artist });
    expect(tracks[4]).toMatchObject({ title: 'Episode 1', provider_uris: { spotify: 'spotify:episode:512ojhOuo1ktJprKbVcKyQ' }, media_type: 'episode', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.episode });
    // Written back, an album link keeps its location line.
    const { text } = await runSerialize(plugin, result.playlists);
    expect(text).toContain('\nspotify:album:2noRn2Aes5aoNVsU6iWThc\n');
  });

  it('reads TIDAL "Copy link" and Spotify embed / play links as tracks', async () => {
    const result = await parseText(
      '#EXTM3U\nhttps://tidal.com/track/53796003/u\nhttps://listen.tidal.com/track/53796003/u\nhttps://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC\nhttps://play.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC\n',
    );
    expect(result.playlists[0]!.tracks.map((track) => [track.title, track.provider_uris, track.media_type, track.is_migratable])).toEqual([
      ['', { tidal: 'tidal:track:53796003' }, 'track', true],
      ['', { tidal: 'tidal:track:53796003' }, 'track', true],
      ['', { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, 'track', true],
      ['', { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, 'track', true],
    ]);
  });
});

describe('source references of CSV and TXT imports', () => {
  it('writes metadata.source_uri as the location line when the track has no provider URI and no location', async () => {
    const { text } = await runSerialize(plugin, [
      {
        name: 'Links',
        tracks: [
          { title: 'Never Gonna Give You Up', artist: 'Rick Astley', metadata: { source_uri: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' } },
          { title: 'Both', artist: 'A', metadata: { source_uri: 'https://a.example/x.mp3', location: 'https://b.example/y.mp3' } },
          { title: 'Provider', artist: 'B', provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, metadata: { source_uri: 'https://a.example/x.mp3' } },
          { title: 'Unsafe', artist: 'C', metadata: { source_uri: '#not a line' } },
        ],
      },
    ]);
    const lines = text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(lines).toEqual(['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://b.example/y.mp3', 'https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC']);
  });

  it('keeps web addresses and paths through M3U → CSV → M3U, and a YouTube link through CSV → M3U → CSV', async () => {
    const csv = (await import('../../csv/src/index.ts')).default;
    const m3u = '#EXTM3U\n#EXTINF:213,Rick Astley - Never Gonna Give You Up\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\n#EXTINF:320,Daft Punk - One More Time\nC:\\Music\\Daft Punk - One More Time.mp3\n';
    const fromM3u = (await parseText(m3u)).playlists;
    const asCsv = (await runSerialize(csv, fromM3u)).text;
    expect(asCsv).toContain('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(asCsv).toContain('C:\\Music\\Daft Punk - One More Time.mp3');
    const back = (await runSerialize(plugin, (await runParse(csv, encoder.encode(asCsv), { filename: 'list.csv' })).playlists)).text;
    const locations = back.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(locations).toEqual(['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'C:\\Music\\Daft Punk - One More Time.mp3']);

    const source = (await runParse(csv, encoder.encode(asCsv), { filename: 'list.csv' })).playlists;
    const again = (await runSerialize(csv, (await parseText(back)).playlists)).text;
    expect(again).toContain('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(source[0]!.tracks[0]).toMatchObject({ title: 'Never Gonna Give You Up', metadata: { source_uri: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' } });
  });
});
