import { formatKit } from '@opl/plugin-sdk';
import { FORMAT_OPERATIONS } from '@opl/plugin-sdk/schemas';
import { describe, expect, it } from 'vitest';
import { MAGIC_LINE, SCHEMA_LINE, TXT_V1_COLUMNS, type TxtColumn } from './txt-columns.ts';
import { parseTxt } from './txt-parser.ts';

const HEADER = TXT_V1_COLUMNS.join('\t');

/** A v1 row from named cells (unnamed ones empty), as the serializer would lay it out. */
function row(cells: Partial<Record<TxtColumn, string>>): string {
  return TXT_V1_COLUMNS.map((column) => cells[column] ?? '').join('\t');
}

function v1(...rows: string[]): string {
  return [MAGIC_LINE, SCHEMA_LINE, HEADER, ...rows, ''].join('\n');
}

/** Parses and checks the result against the contract the host enforces. */
function parse(text: string, filename: string | null = null) {
  const result = parseTxt(text, filename);
  return FORMAT_OPERATIONS.parse.output.parse(result);
}

describe('plain lists', () => {
  it('reads Artist - Title, en/em dash, bare titles; skips comments and blank lines; keeps duplicates', () => {
    const text = ['# my favourites', '', 'Daft Punk - One More Time', '  Кино – Группа крови  ', 'Only A Title', '# another comment', 'AC-DC', 'Daft Punk - One More Time', 'A — B - Live', ''].join('\r\n');
    const { playlists, issues } = parse(text, 'C:\\Users\\me\\Road Trip.txt');
    expect(issues).toEqual([]);
    expect(playlists).toHaveLength(1);
    expect(playlists[0]!.name).toBe('Road Trip');
    expect(playlists[0]!.tracks.map((track) => [track.artist, track.title, track.position])).toEqual([
      ['Daft Punk', 'One More Time', 0],
      ['Кино', 'Группа крови', 1],
      ['', 'Only A Title', 2],
      ['', 'AC-DC', 3],
      ['Daft Punk', 'One More Time', 4],
      ['A', 'B - Live', 5],
    ]);
  });

  it('reads a list copied from a web page as "Title by Artist", split at the last " by "', () => {
    const text = ['My road trip', '1. Bohemian Rhapsody - Remastered 2011 by Queen', '2. Stand by Me by Ben E. King', 'Halo by Beyoncé', '• Jóga BY Björk', 'Halo by Beyoncé', ''].join('\n');
    const { playlists, issues } = parse(text);
    expect(issues).toEqual([]);
    expect(playlists[0]!.tracks.map((track) => [track.artist, track.title])).toEqual([
      // A page title copied above the songs stays a line of its own.
      ['', 'My road trip'],
      ['Queen', 'Bohemian Rhapsody - Remastered 2011'],
      ['Ben E. King', 'Stand by Me'],
      ['Beyoncé', 'Halo'],
      ['Björk', 'Jóga'],
      ['Beyoncé', 'Halo'],
    ]);
  });

  it('never splits titles at " by " in an Artist - Title list or a short list of titles', () => {
    const dashed = parse('Ben E. King - Stand by Me\nMotörhead - Killed by Death\nGorillaz - Stylo by Night\n');
    expect(dashed.playlists[0]!.tracks.map((track) => [track.artist, track.title])).toEqual([
      ['Ben E. King', 'Stand by Me'],
      ['Motörhead', 'Killed by Death'],
      ['Gorillaz', 'Stylo by Night'],
    ]);
    const titles = parse('Stand by Me\nKilled by Death\n');
    expect(titles.playlists[0]!.tracks.map((track) => [track.artist, track.title])).toEqual([
      ['', 'Stand by Me'],
      ['', 'Killed by Death'],
    ]);
  });

  it('refuses a web page or an XML document saved as .txt instead of reading its markup as titles', () => {
    for (const text of ['\n<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n<body><h1>Not Found</h1></body></html>\n', '<?xml version="1.0"?>\n<playlist version="1"/>\n', '<HTML>\n<BODY>x</BODY>\n']) {
      const { playlists, issues } = parse(text, 'list.txt');
      expect(playlists).toEqual([]);
      expect(issues).toMatchObject([{ code: 'not_txt', severity: 'error' }]);
    }
    // A title may start with "<".
    expect(parse('<3 - Love Song\n').playlists[0]!.tracks).toMatchObject([{ artist: '<3', title: 'Love Song' }]);
  });

  it('keeps a leading apostrophe typed by hand', () => {
    expect(parse("'Til Tuesday - Voices Carry").playlists[0]!.tracks[0]).toMatchObject({ artist: "'Til Tuesday", title: 'Voices Carry' });
  });

  it('returns one empty playlist with a warning when there are no track lines', () => {
    const { playlists, issues } = parse('# nothing\n\n', 'empty.txt');
    expect(playlists).toEqual([expect.objectContaining({ name: 'empty', tracks: [] })]);
    expect(issues).toEqual([expect.objectContaining({ code: 'no_tracks', severity: 'warning' })]);
  });

  it('cuts over-long titles to the model bound with a line-level warning', () => {
    const { playlists, issues } = parse(`ok\nArtist - ${'x'.repeat(2_500)}`);
    expect(playlists[0]!.tracks[1]!.title).toHaveLength(2_000);
    expect(issues).toEqual([expect.objectContaining({ line: 2, code: 'value_truncated', severity: 'warning' })]);
  });

  it('reads a line that is just a Spotify or TIDAL track link (or a track URI) as that track, title unknown', () => {
    const text = [
      'Daft Punk - One More Time',
      'https://open.spotify.com/track/0DiWol3AO6WpXZgp0goxAV?si=1a2b3c',
      '  https://open.spotify.com/intl-de/track/1pKYYY0dkg23sQQXi0Q5zN  ',
      'https://tidal.com/browse/track/1234',
      'https://listen.tidal.com/album/111/track/9012',
      'spotify:track:4uLU6hMCjMI75M1A2tKUQC',
      'https://www.youtube.com/watch?v=u7K72X4eo_s',
      'intro:outro',
    ].join('\n');
    const { playlists, issues } = parse(text, 'links.txt');
    expect(issues).toEqual([]);
    expect(playlists[0]!.tracks.map((track) => [track.artist, track.title, track.provider_uris, track.position])).toEqual([
      ['Daft Punk', 'One More Time', {}, 0],
      ['', '', { spotify: 'spotify:track:0DiWol3AO6WpXZgp0goxAV' }, 1],
      ['', '', { spotify: 'spotify:track:1pKYYY0dkg23sQQXi0Q5zN' }, 2],
      ['', '', { tidal: 'tidal:track:1234' }, 3],
      ['', '', { tidal: 'tidal:track:9012' }, 4],
      ['', '', { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, 5],
      // Another service's song page: the song by its link (see below).
      ['', '', {}, 6],
      // Not a link: a title, as typed.
      ['', 'intro:outro', {}, 7],
    ]);
  });

  it('keeps a line that is a link naming no song, not migrated, with why: albums, playlists, episodes, other addresses', () => {
    const text = [
      'https://open.spotify.com/album/4m2880jivSbbyEGAKfITCa?si=x',
      'spotify:playlist:37i9dQZF1DXcBWIGoYBM5M',
      'https://tidal.com/browse/artist/3346/u',
      'https://open.spotify.com/episode/512ojhOuo1ktJprKbVcKyQ',
      'https://www.youtube.com/channel/UCmXp4zzSkYHqnyq1QXu5gUw',
      'http://radio.example:8000/stream.m3u',
      'rtsp://radio.example/live',
      'Daft Punk - One More Time',
    ].join('\n');
    const { playlists, issues } = parse(text, 'links.txt');
    expect(issues).toEqual([]);
    const shown = playlists[0]!.tracks.map((track) => ({ title: track.title, location: track.metadata?.['location'] ?? null, uris: track.provider_uris ?? {}, media: track.media_type, migratable: track.is_migratable, reason: track.unsupported_reason }));
    expect(shown).toEqual([
      { title: '', location: 'https://open.spotify.com/album/4m2880jivSbbyEGAKfITCa?si=x', uris: {}, media: 'unknown', migratable: false, reason: 'album link: the location names an album, not a song' },
      { title: '', location: 'spotify:playlist:37i9dQZF1DXcBWIGoYBM5M', uris: {}, media: 'unknown', migratable: false, reason: 'playlist link: the location names another playlist, not a song' },
      { title: '', location: 'https://tidal.com/browse/artist/3346/u', uris: {}, media: 'unknown', migratable: false, reason: 'artist link: the location names an artist, not a song' },
      // An episode keeps its URI, as every format keeps one.
      { title: '', location: null, uris: { spotify: 'spotify:episode:512ojhOuo1ktJprKbVcKyQ' }, media: 'episode', migratable: false, reason: 'podcast episode: only music tracks are migrated' },
      { title: '', location: 'https://www.youtube.com/channel/UCmXp4zzSkYHqnyq1QXu5gUw', uris: {}, media: 'unknown', migratable: false, reason: 'web address: the entry names no artist and title, so there is no song to search for' },
      { title: '', location: 'http://radio.example:8000/stream.m3u', uris: {}, media: 'unknown', migratable: false, reason: 'playlist link: the address names another playlist or a stream, not a song' },
      { title: '', location: 'rtsp://radio.example/live', uris: {}, media: 'unknown', migratable: false, reason: 'internet stream: a radio or stream address, not a song' },
      { title: 'One More Time', location: null, uris: {}, media: 'track', migratable: true, reason: null },
    ]);
  });
});

describe('song pages of other services', () => {
  it('reads a line that is a Deezer, YouTube, YouTube Music or Apple Music song link as that song, by its link, migratable', () => {
    const links = [
      'https://www.deezer.com/fr/track/3135556',
      'https://music.youtube.com/watch?v=FGBhQbmPwH8&si=Ab',
      'https://youtu.be/u7K72X4eo_s',
      'https://music.apple.com/us/album/discovery/697194953?i=697195462',
    ];
    const { playlists, issues } = parse(['# pasted from four apps', ...links, 'https://www.deezer.com/album/302127'].join('\n'), 'links.txt');
    expect(issues).toEqual([]);
    const shown = playlists[0]!.tracks.map((track) => ({ title: track.title, artist: track.artist, location: track.metadata?.['location'], uris: track.provider_uris ?? {}, migratable: track.is_migratable ?? true, position: track.position }));
    expect(shown).toEqual([
      ...links.map((location, position) => ({ title: '', artist: '', location, uris: {}, migratable: true, position })),
      // The same service's album page names no song.
      { title: '', artist: '', location: 'https://www.deezer.com/album/302127', uris: {}, migratable: false, position: 4 },
    ]);
  });
});

describe('tabular text (a header row of column names, tab-separated)', () => {
  it('reads an Excel "Text (Tab delimited)" sheet through the track table columns, one playlist named after the file', () => {
    const text = ['Title\tArtist\tAlbum\tDuration', 'One More Time\tDaft Punk\tDiscovery\t5:20', 'Jóga\tBjörk\tHomogenic\t305', ''].join('\r\n');
    const { playlists, issues } = parse(text, 'C:\\Users\\me\\Excel export.txt');
    expect(issues).toEqual([]);
    expect(playlists).toHaveLength(1);
    expect(playlists[0]!.name).toBe('Excel export');
    expect(playlists[0]!.tracks.map((track) => [track.title, track.artist, track.album, track.duration_s, track.position])).toEqual([
      ['One More Time', 'Daft Punk', 'Discovery', 320, 0],
      ['Jóga', 'Björk', 'Homogenic', 305, 1],
    ]);
  });

  it('matches columns in any order and case, reads links, ISRCs and cells Excel wrapped in quotes', () => {
    const text = [
      '# exported from my sheet',
      'ARTIST\tSong\tISRC\tLink\tNotes',
      '"Tyler, The Creator"\tSee You Again\tusqx91701278\thttps://open.spotify.com/track/5hVghJ4KaYES3BFUATCYn0?si=x\t"said ""wow"""',
      '#1 Crush\tGarbage',
      '"Heroes"\tDavid Bowie\t\t\t',
    ].join('\n');
    const { playlists, issues } = parse(text);
    expect(playlists[0]!.tracks.map((track) => [track.artist, track.title, track.isrc, track.provider_uris])).toEqual([
      ['Tyler, The Creator', 'See You Again', 'USQX91701278', { spotify: 'spotify:track:5hVghJ4KaYES3BFUATCYn0' }],
      // A row is a row even when its first cell starts with "#": only a line without tabs is a comment.
      ['#1 Crush', 'Garbage', null, {}],
      // A value that merely sits in quotes is not Excel's wrapping: kept as written.
      ['"Heroes"', 'David Bowie', null, {}],
    ]);
    expect(issues).toMatchObject([{ line: 4, code: 'too_few_cells', severity: 'warning', column: 3 }]);
  });

  it('reports rows with the wrong number of cells by line and keeps their neighbours', () => {
    const text = ['Title\tArtist\tDuration', 'First\tA\t3:00', 'Shifted\tB\t\textra', 'Short\tC', '\t\t', 'Bad duration\tD\tlong', '\tE\t', 'Last\tF\t1:00'].join('\n');
    const { playlists, issues } = parse(text, 'ragged.txt');
    expect(playlists[0]!.tracks.map((track) => [track.title, track.artist, track.duration_s])).toEqual([
      ['First', 'A', 180],
      ['Short', 'C', null],
      ['Bad duration', 'D', null],
      ['', 'E', null],
      ['Last', 'F', 60],
    ]);
    expect(issues.map((issue) => [issue.line, issue.code, issue.severity])).toEqual([
      [3, 'too_many_cells', 'error'],
      [4, 'too_few_cells', 'warning'],
      [6, 'invalid_value', 'warning'],
    ]);
  });

  it('reads a Duration column of milliseconds as milliseconds, with one warning', () => {
    const { playlists, issues } = parse('Title\tDuration\nA\t320357\nB\t25000\n');
    expect(playlists[0]!.tracks.map((track) => track.duration_s)).toEqual([320.357, 25]);
    expect(issues).toMatchObject([{ line: 2, code: 'duration_in_milliseconds', severity: 'warning', column: 2 }]);
  });

  it('stays a plain list when the first line has tabs but names no title column, and v1 when it names schema_version', () => {
    const plain = parse('Daft Punk - One More Time\t(live)\nQueen - Bohemian Rhapsody\n');
    expect(plain.playlists[0]!.tracks.map((track) => [track.artist, track.title])).toEqual([
      ['Daft Punk', 'One More Time\t(live)'],
      ['Queen', 'Bohemian Rhapsody'],
    ]);
    const withV1Header = parse(v1(row({ schema_version: '1', playlist_name: 'P', order: '1', title: 'T', artist: 'A' })));
    expect(withV1Header.playlists[0]).toMatchObject({ name: 'P', tracks: [{ title: 'T', artist: 'A' }] });
  });

  it('reads a header without a title column by its link column: tracks by link, like CSV', () => {
    const links = parse('Artist\tAlbum\tURL\nDaft Punk\tDiscovery\thttps://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC\nQueen\tA Night at the Opera\thttps://tidal.com/browse/track/12345678\n', 'links.txt');
    expect(links.issues).toEqual([]);
    expect(links.playlists).toMatchObject([
      {
        name: 'links',
        tracks: [
          { title: '', artist: 'Daft Punk', album: 'Discovery', provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' } },
          { title: '', artist: 'Queen', album: 'A Night at the Opera', provider_uris: { tidal: 'tidal:track:12345678' } },
        ],
      },
    ]);
    const uris = parse('Spotify URI\tArtist Name\nspotify:track:4uLU6hMCjMI75M1A2tKUQC\tDaft Punk\n');
    expect(uris.playlists[0]!.tracks).toMatchObject([{ title: '', artist: 'Daft Punk', provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' } }]);
  });

  it('reads a header whose first cell is # (Rekordbox) and a fully quoted header', () => {
    const rekordbox = parse('#\tArtwork\tTrack Title\tArtist\tAlbum\tBPM\tTime\tKey\r\n1\t\tOne More Time\tDaft Punk\tDiscovery\t123.00\t05:20\t4A\r\n2\t\tAmber\t311\tTransistor\t90.00\t03:28\t5A\r\n');
    expect(rekordbox.issues).toEqual([]);
    expect(rekordbox.playlists[0]!.tracks.map((track) => [track.title, track.artist, track.album, track.duration_s])).toEqual([
      ['One More Time', 'Daft Punk', 'Discovery', 320],
      ['Amber', '311', 'Transistor', 208],
    ]);
    const commented = parse('# exported from my app\n#\tTitle\tArtist\n1\tAmber\t311\n');
    expect(commented.playlists[0]!.tracks).toMatchObject([{ title: 'Amber', artist: '311' }]);
    const quoted = parse('"Title"\t"Artist"\t"Album"\n"One More Time"\t"Daft Punk"\t"Say ""hi"""\nAmber\t"311"\t\n');
    expect(quoted.issues).toEqual([]);
    expect(quoted.playlists[0]!.tracks.map((track) => [track.title, track.artist, track.album])).toEqual([
      ['One More Time', 'Daft Punk', 'Say "hi"'],
      ['Amber', '311', null],
    ]);
  });

  it('refuses a header naming known columns but neither a title nor a link column, as CSV does', () => {
    const { playlists, issues } = parse('Artist\tAlbum\nDaft Punk\tDiscovery\n');
    expect(playlists).toEqual([]);
    expect(issues).toMatchObject([{ line: 1, code: 'unrecognized_columns', severity: 'error' }]);
  });

  it('keeps a plain list whose first line holds a tab but names no columns', () => {
    const { playlists, issues } = parse('Daft Punk - One More Time\t(Live)\nQueen - Bohemian Rhapsody\nABBA - Waterloo\n');
    expect(issues).toEqual([]);
    expect(playlists[0]!.tracks.map((track) => [track.artist, track.title])).toEqual([
      ['Daft Punk', 'One More Time\t(Live)'],
      ['Queen', 'Bohemian Rhapsody'],
      ['ABBA', 'Waterloo'],
    ]);
  });

  it('joins a cell Excel wrapped around line breaks (Alt+Enter) back into its row instead of reading its pieces as tracks', () => {
    const text = [
      'Track name\tArtist name\tAlbum\tDuration',
      'Halo\tBeyoncé\tI Am... Sasha Fierce\t4:21',
      '"Bohemian Rhapsody',
      '(Remastered ""2011"")"\tQueen\t"A Night at the Opera',
      '',
      'Deluxe"\t5:55',
      'Jóga\tBjörk\tHomogenic\t5:05',
      '',
    ].join('\r\n');
    const { playlists, issues } = parse(text, 'sheet.txt');
    expect(issues).toEqual([]);
    expect(playlists[0]!.tracks.map((track) => [track.position, track.title, track.artist, track.album, track.duration_s])).toEqual([
      [0, 'Halo', 'Beyoncé', 'I Am... Sasha Fierce', 261],
      [1, 'Bohemian Rhapsody\n(Remastered "2011")', 'Queen', 'A Night at the Opera\n\nDeluxe', 355],
      [2, 'Jóga', 'Björk', 'Homogenic', 305],
    ]);
  });

  it('reads a quote typed by hand that never closes as text, without swallowing the rows after it', () => {
    const { playlists, issues } = parse('Title\tArtist\n"Heroes\tDavid Bowie\nFame\tDavid Bowie\n"Heroes" (Live)\tDavid Bowie\n"Changes\tDavid Bowie\n"Life on Mars?"\tDavid Bowie\n');
    expect(issues).toEqual([]);
    expect(playlists[0]!.tracks.map((track) => [track.title, track.artist])).toEqual([
      ['"Heroes', 'David Bowie'],
      ['Fame', 'David Bowie'],
      ['"Heroes" (Live)', 'David Bowie'],
      ['"Changes', 'David Bowie'],
      ['"Life on Mars?"', 'David Bowie'],
    ]);
  });

  it('keeps rows that end in empty cells after the last column (trailing tabs): nothing is shifted', () => {
    const { playlists, issues } = parse('Title\tArtist\nHalo\tBeyoncé\t\nJóga\tBjörk\t \t\nShifted\tRow\textra\n');
    expect(playlists[0]!.tracks.map((track) => [track.title, track.artist])).toEqual([
      ['Halo', 'Beyoncé'],
      ['Jóga', 'Björk'],
    ]);
    expect(issues).toMatchObject([{ line: 4, code: 'too_many_cells', severity: 'error' }]);
    const v1Rows = parse(v1(`${row({ schema_version: '1', playlist_name: 'P', order: '1', title: 'T', artist: 'A' })}\t\t`));
    expect(v1Rows.issues).toEqual([]);
    expect(v1Rows.playlists[0]!.tracks).toMatchObject([{ title: 'T', artist: 'A' }]);
  });

  it('warns about a header without track rows', () => {
    const { playlists, issues } = parse('Title\tArtist\n\n', 'empty.txt');
    expect(playlists).toEqual([expect.objectContaining({ name: 'empty', tracks: [] })]);
    expect(issues).toEqual([expect.objectContaining({ code: 'no_tracks', severity: 'warning' })]);
  });
});

describe('TXT v1', () => {
  it('strips the formula guard on read', () => {
    const { playlists } = parse(v1(row({ schema_version: '1', playlist_name: "'=cmd", order: '1', title: "'-1", artist: "'Til Tuesday", album: "''=x" })));
    expect(playlists[0]!.name).toBe('=cmd');
    expect(playlists[0]!.tracks[0]).toMatchObject({ title: '-1', artist: "'Til Tuesday", album: "'=x" });
  });

  it('reports malformed rows by line and keeps their valid neighbours', () => {
    const text = v1(
      row({ schema_version: '1', playlist_name: 'P', order: '1', title: 'first', artist: 'a' }),
      `${row({ schema_version: '1', playlist_name: 'P', order: '2', title: 'too wide' })}\textra`,
      row({ schema_version: '7', playlist_name: 'P', order: '2', title: 'wrong version' }),
      row({ schema_version: '1', playlist_name: 'P', order: 'two', title: 'bad order' }),
      row({ schema_version: '1', playlist_name: 'P', title: 'no order' }),
      row({ schema_version: '1', playlist_name: 'P', order: '2', title: 'second', artist: 'b', duration_seconds: 'long', added_at: 'yesterday', media_type: 'vinyl' }),
      'just some text',
      row({ schema_version: '1', playlist_name: 'P', order: '3', title: 'third', artist: 'c' }),
    );
    const { playlists, issues } = parse(text);
    expect(playlists).toHaveLength(1);
    expect(playlists[0]!.tracks.map((track) => track.title)).toEqual(['first', 'second', 'third']);
    expect(playlists[0]!.tracks[1]).toMatchObject({ duration_s: null, added_at: null, media_type: 'unknown' });
    expect(issues.map((issue) => [issue.line, issue.code, issue.severity])).toEqual([
      [5, 'too_many_cells', 'error'],
      [6, 'invalid_schema_version', 'error'],
      [7, 'invalid_order', 'error'],
      [8, 'missing_order', 'error'],
      [9, 'invalid_value', 'warning'],
      [9, 'invalid_value', 'warning'],
      [9, 'invalid_value', 'warning'],
      [10, 'invalid_schema_version', 'error'],
    ]);
    expect(issues.find((issue) => issue.line === 9 && issue.message.includes('duration'))?.column).toBe(17);
  });

  it('bounds the issue list and summarises the rest', () => {
    const bad = Array.from({ length: 500 }, () => row({ schema_version: '1', playlist_name: 'P', order: 'x' }));
    const { playlists, issues } = parse(v1(row({ schema_version: '1', playlist_name: 'P', order: '1', title: 'kept' }), ...bad));
    expect(playlists[0]!.tracks.map((track) => track.title)).toEqual(['kept']);
    expect(issues).toHaveLength(formatKit.MAX_LISTED_ISSUES + 1);
    expect(issues.at(-1)).toMatchObject({ code: 'too_many_issues', line: null, message: expect.stringContaining('300 more issues') });
  });

  it('rejects an unknown schema version in the comment, the magic line or the first row', () => {
    const rows = [HEADER, row({ schema_version: '1', playlist_name: 'P', order: '1', title: 't' })];
    for (const text of [
      ['# Open Playlist TXT v1', '# schema_version=2; future', ...rows].join('\n'),
      ['# Open Playlist TXT v2', ...rows].join('\n'),
      [HEADER, row({ schema_version: '2', playlist_name: 'P', order: '1', title: 't' })].join('\n'),
    ]) {
      const { playlists, issues } = parse(text);
      expect(playlists).toEqual([]);
      expect(issues).toEqual([expect.objectContaining({ code: 'unsupported_schema_version', severity: 'error', message: expect.stringContaining('not supported') })]);
    }
  });

  it('recognises a v1 file by its header row alone and tolerates reordered and extra columns', () => {
    const columns = ['title', 'note', ...TXT_V1_COLUMNS.filter((column) => column !== 'title')];
    const cells: Record<string, string> = { schema_version: '1', playlist_name: 'P', order: '1', title: 'T', artist: 'A', note: 'n' };
    const { playlists, issues } = parse(`${columns.join('\t')}\n${columns.map((column) => cells[column] ?? '').join('\t')}\n`);
    expect(playlists[0]!.tracks[0]).toMatchObject({ title: 'T', artist: 'A' });
    expect(issues).toEqual([expect.objectContaining({ line: 1, code: 'unknown_columns', severity: 'warning' })]);
  });

  it('rejects a header missing v1 columns or naming one twice', () => {
    const missing = parse(['# Open Playlist TXT v1', 'schema_version\tplaylist_name\ttitle', '1\tP\tT'].join('\n'));
    expect(missing.playlists).toEqual([]);
    expect(missing.issues).toEqual([expect.objectContaining({ line: 2, code: 'missing_columns', message: expect.stringContaining('playlist_id') })]);
    const twice = parse([HEADER + '\ttitle', row({ schema_version: '1', playlist_name: 'P', order: '1' })].join('\n'));
    expect(twice.issues).toEqual([expect.objectContaining({ code: 'duplicate_column', column: 24 })]);
  });

  it('reports a v1 comment without a header', () => {
    expect(parse(`${MAGIC_LINE}\n${SCHEMA_LINE}\n`).issues).toEqual([expect.objectContaining({ code: 'missing_header' })]);
  });

  it('accepts rows whose trailing empty cells were stripped', () => {
    const short = ['1', '', 'P', '', '', '', '', '', '', '1', '', '', '', 'T', 'A'].join('\t');
    const { playlists, issues } = parse(v1(short));
    expect(issues).toEqual([]);
    expect(playlists[0]!.tracks[0]).toMatchObject({ title: 'T', artist: 'A', media_type: 'track' });
  });

  it('splits playlists on changed playlist columns, restarted order and metadata-only rows', () => {
    const p = (name: string, order: string, title = 't') => row({ schema_version: '1', playlist_name: name, order, title });
    const { playlists } = parse(v1(p('A', '1'), p('A', '2'), p('A', '1'), p('B', '1'), row({ schema_version: '1', playlist_name: 'B' }), p('B', '1')));
    expect(playlists.map((playlist) => [playlist.name, playlist.tracks.length])).toEqual([
      ['A', 2],
      ['A', 1],
      ['B', 1],
      ['B', 0],
      ['B', 1],
    ]);
  });

  it('maps source_uri back to provider_uris, or to metadata for a web URL', () => {
    const { playlists } = parse(
      v1(
        row({ schema_version: '1', playlist_name: 'P', order: '1', title: 'a', source_uri: 'spotify:track:abc' }),
        row({ schema_version: '1', playlist_name: 'P', order: '2', title: 'b', source_uri: 'https://music.example/t/1' }),
      ),
    );
    expect(playlists[0]!.tracks[0]).toMatchObject({ provider_uris: { spotify: 'spotify:track:abc' }, metadata: {} });
    expect(playlists[0]!.tracks[1]).toMatchObject({ provider_uris: {}, metadata: { source_uri: 'https://music.example/t/1' } });
  });

  it('reads Spotify and TIDAL links in source_uri as provider URIs; a local-file URI stays in metadata', () => {
    const { playlists, issues } = parse(
      v1(
        row({ schema_version: '1', playlist_name: 'P', order: '1', title: 'a', source_uri: 'https://open.spotify.com/track/0DiWol3AO6WpXZgp0goxAV?si=x' }),
        row({ schema_version: '1', playlist_name: 'P', order: '2', title: 'b', source_uri: 'https://listen.tidal.com/track/5678' }),
        row({ schema_version: '1', playlist_name: 'P', order: '3', title: 'c', source_uri: 'spotify:local:Me::Local:200', media_type: 'local_file', unsupported_reason: 'local file' }),
      ),
    );
    expect(issues).toEqual([]);
    expect(playlists[0]!.tracks.map((track) => [track.provider_uris, track.metadata, track.is_local])).toEqual([
      [{ spotify: 'spotify:track:0DiWol3AO6WpXZgp0goxAV' }, {}, false],
      [{ tidal: 'tidal:track:5678' }, {}, false],
      [{}, { source_uri: 'spotify:local:Me::Local:200' }, true],
    ]);
  });

  it('normalises hyphenated and lowercase ISRCs', () => {
    const { playlists, issues } = parse(
      v1(
        row({ schema_version: '1', playlist_name: 'P', order: '1', title: 'a', isrc: 'GB-AAN-97-00044' }),
        row({ schema_version: '1', playlist_name: 'P', order: '2', title: 'b', isrc: ' usrc17607839 ' }),
        row({ schema_version: '1', playlist_name: 'P', order: '3', title: 'c', isrc: 'legacy-code' }),
      ),
    );
    expect(issues).toEqual([]);
    expect(playlists[0]!.tracks.map((track) => track.isrc)).toEqual(['GBAAN9700044', 'USRC17607839', 'legacy-code']);
  });

  it('reads a file re-saved by Excel back to the values written: wrapped cells, doubled quotes, the formula guard, CRLF', () => {
    const name = `"'=Road trip, ""best"" of"`;
    const text = [
      MAGIC_LINE,
      SCHEMA_LINE,
      HEADER,
      row({ schema_version: '1', playlist_name: name, order: '1', title: '"Heroes"', artist: '"Tyler, The Creator"', album: `"'=SUM(A1), ""x"""` }),
      row({ schema_version: '1', playlist_name: name, order: '2', title: "'-5 Degrees", artist: "'Til Tuesday", album: "''=cmd" }),
      '',
    ].join('\r\n');
    const { playlists, issues } = parse(text);
    expect(issues).toEqual([]);
    expect(playlists).toHaveLength(1);
    expect(playlists[0]!.name).toBe('=Road trip, "best" of');
    expect(playlists[0]!.tracks.map((track) => [track.title, track.artist, track.album])).toEqual([
      ['"Heroes"', 'Tyler, The Creator', '=SUM(A1), "x"'],
      ['-5 Degrees', "'Til Tuesday", "'=cmd"],
    ]);
  });

  it('drops values the model would refuse with warnings instead of failing the file', () => {
    const { playlists, issues } = parse(
      v1(
        row({
          schema_version: '1',
          playlist_name: 'P',
          playlist_kind: 'FOLDER',
          playlist_created_at: '2024-02-30T00:00:00Z',
          order: '1',
          title: 't',
          isrc: 'X'.repeat(40),
          source_position: '1.5',
        }),
      ),
    );
    expect(playlists[0]).toMatchObject({ kind: 'PLAYLIST', created_at: null });
    expect(playlists[0]!.tracks[0]).toMatchObject({ isrc: null, source_position: null });
    expect(issues.map((issue) => issue.code)).toEqual(['invalid_value', 'invalid_value', 'invalid_value', 'invalid_value']);
  });
});
