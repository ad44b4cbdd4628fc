import { type PlaylistInput } from '@opl/plugin-sdk/schemas';
import { runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';
import { parse, parseText, normalized } from './m3u8-test-support.ts';

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
