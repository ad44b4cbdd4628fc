import { describe, expect, it } from 'vitest';
import { parse } from './txt-parser-test-support.ts';

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
