import { runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import { LOCAL_FILE_REASON } from './exportify-reader.ts';
import plugin from './index.ts';
import { encoder, parse, V1_HEADER } from './csv-test-support.ts';

describe('opl.format.csv links, Exportify layouts, durations and ISRCs', () => {
  const V1_ROW = (order: number, title: string, sourceUri: string, mediaType = 'track', reason = '') =>
    ['1', 'p1', 'Mix', '', 'PLAYLIST', '', '', '', '', String(order), '', '', '', title, 'Band', '', '200', '', sourceUri, '', '', mediaType, reason].map((cell) => `"${cell}"`).join(',');

  it('reads Spotify and TIDAL web links in a generic link column as provider URIs, other links as metadata', async () => {
    const text = [
      'Title,Artist,URL',
      'One More Time,Daft Punk,https://open.spotify.com/track/0DiWol3AO6WpXZgp0goxAV?si=1a2b3c',
      'Around the World,Daft Punk,https://open.spotify.com/intl-de/track/1pKYYY0dkg23sQQXi0Q5zN',
      'Joga,Björk,https://tidal.com/browse/track/1234',
      'Hunter,Björk,https://listen.tidal.com/track/5678',
      'Bachelorette,Björk,https://listen.tidal.com/album/111/track/9012',
      'Teardrop,Massive Attack,https://www.youtube.com/watch?v=u7K72X4eo_s',
      ',,https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC',
      'Je veux,,spotify:local:Zaz:Recto+Verso:Je+veux:219',
    ].join('\n');
    const { playlists, issues } = await parse(encoder.encode(text), 'links.csv');
    expect(issues).toEqual([]);
    const tracks = playlists[0]!.tracks;
    expect(tracks.map((track) => [track.title, track.provider_uris, track.metadata])).toEqual([
      ['One More Time', { spotify: 'spotify:track:0DiWol3AO6WpXZgp0goxAV' }, {}],
      ['Around the World', { spotify: 'spotify:track:1pKYYY0dkg23sQQXi0Q5zN' }, {}],
      ['Joga', { tidal: 'tidal:track:1234' }, {}],
      ['Hunter', { tidal: 'tidal:track:5678' }, {}],
      ['Bachelorette', { tidal: 'tidal:track:9012' }, {}],
      ['Teardrop', {}, { source_uri: 'https://www.youtube.com/watch?v=u7K72X4eo_s' }],
      // A row holding only a track link is kept: the title is unknown, matching finds it by URI.
      ['', { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, {}],
      ['Je veux', {}, { source_uri: 'spotify:local:Zaz:Recto+Verso:Je+veux:219' }],
    ]);
    // A Spotify local-file URI is a local file here too, named from the URI where the cells are empty.
    expect(tracks[7]).toMatchObject({ artist: 'Zaz', album: 'Recto Verso', duration_s: 219, is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: LOCAL_FILE_REASON });
  });

  it('reads Spotify and TIDAL links in the v1 source_uri column as provider URIs and writes every source_uri back (csv → csv)', async () => {
    const text = [
      V1_HEADER,
      V1_ROW(1, 'Spotify link', 'https://open.spotify.com/intl-de/track/0DiWol3AO6WpXZgp0goxAV?si=x'),
      V1_ROW(2, 'TIDAL link', 'https://listen.tidal.com/album/111/track/9012'),
      V1_ROW(3, 'Web file', 'https://example.com/a.mp3'),
      V1_ROW(4, 'Local', 'spotify:local:Me::Local:200', 'local_file', 'local file'),
      V1_ROW(5, 'URI', 'deezer:track:3135556'),
    ].join('\r\n');
    const first = await parse(encoder.encode(text));
    expect(first.issues).toEqual([]);
    expect(first.playlists[0]!.tracks.map((track) => [track.provider_uris, track.metadata])).toEqual([
      [{ spotify: 'spotify:track:0DiWol3AO6WpXZgp0goxAV' }, {}],
      [{ tidal: 'tidal:track:9012' }, {}],
      [{}, { source_uri: 'https://example.com/a.mp3' }],
      // A local-file URI names a file on a device, not a Spotify track: it is kept, not filed under spotify.
      [{}, { source_uri: 'spotify:local:Me::Local:200' }],
      [{ deezer: 'deezer:track:3135556' }, {}],
    ]);
    const { text: written } = await runSerialize(plugin, first.playlists);
    expect(written).toContain('"Web file","Band","","200","","https://example.com/a.mp3"');
    expect(written).toContain('"spotify:local:Me::Local:200"');
    expect(written).toContain('"spotify:track:0DiWol3AO6WpXZgp0goxAV"');
    const second = await parse(encoder.encode(written));
    expect(second.issues).toEqual([]);
    expect(second.playlists).toEqual(first.playlists);
  });

  it('reads the 2020–22 Exportify layout: the bare Spotify ID is the track URI', async () => {
    const text = [
      'Spotify ID,Artist IDs,Track Name,Album Name,Artist Name(s),Release Date,Duration (ms),Popularity,Added By,Added At,Genres,Danceability,Energy',
      '0DiWol3AO6WpXZgp0goxAV,"4tZwfgrHOc3mvqYlEYSvVi","One More Time","Discovery","Daft Punk",2001-03-12,320357,79,spotify:user:jdoe,2021-04-05T10:11:12Z,"filter house,french house",0.613,0.697',
      '6rqhFgbbKwnb9MLmUQDhG6,"6vWDO969PvNqNYHIOW5v0m,3nFkdlSjzX9mRTtwJOzDYB","Deja Vu","BDay","Beyoncé,JAY-Z",2006-09-04,240080,65,spotify:user:jdoe,2021-04-05T10:12:00Z,"pop,r&b",0.6,0.9',
      ',"","Local Song","Local Album","Local Artist",,213000,0,spotify:user:jdoe,2021-04-05T10:14:00Z,"",,',
      'not-an-id,"","Odd","","Someone",,1000,0,,,,,',
    ].join('\n');
    const { playlists, issues } = await parse(encoder.encode(text), 'old.csv');
    expect(playlists[0]!.metadata).toEqual({ source_format: 'exportify' });
    const [first, second, local, odd] = playlists[0]!.tracks;
    expect(first).toMatchObject({ title: 'One More Time', artists: ['Daft Punk'], duration_s: 320.357, release_year: 2001, provider_uris: { spotify: 'spotify:track:0DiWol3AO6WpXZgp0goxAV' }, genre: 'filter house,french house' });
    expect(second).toMatchObject({ artist: 'Beyoncé, JAY-Z', provider_uris: { spotify: 'spotify:track:6rqhFgbbKwnb9MLmUQDhG6' } });
    // This layout writes no URI for a local file: the row is an ordinary track without a provider URI.
    expect(local).toMatchObject({ title: 'Local Song', provider_uris: {}, is_local: false, duration_s: 213 });
    expect(odd).toMatchObject({ title: 'Odd', provider_uris: {} });
    expect(issues).toMatchObject([{ line: 5, code: 'invalid_value', severity: 'warning', column: 1, message: expect.stringContaining('Spotify ID') }]);
  });

  it('recognises the original Exportify layout (Spotify URI, Artist Name, Track Duration (ms)) and its local files', async () => {
    const text = [
      'Spotify URI,Track Name,Artist Name,Album Name,Disc Number,Track Number,Track Duration (ms),Added By,Added At',
      '"spotify:track:0DiWol3AO6WpXZgp0goxAV","One More Time","Daft Punk","Discovery","1","1","320357","spotify:user:jdoe","2015-04-05T10:11:12Z"',
      '"spotify:local:Zaz:Recto+Verso:Je+veux:219","","","","0","0","219000","spotify:user:jdoe","2015-04-05T10:12:12Z"',
    ].join('\n');
    const { playlists, issues } = await parse(encoder.encode(text), '2015.csv');
    expect(issues).toEqual([]);
    expect(playlists[0]!.metadata).toEqual({ source_format: 'exportify' });
    const [track, local] = playlists[0]!.tracks;
    expect(track).toMatchObject({ title: 'One More Time', artist: 'Daft Punk', duration_s: 320.357, disc_number: 1, track_number: 1, provider_uris: { spotify: 'spotify:track:0DiWol3AO6WpXZgp0goxAV' }, added_at: '2015-04-05T10:11:12Z' });
    expect(local).toMatchObject({
      title: 'Je veux',
      artist: 'Zaz',
      artists: ['Zaz'],
      album: 'Recto Verso',
      duration_s: 219,
      is_local: true,
      media_type: 'local_file',
      is_migratable: false,
      unsupported_reason: LOCAL_FILE_REASON,
      provider_uris: {},
      metadata: { source_uri: 'spotify:local:Zaz:Recto+Verso:Je+veux:219', added_by: 'spotify:user:jdoe' },
    });
  });

  it('keeps a comma Exportify escaped with a backslash inside artist and album artist names', async () => {
    const text = [
      '"Track URI","Track Name","Artist Name(s)","Album Name","Album Artist Name(s)","Track Duration (ms)","ISRC"',
      '"spotify:track:5hVghJ4KaYES3BFUATCYn0","See You Again (feat. Kali Uchis)","Tyler\\, The Creator, Kali Uchis","Flower Boy","Tyler\\, The Creator","180386","usqx91701278"',
      '"spotify:track:6rqhFgbbKwnb9MLmUQDhG6","Plain","A,B","X","A","1000",""',
    ].join('\n');
    const { playlists, issues } = await parse(encoder.encode(text));
    expect(issues).toEqual([]);
    const [escaped, plain] = playlists[0]!.tracks;
    expect(escaped).toMatchObject({
      artists: ['Tyler, The Creator', 'Kali Uchis'],
      artist: 'Tyler, The Creator, Kali Uchis',
      duration_s: 180.386,
      isrc: 'USQX91701278',
      metadata: { album_artists: ['Tyler, The Creator'] },
    });
    expect(plain).toMatchObject({ artists: ['A', 'B'], artist: 'A, B' });
  });

  it('reads a generic Duration column holding milliseconds as milliseconds, with one warning', async () => {
    const text = ['Title,Artist,Duration', 'Intro,B,25000', 'Long,B,320357', 'Clock,B,3:20', 'Short,B,215000'].join('\n');
    const { playlists, issues } = await parse(encoder.encode(text), 'ms.csv');
    expect(playlists[0]!.tracks.map((track) => track.duration_s)).toEqual([25, 320.357, 200, 215]);
    expect(issues).toMatchObject([{ line: 3, column: 3, code: 'duration_in_milliseconds', severity: 'warning' }]);
  });

  it('keeps seconds when the column also holds values too short for milliseconds (a 12-hour recording among songs)', async () => {
    const text = ['Title,Artist,Duration', 'Rain,Noise,43200', 'Song,B,215'].join('\n');
    const { playlists, issues } = await parse(encoder.encode(text));
    expect(playlists[0]!.tracks.map((track) => track.duration_s)).toEqual([43200, 215]);
    expect(issues).toEqual([]);
  });

  it('normalises hyphenated and lowercase ISRCs to the 12-character form in generic and v1 files', async () => {
    const generic = await parse(encoder.encode('Title,Artist,ISRC\nJoga,Björk,GB-AAN-97-00044\nX,Y,usrc17607839\nZ,Y,not an isrc\n'));
    expect(generic.issues).toEqual([]);
    expect(generic.playlists[0]!.tracks.map((track) => track.isrc)).toEqual(['GBAAN9700044', 'USRC17607839', 'not an isrc']);
    const v1 = `${V1_HEADER}\n1,p,P,,PLAYLIST,,,,,1,,,,T,A,,,gb-aan-97-00044,,,,track,\n`;
    expect((await parse(encoder.encode(v1))).playlists[0]!.tracks[0]!.isrc).toBe('GBAAN9700044');
  });
});
