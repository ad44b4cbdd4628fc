import { formatKit } from '@opl/plugin-sdk';
import { runParse } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';
import { LOCAL_FILE_REASON } from './pls-location.ts';

const encoder = new TextEncoder();

const parse = (bytes: Uint8Array, filename: string | null = 'radio.pls') => runParse(plugin, bytes, { filename, mediaType: 'audio/x-scpls' });
const parseText = (text: string, filename?: string | null) => parse(encoder.encode(text), filename);

describe('PLS', () => {
  it('has no serializer', () => {
    expect(plugin.operations.serialize).toBeUndefined();
  });

  it('reads entries ordered by number, with titles, lengths and duplicates', async () => {
    const result = await parseText(
      '[playlist]\nFile2=C:\\Music\\Кино - Кукушка.mp3\nTitle2=Кино - Кукушка\nLength2=400\nFile1=https://open.spotify.com/track/abc123\nTitle1=Daft Punk - One More Time\nLength1=-1\nFile3=http://radio.example:8000/live\nTitle3=Radio Live\nFile4=https://tidal.com/browse/track/77\nNumberOfEntries=4\nVersion=2\n',
      'Mix.pls',
    );
    expect(result.issues).toEqual([]);
    expect(result.playlists).toMatchObject([
      {
        name: 'Mix',
        tracks: [
          { artist: 'Daft Punk', title: 'One More Time', duration_s: null, provider_uris: { spotify: 'spotify:track:abc123' }, is_local: false, position: 0 },
          { artist: 'Кино', title: 'Кукушка', duration_s: 400, is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: LOCAL_FILE_REASON, metadata: { location: 'C:\\Music\\Кино - Кукушка.mp3', local_path: 'C:\\Music\\Кино - Кукушка.mp3' }, position: 1 },
          { artist: '', title: 'Radio Live', is_local: false, media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.REMOTE_ITEM_REASONS.unnamed, metadata: { location: 'http://radio.example:8000/live' }, position: 2 },
          { artist: '', title: '', provider_uris: { tidal: 'tidal:track:77' }, position: 3 },
        ],
      },
    ]);
  });

  it('titles entries from file names; file:// and UNC paths are local and never opened', async () => {
    const result = await parseText('[playlist]\r\nFile1=file:///home/me/Artist%20-%20Song.flac\r\nFile2=\\\\nas\\share\\Other - Tune.mp3\r\nFile3=../x/Plain.ogg\r\nNumberOfEntries=3\r\n');
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]?.tracks.map((track) => [track.artist, track.title, track.is_local, track.metadata.local_path])).toEqual([
      ['Artist', 'Song', true, '/home/me/Artist - Song.flac'],
      ['Other', 'Tune', true, '\\\\nas\\share\\Other - Tune.mp3'],
      ['', 'Plain', true, '../x/Plain.ogg'],
    ]);
  });

  it('reports missing numbers, duplicates, missing files and a wrong count, keeping the rest', async () => {
    const result = await parseText('[playlist]\nFile1=a.mp3\nFile1=again.mp3\nTitle3=No file\nFile5=e.mp3\nLength5=long\nbroken line\nFile0=zero.mp3\nNumberOfEntries=9\nVersion=3\n[other]\nFile6=ignored.mp3\n');
    expect(result.playlists[0]?.tracks.map((track) => track.title)).toEqual(['a', 'e']);
    expect(result.issues.map((issue) => [issue.line, issue.code])).toEqual([
      [3, 'duplicate_key'],
      [7, 'invalid_line'],
      [8, 'invalid_line'],
      [10, 'unsupported_version'],
      [11, 'unknown_section'],
      [null, 'missing_entry'],
      [4, 'missing_file'],
      [null, 'missing_entry'],
      [6, 'invalid_value'],
      [9, 'entry_count_mismatch'],
    ]);
  });

  it('reads a file without [playlist] header with a warning', async () => {
    const result = await parseText('File1=a.mp3\n');
    expect(result.playlists[0]?.tracks).toHaveLength(1);
    expect(result.issues).toMatchObject([{ line: 1, code: 'missing_header' }]);
  });

  it('reads station names from SHOUTcast directory titles without their "(#N - listeners/slots)" prefix', async () => {
    const result = await parseText(
      '[playlist]\r\nnumberofentries=3\r\nFile1=http://ice1.somafm.com/groovesalad-128-mp3\r\nTitle1=(#1 - 1/2000) SomaFM: Groove Salad\r\nLength1=-1\r\nFile2=http://ice2.somafm.com/groovesalad-128-mp3\r\nTitle2=(#2 - 15/2000) SomaFM: Groove Salad\r\nLength2=-1\r\nFile3=http://radio.example/a.mp3\r\nTitle3=(#1 Hits) - Best Of\r\nVersion=2\r\n',
    );
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]?.tracks.map((track) => [track.artist, track.title])).toEqual([
      ['', 'SomaFM: Groove Salad'],
      ['', 'SomaFM: Groove Salad'],
      // Only the directory's exact prefix is dropped.
      ['(#1 Hits)', 'Best Of'],
    ]);
  });

  it('refuses an M3U playlist, a web page or a list of addresses saved as .pls with one clear issue', async () => {
    const m3u = await parseText('#EXTM3U\n#EXTINF:354,Queen - Bohemian Rhapsody\nC:\\Music\\Queen\\Bohemian Rhapsody.mp3\n#EXTINF:-1,FIP\nhttps://icecast.radiofrance.fr/fip-hifi.aac\n', 'radio.pls');
    expect(m3u).toEqual({ playlists: [], issues: [expect.objectContaining({ line: null, code: 'not_pls', severity: 'error' })] });
    expect(m3u.issues[0]?.message).toMatch(/M3U/);
    const page = await parseText('<!DOCTYPE html>\n<html><body><h1>Not Found</h1></body></html>\n');
    expect(page).toMatchObject({ playlists: [], issues: [{ code: 'not_pls', severity: 'error', message: expect.stringMatching(/HTML or XML/) as unknown }] });
    const urls = await parseText('http://radio.example.com:8000/stream\n');
    expect(urls).toMatchObject({ playlists: [], issues: [{ code: 'not_pls', severity: 'error' }] });
    // An empty file is an empty playlist, as before.
    expect(await parseText('\n')).toMatchObject({ playlists: [{ tracks: [] }], issues: [{ code: 'no_tracks' }] });
  });

  it('decodes UTF-16 with BOM and windows-1252', async () => {
    const text = '[playlist]\nFile1=Björk - Jóga.mp3\n';
    const le = new Uint8Array([0xff, 0xfe, ...[...text].flatMap((char) => [char.charCodeAt(0) & 0xff, char.charCodeAt(0) >> 8])]);
    const latin1 = Uint8Array.from([...text].map((char) => char.charCodeAt(0)));
    for (const bytes of [le, latin1, new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(text)])]) {
      expect((await parse(bytes)).playlists[0]?.tracks[0]).toMatchObject({ artist: 'Björk', title: 'Jóga' });
    }
    // Read as windows-1252 and said so, as the M3U, TXT and CSV readers do; UTF-8 and UTF-16 say nothing.
    expect((await parse(latin1)).issues).toEqual([expect.objectContaining({ line: null, code: 'legacy_encoding', severity: 'warning', message: formatKit.LEGACY_ENCODING_WARNING })]);
    expect((await parse(le)).issues).toEqual([]);
    expect((await parse(encoder.encode(text))).issues).toEqual([]);
  });

  it('reads radio streams and addresses that name no song as unknown media, and remote songs as songs', async () => {
    const { stream, playlist, unnamed } = formatKit.REMOTE_ITEM_REASONS;
    const result = await parseText(
      '[playlist]\nFile10=http://stream.example.com:8000/live\nTitle10=Example Radio (128k)\nLength10=-1\nFile1=http://music.example/omt.mp3\nTitle1=Daft Punk - One More Time\nLength1=320\nFile2=http://shout.example/;\nTitle2=(#1 - 12/500) Groove - Salad\nLength2=-1\nFile3=http://radio.example/station.asx\nTitle3=Station - Live\nFile4=https://music.example/Zaz%20-%20Je%20veux.mp3\nFile5=mms://radio.example/x\nTitle5=A - B\nLength5=200\nFile6=http://radio.example/nova\n',
    );
    expect(result.issues.map((issue) => issue.code)).toEqual(['missing_entry']);
    const tracks = result.playlists[0]?.tracks ?? [];
    expect(tracks.map((track) => [track.artist, track.title, track.media_type, track.is_migratable, track.unsupported_reason])).toEqual([
      ['Daft Punk', 'One More Time', 'track', true, null],
      // The SHOUTcast directory's "(#1 - 12/500)" (stream number, listeners / slots) names no artist.
      ['Groove', 'Salad', 'unknown', false, stream],
      ['Station', 'Live', 'unknown', false, playlist],
      ['Zaz', 'Je veux', 'track', true, null],
      ['A', 'B', 'unknown', false, stream],
      ['', 'nova', 'unknown', false, unnamed],
      ['', 'Example Radio (128k)', 'unknown', false, stream],
    ]);
    expect(tracks[6]).toMatchObject({ duration_s: null, is_local: false, metadata: { location: 'http://stream.example.com:8000/live' } });
  });

  it('reads leading track numbers as track_number, keeps artists that are numbers, # in file: URLs and colons in file names', async () => {
    const result = await parseText(
      '[playlist]\nFile1=C:\\Music\\Daft Punk\\Discovery\\03 - Digital Love.mp3\nFile2=C:\\Music\\04 Harder Better.mp3\nFile3=a.mp3\nTitle3=01 - One More Time\nFile4=b.mp3\nTitle4=311 - Amber\nFile5=file:///C:/Music/Track #1.mp3\nFile6=intro:demo.mp3\nFile7=c.mp3\nTitle7=2. Queen - Bohemian Rhapsody\n',
    );
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]?.tracks.map((track) => [track.track_number, track.artist, track.title, track.is_local, track.metadata.local_path])).toEqual([
      [3, '', 'Digital Love', true, 'C:\\Music\\Daft Punk\\Discovery\\03 - Digital Love.mp3'],
      [4, '', 'Harder Better', true, 'C:\\Music\\04 Harder Better.mp3'],
      [1, '', 'One More Time', true, 'a.mp3'],
      [null, '311', 'Amber', true, 'b.mp3'],
      [null, '', 'Track #1', true, 'C:/Music/Track #1.mp3'],
      [null, '', 'intro:demo', true, 'intro:demo.mp3'],
      [2, 'Queen', 'Bohemian Rhapsody', true, 'c.mp3'],
    ]);
    expect(result.playlists[0]?.tracks[5]).toMatchObject({ provider_uris: {}, media_type: 'local_file', is_migratable: false });
  });

  // A hang guard (the timeout), not a speed check: a backtracking pattern on this line would take hours.
  it('reads past a 50 MB line and refuses binary garbage', { timeout: 120_000 }, async () => {
    const result = await parseText(`[playlist]\nFile1=a.mp3\nTitle2=${'x'.repeat(50 * 1024 * 1024)}\nFile2=b.mp3\n`);
    expect(result.playlists[0]?.tracks.map((track) => track.title)).toEqual(['a', 'b']);
    expect(result.issues).toMatchObject([{ line: 3, code: 'line_too_long' }]);
    expect(result.issues[0]!.message).toContain(`line 3 is ${'Title2='.length + 50 * 1024 * 1024} characters long`);
    // Nothing but such a line: refused, not an empty playlist.
    for (const text of ['x'.repeat(50 * 1024 * 1024), `[playlist]\nFile1=${'x'.repeat(50 * 1024 * 1024)}\n`]) {
      const refused = await parseText(text);
      expect(refused.playlists).toEqual([]);
      expect(refused.issues.filter((issue) => issue.severity === 'error')).toMatchObject([{ code: 'line_too_long' }, { code: 'nothing_readable' }]);
    }
    let seed = 3;
    const garbage = Uint8Array.from({ length: 100_000 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff);
    expect(await parse(garbage)).toMatchObject({ playlists: [], issues: [{ code: 'binary_content', severity: 'error' }] });
  });

  it('refuses garbage made only of bytes 0x80–0xFF, yet reads a Latin-1 playlist', async () => {
    let seed = 11;
    const garbage = Uint8Array.from({ length: 20_000 }, () => 0x80 + (((seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 16) & 0x7f));
    expect(await parse(garbage)).toMatchObject({ playlists: [], issues: [{ code: 'binary_content', severity: 'error' }] });
    // "Björk - Jóga" and "Sigur Rós - Hoppípolla" in ISO-8859-1: high bytes, but text.
    const latin1 = Uint8Array.from([...'[playlist]\nFile1=Bj\xf6rk - J\xf3ga.mp3\nFile2=Sigur R\xf3s - Hopp\xedpolla.mp3\nNumberOfEntries=2\n'].map((char) => char.charCodeAt(0)));
    const read = await parse(latin1);
    expect(read.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    expect(read.playlists[0]?.tracks.map((track) => [track.artist, track.title])).toEqual([
      ['Björk', 'Jóga'],
      ['Sigur Rós', 'Hoppípolla'],
    ]);
  });

  it('refuses a file with a NUL in it as binary', async () => {
    expect(await parseText('[playlist]\nFile1=a.mp3\0\nNumberOfEntries=1\n')).toMatchObject({ playlists: [], issues: [{ code: 'binary_content', severity: 'error' }] });
  });

  it('bounds the issue list and handles a huge entry number gap in one issue', async () => {
    const result = await parseText(`[playlist]\n${'junk\n'.repeat(1_000)}File1=a.mp3\nFile999999999=z.mp3\n`);
    expect(result.issues).toHaveLength(201);
    const gap = await parseText('[playlist]\nFile1=a.mp3\nFile999999999=z.mp3\n');
    expect(gap.issues).toMatchObject([{ code: 'missing_entry', message: expect.stringContaining('2–999999998') as unknown }]);
  });
});

describe('provider URIs that are not tracks, Spotify local files and copied links', () => {
  it('reads each for what it names', async () => {
    const result = await parseText(
      [
        '[playlist]',
        'File1=spotify:local:Daft+Punk:Discovery:One+More+Time:320',
        'File2=spotify:local:Daft+Punk:Discovery:One+More+Time:320',
        'Title2=Own Title',
        'Length2=200',
        'File3=spotify:album:2noRn2Aes5aoNVsU6iWThc',
        'Title3=Discovery',
        'File4=spotify:playlist:37i9dQZF1DXcBWIGoYBM5M',
        'File5=spotify:episode:512ojhOuo1ktJprKbVcKyQ',
        'File6=https://tidal.com/track/53796003/u',
        'File7=https://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC',
        'NumberOfEntries=7',
        'Version=2',
        '',
      ].join('\n'),
    );
    const tracks = result.playlists[0]!.tracks;
    expect(tracks[0]).toMatchObject({ artist: 'Daft Punk', title: 'One More Time', album: 'Discovery', duration_s: 320, provider_uris: {}, is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: formatKit.LOCAL_FILE_REASON, metadata: { location: 'spotify:local:Daft+Punk:Discovery:One+More+Time:320' } });
    expect(tracks[1]).toMatchObject({ artist: 'Daft Punk', title: 'Own Title', duration_s: 200, media_type: 'local_file' });
    expect(tracks[2]).toMatchObject({ title: 'Discovery', provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.album, metadata: { location: 'spotify:album:2noRn2Aes5aoNVsU6iWThc' } });
    expect(tracks[3]).toMatchObject({ provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.playlist });
    expect(tracks[4]).toMatchObject({ provider_uris: { spotify: 'spotify:episode:512ojhOuo1ktJprKbVcKyQ' }, media_type: 'episode', is_migratable: false });
    expect(tracks[5]).toMatchObject({ title: '', provider_uris: { tidal: 'tidal:track:53796003' }, media_type: 'track', is_migratable: true });
    expect(tracks[6]).toMatchObject({ provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, media_type: 'track', is_migratable: true });
  });
});
