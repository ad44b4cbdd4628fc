import { runParse } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';

const encoder = new TextEncoder();
const parseBytes = (bytes: Uint8Array) => runParse(plugin, bytes, { filename: 'Library.xml', mediaType: 'application/xml' });
const parseText = (text: string) => parseBytes(encoder.encode(text));
/** Text encoded as UTF-8 with raw bytes (number arrays) spliced in: what a damaged file holds. */
const bytesOf = (...parts: readonly (string | readonly number[])[]): Uint8Array => {
  const chunks = parts.map((part) => (typeof part === 'string' ? encoder.encode(part) : Uint8Array.from(part)));
  const bytes = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
};

const DOCTYPE = '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">';
const trackDict = (id: number, fields: string) => `<key>${id}</key><dict><key>Track ID</key><integer>${id}</integer>${fields}</dict>`;
const items = (ids: readonly number[]) => `<key>Playlist Items</key><array>${ids.map((id) => `<dict><key>Track ID</key><integer>${id}</integer></dict>`).join('')}</array>`;
const library = (tracks: string, playlists: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${DOCTYPE}\n<plist version="1.0"><dict><key>Major Version</key><integer>1</integer><key>Tracks</key><dict>${tracks}</dict><key>Playlists</key><array>${playlists}</array></dict></plist>`;

const TRACKS = [
  trackDict(1, '<key>Name</key><string>Harbour Lights</string><key>Artist</key><string>The Quiet Tide</string><key>Album Artist</key><string>Tide</string><key>Album</key><string>Lights</string><key>Total Time</key><integer>215500</integer><key>Year</key><integer>2019</integer><key>Track Number</key><integer>3</integer><key>Persistent ID</key><string>ABCDEF0123456789</string><key>Track Type</key><string>File</string><key>Location</key><string>file:///Users/lea/Music/01%20Harbour%20Lights.mp3</string>'),
  trackDict(2, '<key>Name</key><string>Ünder Glass</string><key>Artist</key><string>Mara Voss</string><key>Explicit</key><true/>'),
  trackDict(3, '<key>Name</key><string>Ep. 1</string><key>Podcast</key><true/>'),
  trackDict(4, '<key>Name</key><string>Film</string><key>Movie</key><true/>'),
  trackDict(5, '<key>Name</key><string>Clip</string><key>Music Video</key><true/>'),
  trackDict(6, '<key>Name</key><string>Radio</string><key>Track Type</key><string>URL</string><key>Location</key><string>http://radio.example/stream</string>'),
  trackDict(7, '<key>Track Type</key><string>File</string><key>Location</key><string>file://localhost/C:/Music/Nameless%20Song.m4a</string>'),
  trackDict(8, '<key>Name</key><string>Birthday</string><key>Kind</key><string>MPEG-4 video file</string><key>Has Video</key><true/>'),
  trackDict(9, '<key>Name</key><string>Video episode</string><key>Podcast</key><true/><key>Has Video</key><true/>'),
  trackDict(10, '<key>Name</key><string>Chapter 1</string><key>Kind</key><string>Audible file</string>'),
  trackDict(11, '<key>Name</key><string>Booklet</string><key>Kind</key><string>PDF document</string>'),
].join('');

describe('iTunes / Apple Music Library.xml', () => {
  it('has no serializer', () => {
    expect(plugin.operations.serialize).toBeUndefined();
  });

  it('reads user playlists in order with duplicates and Unicode, song metadata, and locations as data', async () => {
    const result = await parseText(library(TRACKS, `<dict><key>Name</key><string>Mix ✓</string><key>Playlist ID</key><integer>9</integer>${items([2, 1, 2, 7])}</dict>`));
    expect(result.issues).toEqual([]);
    const [playlist] = result.playlists;
    expect(playlist).toMatchObject({ name: 'Mix ✓', metadata: { itunes_playlist_id: 9 } });
    expect(playlist!.tracks.map((track) => [track.position, track.title, track.artist])).toEqual([
      [0, 'Ünder Glass', 'Mara Voss'],
      [1, 'Harbour Lights', 'The Quiet Tide'],
      [2, 'Ünder Glass', 'Mara Voss'],
      [3, 'Nameless Song', ''],
    ]);
    expect(playlist!.tracks[1]).toMatchObject({
      album: 'Lights',
      duration_s: 215.5,
      release_year: 2019,
      track_number: 3,
      media_type: 'track',
      is_local: false,
      is_migratable: true,
      metadata: { album_artist: 'Tide', itunes_persistent_id: 'ABCDEF0123456789', itunes_track_id: 1, location: 'file:///Users/lea/Music/01%20Harbour%20Lights.mp3', local_path: '/Users/lea/Music/01 Harbour Lights.mp3' },
    });
    expect(playlist!.tracks[0]).toMatchObject({ explicit: true });
    expect(playlist!.tracks[3]!.metadata.local_path).toBe('C:/Music/Nameless Song.m4a');
    // Each entry is its own object: positions do not leak between duplicates.
    expect(playlist!.tracks[0]).not.toBe(playlist!.tracks[2]);
  });

  it('keeps compilation, disc and track counts, sort names and the library date added in metadata, and only the certain part of the release date', async () => {
    const song = (id: number, fields: string) => trackDict(id, `<key>Name</key><string>Song ${id}</string>${fields}`);
    const tracks = [
      song(
        1,
        '<key>Year</key><integer>1997</integer><key>Release Date</key><date>1997-05-21T07:00:00Z</date><key>Date Added</key><date>2019-03-01T10:00:00Z</date><key>Compilation</key><true/><key>Disc Number</key><integer>1</integer><key>Disc Count</key><integer>2</integer><key>Track Number</key><integer>4</integer><key>Track Count</key><integer>12</integer><key>Sort Name</key><string>Song One</string><key>Sort Artist</key><string>Beatles</string>',
      ),
      // Noon UTC (Apple Music's catalogue) may also be midnight of the 22nd in New Zealand: the month is certain.
      song(2, '<key>Release Date</key><date>1997-05-21T12:00:00Z</date>'),
      // 23:00 UTC on the 31st is midnight of June 1st in Central Europe: only the year is certain.
      song(3, '<key>Release Date</key><date>1997-05-31T23:00:00Z</date>'),
      // New Year's Eve late in the day: not even the year; the Year tag still gives it.
      song(4, '<key>Year</key><integer>1998</integer><key>Release Date</key><date>1997-12-31T23:00:00Z</date>'),
      // A reissue's release date of another year than the song's Year: the Year wins, the date stays in metadata.
      song(5, '<key>Year</key><integer>1969</integer><key>Release Date</key><date>2009-09-09T07:00:00Z</date>'),
      song(6, '<key>Release Date</key><string>soon</string><key>Date Added</key><date>not a date</date>'),
    ].join('');
    const result = await parseText(library(tracks, `<dict><key>Name</key><string>Dates</string>${items([1, 2, 3, 4, 5, 6])}</dict>`));
    expect(result.issues).toEqual([]);
    const read = result.playlists[0]!.tracks;
    expect(read[0]).toMatchObject({
      release_date: '1997-05-21',
      release_year: 1997,
      disc_number: 1,
      track_number: 4,
      added_at: null,
      metadata: { compilation: true, disc_count: 2, track_count: 12, sort_name: 'Song One', sort_artist: 'Beatles', library_added_at: '2019-03-01T10:00:00Z', itunes_release_date: '1997-05-21T07:00:00Z' },
    });
    expect(read.map((track) => [track.release_date ?? null, track.release_year ?? null])).toEqual([
      ['1997-05-21', 1997],
      ['1997-05', 1997],
      ['1997', 1997],
      [null, 1998],
      [null, 1969],
      [null, null],
    ]);
    expect(read[4]!.metadata.itunes_release_date).toBe('2009-09-09T07:00:00Z');
    expect(read[5]!.metadata).not.toHaveProperty('library_added_at');
    expect(read[5]!.metadata).not.toHaveProperty('compilation');
  });

  it('marks podcasts, movies, music videos, other videos, streams, audiobooks and booklets unsupported with their media type', async () => {
    const result = await parseText(library(TRACKS, `<dict><key>Name</key><string>Mixed</string>${items([3, 4, 5, 6, 8, 9, 10, 11])}</dict>`));
    expect(result.playlists[0]!.tracks.map((track) => [track.media_type, track.is_migratable, track.unsupported_reason?.split(':')[0]])).toEqual([
      ['episode', false, 'podcast episode'],
      ['video', false, 'movie'],
      ['video', false, 'music video'],
      ['unknown', false, 'internet stream'],
      ['video', false, 'video'],
      ['episode', false, 'podcast episode'],
      // No flag marks these; their Kind does.
      ['unknown', false, 'audiobook'],
      ['unknown', false, 'document'],
    ]);
  });

  it('reads the master list as the LIKED_TRACKS library, skips built-in lists and folders with warnings; nested folders give a path; missing tracks are item errors', async () => {
    const playlists = [
      `<dict><key>Master</key><true/><key>Name</key><string>Library</string>${items([1, 2])}</dict>`,
      `<dict><key>Distinguished Kind</key><integer>10</integer><key>Name</key><string>Podcasts</string>${items([3])}</dict>`,
      '<dict><key>Folder</key><true/><key>Name</key><string>Outer</string><key>Playlist Persistent ID</key><string>F1</string></dict>',
      '<dict><key>Folder</key><true/><key>Name</key><string>Inner</string><key>Playlist Persistent ID</key><string>F2</string><key>Parent Persistent ID</key><string>F1</string></dict>',
      `<dict><key>Name</key><string>Deep</string><key>Parent Persistent ID</key><string>F2</string><key>Smart Info</key><data>AQE=</data>${items([1, 404, 2])}</dict>`,
      '<dict><key>Name</key><string>Empty</string></dict>',
      `<dict><key>Name</key><string>Hidden</string><key>Visible</key><false/>${items([1])}</dict>`,
      `<dict><key>Name</key><string>Odd</string><key>Playlist Items</key><array><dict><key>Other</key><string>x</string></dict></array></dict>`,
    ].join('');
    const result = await parseText(library(TRACKS, playlists));
    expect(result.playlists.map((playlist) => [playlist.name, playlist.kind, playlist.metadata, playlist.tracks.map((track) => track.title)])).toEqual([
      ['Library', 'LIKED_TRACKS', { itunes_library: true }, ['Harbour Lights', 'Ünder Glass']],
      ['Deep', 'PLAYLIST', { folder: 'Outer / Inner', smart: true }, ['Harbour Lights', 'Ünder Glass']],
      ['Empty', 'PLAYLIST', {}, []],
      ['Odd', 'PLAYLIST', {}, []],
    ]);
    expect(result.issues.map((issue) => [issue.code, issue.severity])).toEqual([
      ['system_playlist_skipped', 'warning'],
      ['folder_skipped', 'warning'],
      ['folder_skipped', 'warning'],
      ['system_playlist_skipped', 'warning'],
      ['missing_track', 'error'],
      ['invalid_item', 'error'],
    ]);
    expect(result.issues[3]!.message).toContain('hidden list of the app (Visible false)');
    expect(result.issues[4]!.message).toContain('Track ID 404');
    expect(await parseText(library(TRACKS, playlists))).toEqual(result);
  });

  it('reads a library without playlists of its own as the whole library alone; one without any list is reported', async () => {
    const result = await parseText(library(TRACKS, `<dict><key>Master</key><true/><key>Name</key><string>Library</string>${items([1])}</dict>`));
    expect(result.playlists.map((playlist) => [playlist.name, playlist.kind, playlist.tracks.map((track) => track.title)])).toEqual([['Library', 'LIKED_TRACKS', ['Harbour Lights']]]);
    expect(result.issues).toEqual([]);
    const empty = await parseText(library(TRACKS, '<dict><key>Distinguished Kind</key><integer>10</integer><key>Name</key><string>Podcasts</string></dict>'));
    expect(empty.playlists).toEqual([]);
    expect(empty.issues.at(-1)).toMatchObject({ code: 'no_playlists', severity: 'error' });
  });

  it('skips a master list that lists no items, with a warning: it names no songs', async () => {
    const result = await parseText(library(TRACKS, `<dict><key>Master</key><true/><key>Name</key><string>Library</string></dict><dict><key>Name</key><string>Mine</string>${items([2])}</dict>`));
    expect(result.playlists.map((playlist) => [playlist.name, playlist.kind])).toEqual([['Mine', 'PLAYLIST']]);
    expect(result.issues.map((issue) => [issue.code, issue.message])).toEqual([['library_list_skipped', '"Library" is the whole library, but it lists no items; skipped']]);
  });

  it('resolves an item by the track\'s key in "Tracks" when the dict\'s own Track ID differs, as iTunes does', async () => {
    const tracks = [
      '<key>100</key><dict><key>Track ID</key><integer>7</integer><key>Name</key><string>By key</string></dict>',
      '<key>200</key><dict><key>Track ID</key><integer>9</integer><key>Name</key><string>Inner only</string></dict>',
      '<key>7</key><dict><key>Track ID</key><integer>7</integer><key>Name</key><string>Owns seven</string></dict>',
    ].join('');
    const result = await parseText(library(tracks, `<dict><key>Name</key><string>Mixed ids</string>${items([100, 9, 7, 200])}</dict>`));
    expect(result.playlists[0]!.tracks.map((track) => track.title)).toEqual(['By key', 'Inner only', 'Owns seven', 'Inner only']);
    expect(result.issues).toEqual([]);
  });

  it('reads at most 10,000 playlists, with an error, instead of a result the host would refuse', async () => {
    const playlists = Array.from({ length: 10_002 }, (_, index) => `<dict><key>Name</key><string>List ${index}</string>${items([1])}</dict>`).join('');
    const result = await parseText(library(trackDict(1, '<key>Name</key><string>Only</string>'), playlists));
    expect(result.playlists).toHaveLength(10_000);
    expect(result.playlists.at(-1)).toMatchObject({ name: 'List 9999', tracks: [{ title: 'Only' }] });
    expect(result.issues).toEqual([expect.objectContaining({ code: 'too_many_playlists', severity: 'error' })]);
  });

  it('keeps a provider-style location too long for provider_uris as metadata only', async () => {
    const location = `deezer:track:${'7'.repeat(2_000)}`;
    const result = await parseText(library(trackDict(1, `<key>Name</key><string>Long</string><key>Location</key><string>${location}</string>`), `<dict><key>Name</key><string>P</string>${items([1])}</dict>`));
    expect(result.playlists[0]?.tracks[0]).toMatchObject({ title: 'Long', provider_uris: {}, metadata: { location } });
  });

  it('reads libraries of iTunes 11 and older, whose DOCTYPE names "Apple Computer"', async () => {
    const legacy = DOCTYPE.replace('-//Apple//', '-//Apple Computer//');
    const result = await parseText(library(TRACKS, `<dict><key>Name</key><string>Old</string>${items([1])}</dict>`).replace(DOCTYPE, legacy));
    expect(result.playlists.map((playlist) => [playlist.name, playlist.tracks.map((track) => track.title)])).toEqual([['Old', ['Harbour Lights']]]);
    // Still exactly that DOCTYPE: an internal subset or another system id is refused as before.
    await expect(parseText(library(TRACKS, '').replace(DOCTYPE, `${legacy.slice(0, -1)} [<!ENTITY a "aa">]>`))).rejects.toThrow(/DOCTYPE other than/);
    await expect(parseText(library(TRACKS, '').replace(DOCTYPE, legacy.replace('http://www.apple.com/', 'file:///etc/')))).rejects.toThrow(/DOCTYPE other than/);
  });

  it('skips the built-in lists of old libraries, which iTunes marked with a flag before it wrote Distinguished Kind', async () => {
    const builtIn = (flag: string, name: string) => `<dict><key>Name</key><string>${name}</string><key>${flag}</key><true/>${items([1, 2])}</dict>`;
    const playlists = [builtIn('Music', 'Music'), builtIn('Party Shuffle', 'Party Shuffle'), builtIn('Purchased Music', 'Purchased'), builtIn('Podcasts', 'Podcasts'), `<dict><key>Name</key><string>Mine</string><key>Music</key><false/>${items([2])}</dict>`].join('');
    const result = await parseText(library(TRACKS, playlists).replace(DOCTYPE, DOCTYPE.replace('-//Apple//', '-//Apple Computer//')));
    // Without a master list, the Music list is the whole library.
    expect(result.playlists.map((playlist) => [playlist.name, playlist.kind])).toEqual([
      ['Music', 'LIKED_TRACKS'],
      ['Mine', 'PLAYLIST'],
    ]);
    expect(result.issues.map((issue) => [issue.code, issue.message])).toEqual([
      ['system_playlist_skipped', '"Party Shuffle" is a built-in list of the app (marked Party Shuffle), not a playlist of yours; skipped'],
      ['system_playlist_skipped', '"Purchased" is a built-in list of the app (marked Purchased Music), not a playlist of yours; skipped'],
      ['system_playlist_skipped', '"Podcasts" is a built-in list of the app (marked Podcasts), not a playlist of yours; skipped'],
    ]);
  });

  it('reads a library of more than 4,000,000 elements (a 60,000-song library with its playlists has about that many)', { timeout: 60_000 }, async () => {
    // 20,000 tracks of 100 extra keys each: 4,040,000 elements, in 40 MB rather than the 100 MB of real tracks.
    const extra = '<key>Play Count</key><integer>1</integer>'.repeat(100);
    const tracks = Array.from({ length: 20_000 }, (_, index) => trackDict(index + 1, `<key>Name</key><string>Song ${index + 1}</string>${extra}`)).join('');
    const result = await parseText(library(tracks, `<dict><key>Name</key><string>Big</string>${items([1, 20_000])}</dict>`));
    expect(result.playlists[0]!.tracks.map((track) => track.title)).toEqual(['Song 1', 'Song 20000']);
  });

  it('accepts only the Apple plist DOCTYPE: internal subsets, entities, other DOCTYPEs and other documents are refused', async () => {
    const body = '<plist version="1.0"><dict><key>Tracks</key><dict/></dict></plist>';
    await expect(parseText(`${DOCTYPE.slice(0, -1)} [<!ENTITY a "aa"><!ENTITY b "&a;&a;">]>${body.replace('<dict/>', '<dict><key>&b;</key><dict/></dict>')}`)).rejects.toThrow(/DOCTYPE other than/);
    await expect(parseText(`<!DOCTYPE plist SYSTEM "file:///etc/passwd">${body}`)).rejects.toThrow(/DOCTYPE other than/);
    await expect(parseText(`<!DOCTYPE html>${body}`)).rejects.toThrow(/DOCTYPE other than/);
    await expect(parseText(`${DOCTYPE}<plist><string>&nbsp;</string></plist>`)).rejects.toThrow(/undefined entity/);
    await expect(parseText('<playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList/></playlist>')).rejects.toThrow(/not <plist>/);
    await expect(parseText(`${DOCTYPE}<plist version="1.0"><dict><key>Other</key><string>x</string></dict></plist>`)).rejects.toThrow(/neither "Tracks" nor "Playlists"/);
    await expect(parseText(`${DOCTYPE}<plist version="1.0"><dict><string>x</string><string>y</string></dict></plist>`)).rejects.toThrow(/instead of <key>/);
  });

  describe('damaged text', () => {
    const HEAD = `<?xml version="1.0" encoding="UTF-8"?>\n${DOCTYPE}\n<plist version="1.0">\n<dict>\n<key>Tracks</key>\n<dict>\n`;
    /** Track `id` on one line, its name given as raw parts. */
    const trackLine = (id: number, ...name: readonly (string | readonly number[])[]) => [`<key>${id}</key><dict><key>Track ID</key><integer>${id}</integer><key>Artist</key><string>Artist ${id}</string><key>Name</key><string>`, ...name, '</string></dict>\n'];
    const TAIL = (ids: readonly number[]) => `</dict>\n<key>Playlists</key>\n<array><dict><key>Name</key><string>All</string>${items(ids)}</dict></array>\n</dict>\n</plist>\n`;
    const titles = (result: Awaited<ReturnType<typeof parseBytes>>) => result.playlists[0]!.tracks.map((track) => track.title);

    it('reads bytes that are not UTF-8 as U+FFFD with a warning naming the line, the byte and the text, keeping every track', async () => {
      const bytes = bytesOf(
        HEAD,
        ...trackLine(1, 'Caf', [0xe9], ' del Mar'), // windows-1252 é: line 7
        ...trackLine(2, 'Intact ✓ Ünder'),
        ...trackLine(3, 'Cut ', [0xe2, 0x82]), // a sequence cut short just before '<': line 9
        ...trackLine(4, [0xc0, 0xaf], ' overlong ', [0xed, 0xa0, 0x80], ' surrogate ', [0x80], ' stray'), // line 10: one line, several
        TAIL([1, 2, 3, 4]),
      );
      const result = await parseBytes(bytes);
      expect(titles(result)).toEqual(['Caf\uFFFD del Mar', 'Intact ✓ Ünder', 'Cut \uFFFD', '\uFFFD\uFFFD overlong \uFFFD\uFFFD\uFFFD surrogate \uFFFD stray']);
      expect(result.playlists[0]!.tracks.map((track) => track.artist)).toEqual(['Artist 1', 'Artist 2', 'Artist 3', 'Artist 4']);
      expect(result.issues.map(({ line, column, code, severity }) => [line, column, code, severity])).toEqual([
        [7, 126, 'invalid_utf8', 'warning'],
        [9, 127, 'invalid_utf8', 'warning'],
        [10, 123, 'invalid_utf8', 'warning'],
      ]);
      expect(result.issues[0]!.message).toBe('line 7, byte 126 of the line: a byte sequence that is not UTF-8 was read as U+FFFD (\uFFFD): "…ing><key>Name</key><string>Caf\uFFFD del Mar</string></dict>"');
      expect(result.issues[2]!.message).toMatch(/^line 10, byte 123 of the line: 6 byte sequences that are not UTF-8 were read as U\+FFFD/);
      // Deterministic: the same bytes give the same result.
      expect(await parseBytes(bytes)).toEqual(result);
    });

    it('counts lines and bytes from the start of the file when it has a UTF-8 byte order mark', async () => {
      const result = await parseBytes(bytesOf([0xef, 0xbb, 0xbf], HEAD, ...trackLine(1, 'A', [0xff]), TAIL([1])));
      expect(titles(result)).toEqual(['A\uFFFD']);
      expect(result.issues).toEqual([expect.objectContaining({ line: 7, column: 124, code: 'invalid_utf8' })]);
      const firstLine = await parseBytes(bytesOf([0xef, 0xbb, 0xbf], `<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>Tracks</key><dict>`, ...trackLine(1, [0xfe]), TAIL([1])));
      expect(firstLine.issues[0]).toMatchObject({ line: 1, column: 214, code: 'invalid_utf8' });
    });

    it('replaces control characters XML does not allow in text with U+FFFD, a warning per line; tab, LF and CR stay', async () => {
      const result = await parseBytes(
        bytesOf(
          HEAD,
          ...trackLine(1, 'Halo\u001b\u0001'), // line 7: two on one line
          ...trackLine(2, 'Tab\tkept'),
          ...trackLine(3, 'Bell\u0007 <![CDATA[in \u0008 CDATA]]>'), // line 9
          ...trackLine(4, 'Not a char \uffff'), // line 10
          `<!-- a comment holding \u0002 -->\n`, // line 11: ignored, but not refused either
          TAIL([1, 2, 3, 4]),
        ),
      );
      expect(titles(result)).toEqual(['Halo\uFFFD\uFFFD', 'Tab\tkept', 'Bell\uFFFD in \uFFFD CDATA', 'Not a char \uFFFD']);
      expect(result.issues.map(({ line, column, code }) => [line, column, code])).toEqual([
        [7, 127, 'invalid_character'],
        [9, 127, 'invalid_character'],
        [10, 134, 'invalid_character'],
        [11, 24, 'invalid_character'],
      ]);
      expect(result.issues[0]!.message).toBe('line 7, column 127: 2 characters XML does not allow (the first U+001B) were replaced with U+FFFD (\uFFFD): "…ng><key>Name</key><string>Halo\uFFFD\uFFFD</string></dict>"');
    });

    it('lists at most 50 damaged lines of each kind, then one summary, and still reports the library', async () => {
      const ids = Array.from({ length: 60 }, (_, index) => index + 1);
      const lines = ids.flatMap((id) => trackLine(id, `Song ${id} `, [0xe9], ' \u0001'));
      const master = `<dict><key>Master</key><true/><key>Name</key><string>Library</string>${items([1])}</dict>`;
      const result = await parseBytes(bytesOf(HEAD, ...lines, TAIL(ids).replace('<array>', `<array>${master}`)));
      expect(result.playlists[0]).toMatchObject({ name: 'Library', kind: 'LIKED_TRACKS', tracks: [{ title: 'Song 1 \uFFFD \uFFFD' }] });
      expect(result.playlists[1]!.tracks).toHaveLength(60);
      expect(result.playlists[1]!.tracks[59]!.title).toBe('Song 60 \uFFFD \uFFFD');
      const codes = result.issues.map((issue) => issue.code);
      expect(codes.filter((code) => code === 'invalid_utf8')).toHaveLength(51);
      expect(codes.filter((code) => code === 'invalid_character')).toHaveLength(51);
      expect(result.issues.slice(0, 2).map((issue) => [issue.line, issue.code])).toEqual([
        [7, 'invalid_utf8'],
        [7, 'invalid_character'],
      ]);
      expect(result.issues.slice(100).map((issue) => [issue.line, issue.code, issue.message])).toEqual([
        [null, 'invalid_utf8', '10 more lines hold bytes that are not UTF-8 (the last is line 66); each bad sequence was read as U+FFFD'],
        [null, 'invalid_character', '10 more lines hold control characters XML does not allow (the last is line 66); each was replaced with U+FFFD'],
      ]);
    });

    it('still refuses malformed markup, hostile DOCTYPEs and binary files', async () => {
      // A control character in markup (a tag name, an attribute) is malformed structure: refused where it is.
      await expect(parseBytes(bytesOf(HEAD, '<key>1</key><dict><key\u0001>Track ID</key></dict>\n', TAIL([])))).rejects.toThrow(/line 7, column \d+: disallowed character/);
      await expect(parseBytes(bytesOf(HEAD.replace('<plist version="1.0">', '<plist version="1.0\u0001">'), TAIL([])))).rejects.toThrow(/line 3, column \d+: disallowed character/);
      // The DOCTYPE rule is untouched, damage or not.
      await expect(parseBytes(bytesOf(`${DOCTYPE.slice(0, -1)} [<!ENTITY a "\u0001"><!ENTITY b "&a;&a;">]>`, '<plist version="1.0"><dict><key>&b;</key><dict/></dict></plist>'))).rejects.toThrow(/DOCTYPE other than/);
      await expect(parseBytes(bytesOf(DOCTYPE.replace('EN', 'EN\u0001'), '<plist version="1.0"><dict><key>Tracks</key><dict/></dict></plist>'))).rejects.toThrow(/DOCTYPE other than/);
      await expect(parseBytes(bytesOf('<!DOCTYPE plist SYSTEM "file:///etc/passwd">', [0xff], '<plist><dict><key>Tracks</key><dict/></dict></plist>'))).rejects.toThrow(/DOCTYPE other than/);
      await expect(parseBytes(bytesOf(HEAD, '<key>1</key><dict><key>Name</key><string>&ent;', [0xe9], '</string></dict>\n', TAIL([])))).rejects.toThrow(/undefined entity/);
      // Not text at all: a binary property list, and binary bytes, are refused as before.
      await expect(parseBytes(bytesOf('bplist00', [0xd1, 0x01, 0x02, 0x55, 0x00, 0x08, 0x0b]))).rejects.toThrow(/binary property list/);
      const noise = Uint8Array.from({ length: 4_096 }, (_, index) => (index * 7919 + 13) % 256);
      await expect(parseBytes(noise)).rejects.toThrow(/the file is not text: it looks like a binary file \(line \d+, byte \d+ of the line, is the first that is not UTF-8\)/);
    });

    it('reads a library that declares another encoding by its declaration, without warnings', async () => {
      const latin1 = bytesOf(`<?xml version="1.0" encoding="ISO-8859-1"?>\n${DOCTYPE}\n<plist version="1.0">\n<dict>\n<key>Tracks</key>\n<dict>\n`, ...trackLine(1, 'Caf', [0xe9]), TAIL([1]));
      const result = await parseBytes(latin1);
      expect(titles(result)).toEqual(['Café']);
      expect(result.issues).toEqual([]);
    });
  });
});
