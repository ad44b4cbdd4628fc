import { describe, expect, it } from 'vitest';
import { row, v1, parse } from './txt-parser-test-support.ts';

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
