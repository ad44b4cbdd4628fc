import { describe, expect, it } from 'vitest';
import { encoder, parse, V1_HEADER } from './csv-test-support.ts';

describe('opl.format.csv library exports of several playlists and files that are no CSV', () => {
  it('reads a TuneMyMusic export: one playlist per "Playlist name", in file order, and its "Spotify - id" as the track URI', async () => {
    const text = [
      'Track name,Artist name,Album,Playlist name,Type,ISRC,Spotify - id',
      '"Bohemian Rhapsody","Queen","A Night at the Opera","Road trip","Playlist","GBUM71029604","4u7EnebtmKWzUH433cf5Qv"',
      '"Halo","Beyoncé","I Am... Sasha Fierce","Chill","Playlist","USSM10804554","4JehYebiI9JE8sR8MisGVb"',
      '"One More Time","Daft Punk","Discovery","Road trip","Playlist","GBDUW0000053",""',
      '"Bohemian Rhapsody","Queen","A Night at the Opera","Road trip","Playlist","GBUM71029604","4u7EnebtmKWzUH433cf5Qv"',
      '"Koinu no Carnival -From ""Minute Waltz""-","EHAMIC","""Classicaloid"" Chopin Musik","Liked Songs","Favorite","JPG531701107","3OP9la2QTA5artehqjFJCp"',
    ].join('\n');
    const { playlists, issues } = await parse(encoder.encode(text), 'My Spotify Library.csv');
    expect(issues).toEqual([]);
    expect(playlists.map((playlist) => [playlist.name, playlist.tracks.map((track) => [track.position, track.title, track.provider_uris])])).toEqual([
      [
        'Road trip',
        [
          [0, 'Bohemian Rhapsody', { spotify: 'spotify:track:4u7EnebtmKWzUH433cf5Qv' }],
          [1, 'One More Time', {}],
          // A duplicate stays, in place.
          [2, 'Bohemian Rhapsody', { spotify: 'spotify:track:4u7EnebtmKWzUH433cf5Qv' }],
        ],
      ],
      ['Chill', [[0, 'Halo', { spotify: 'spotify:track:4JehYebiI9JE8sR8MisGVb' }]]],
      ['Liked Songs', [[0, 'Koinu no Carnival -From "Minute Waltz"-', { spotify: 'spotify:track:3OP9la2QTA5artehqjFJCp' }]]],
    ]);
    expect(playlists[1]!.tracks[0]).toMatchObject({ artist: 'Beyoncé', album: 'I Am... Sasha Fierce', isrc: 'USSM10804554' });
  });

  it('names the rows without a playlist name after the file, and keeps a one-playlist list with its own name', async () => {
    const { playlists } = await parse(encoder.encode('Title,Artist,Playlist\nA,X,\nB,Y,Mix\nC,Z,\n'), 'export.csv');
    expect(playlists.map((playlist) => [playlist.name, playlist.tracks.map((track) => track.title)])).toEqual([
      ['export', ['A', 'C']],
      ['Mix', ['B']],
    ]);
  });

  it('reads a Google Takeout YouTube playlist (the layout until 2023): its name and description from its row, each video by its link', async () => {
    const text = [
      'Playlist Id,Channel Id,Time Created,Time Updated,Title,Description,Visibility',
      'PLx1y2z3,UCabc,2020-01-01 10:00:00 UTC,2020-02-01 10:00:00 UTC,Gym Mix,"Loud, fast",Private',
      '',
      'Video Id,Time Added',
      'dQw4w9WgXcQ,2020-01-01 10:00:00 UTC',
      'fJ9rUzIMcZQ,2020-01-02 10:00:00 UTC',
      'not an id,2020-01-03 10:00:00 UTC',
      'dQw4w9WgXcQ,2020-01-04 10:00:00 UTC',
      '',
    ].join('\r\n');
    const { playlists, issues } = await parse(encoder.encode(text), 'Gym Mix.csv');
    expect(issues).toMatchObject([{ line: 7, code: 'invalid_value', severity: 'warning', column: 1 }]);
    expect(playlists).toMatchObject([{ name: 'Gym Mix', description: 'Loud, fast' }]);
    expect(playlists[0]!.tracks.map((track) => [track.title, track.artist, track.metadata])).toEqual([
      ['', '', { source_uri: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }],
      ['', '', { source_uri: 'https://www.youtube.com/watch?v=fJ9rUzIMcZQ' }],
      ['', '', { source_uri: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }],
    ]);
  });

  it('reads the current Google Takeout layout (a Video ID column) as tracks by their YouTube links', async () => {
    const { playlists, issues } = await parse(encoder.encode('Video ID,Playlist Video Creation Timestamp\ndQw4w9WgXcQ,2023-05-01T10:00:00+00:00\nfJ9rUzIMcZQ,2023-05-02T11:00:00+00:00\n'), 'Gym Mix-videos.csv');
    expect(issues).toEqual([]);
    expect(playlists[0]!.tracks.map((track) => track.metadata)).toEqual([{ source_uri: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }, { source_uri: 'https://www.youtube.com/watch?v=fJ9rUzIMcZQ' }]);
  });

  it('reads an Exportify file re-saved by a German or French Excel: dotted day-first release dates and its words for true and false', async () => {
    const text = [
      'Track URI;Track Name;Artist Name(s);Album Release Date;Explicit',
      'spotify:track:7KXjTSCq5nL1LoYtL7XAwS;HUMBLE.;Kendrick Lamar;14.04.2017;WAHR',
      'spotify:track:5hVghJ4KaYES3BFUATCYn0;EARFQUAKE;Tyler\\, The Creator;17.05.2019;FALSCH',
      'spotify:track:4u7EnebtmKWzUH433cf5Qv;Bohemian Rhapsody;Queen;31.10.1975;FAUX',
      'spotify:track:0DiWol3AO6WpXZgp0goxAV;One More Time;Daft Punk;03/12/2001;VRAI',
    ].join('\r\n');
    const { playlists, issues } = await parse(Uint8Array.from(text, (char) => char.charCodeAt(0)), 'Liked.csv');
    expect(playlists[0]!.tracks.map((track) => [track.title, track.release_date, track.release_year, track.explicit])).toEqual([
      ['HUMBLE.', '2017-04-14', 2017, true],
      ['EARFQUAKE', '2019-05-17', 2019, false],
      ['Bohemian Rhapsody', '1975-10-31', 1975, false],
      // Slashes may be day-first or month-first: the year is certain, the day is not guessed.
      ['One More Time', '2001', 2001, true],
    ]);
    expect(issues).toMatchObject([{ line: 5, code: 'ambiguous_date', severity: 'warning', column: 4, message: expect.stringContaining('only the year 2001 was kept') }]);
  });

  it('reads slashed release dates day- or month-first when a part above 12 settles it, else keeps the year alone with a warning', async () => {
    const text = [
      'Track URI,Track Name,Artist Name(s),Release Date',
      'spotify:track:7KXjTSCq5nL1LoYtL7XAwS,Paranoid Android,Radiohead,21/05/1997',
      'spotify:track:5hVghJ4KaYES3BFUATCYn0,Karma Police,Radiohead,8/25/1997',
      'spotify:track:4u7EnebtmKWzUH433cf5Qv,No Surprises,Radiohead,12/01/1998',
      'spotify:track:0DiWol3AO6WpXZgp0goxAV,Lucky,Radiohead,31/04/1997',
    ].join('\n');
    const { playlists, issues } = await parse(encoder.encode(text), 'OK Computer.csv');
    expect(playlists[0]!.tracks.map((track) => [track.title, track.release_date, track.release_year])).toEqual([
      ['Paranoid Android', '1997-05-21', 1997],
      ['Karma Police', '1997-08-25', 1997],
      ['No Surprises', '1998', 1998],
      // April has no 31st: no date, reported as before.
      ['Lucky', null, null],
    ]);
    expect(issues).toMatchObject([
      { line: 4, code: 'ambiguous_date', severity: 'warning', column: 4 },
      { line: 5, code: 'invalid_value', severity: 'warning', column: 4 },
    ]);
    expect(issues[0]!.message).toContain('"12/01/1998"');
  });

  it('keeps rows that end in empty cells after the last column (a trailing delimiter): nothing is shifted', async () => {
    const generic = await parse(encoder.encode('Title,Artist\nHalo,Beyoncé,\nJóga,Björk, ,\nOne More Time,Daft Punk\nShifted,Row,extra\n'));
    expect(generic.playlists[0]!.tracks.map((track) => [track.title, track.artist])).toEqual([
      ['Halo', 'Beyoncé'],
      ['Jóga', 'Björk'],
      ['One More Time', 'Daft Punk'],
    ]);
    expect(generic.issues).toMatchObject([{ line: 5, code: 'too_many_cells', severity: 'error' }]);
    const v1 = await parse(encoder.encode(`${V1_HEADER}\n1,p,P,,PLAYLIST,,,,,1,,,,T,A,,,,,,,track,,\n`));
    expect(v1.issues).toEqual([]);
    expect(v1.playlists[0]!.tracks).toMatchObject([{ title: 'T', artist: 'A' }]);
  });

  it('refuses a binary file (a workbook saved with a .csv name) with one clear issue instead of reading its bytes as a header', async () => {
    let seed = 11;
    const noise = Array.from({ length: 4_000 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff);
    const workbook = await parse(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, ...noise]), 'playlist.csv');
    expect(workbook.playlists).toEqual([]);
    expect(workbook.issues.filter((issue) => issue.severity === 'error')).toMatchObject([{ code: 'binary_content', line: null }]);
    expect(workbook.issues.find((issue) => issue.code === 'binary_content')?.message).toMatch(/Excel workbook/);
    const garbage = await parse(Uint8Array.from(noise));
    expect(garbage.playlists).toEqual([]);
    expect(garbage.issues.filter((issue) => issue.severity === 'error')).toMatchObject([{ code: 'binary_content' }]);
  });
});
