// eslint-disable-next-line no-restricted-imports -- a unit test reads its fixture file; tests run in Node and are never bundled
import { readFileSync } from 'node:fs';
import { PLUGIN_DEFINITION_MARK } from '@opl/plugin-sdk';
import { FORMAT_OPERATIONS, type PlaylistInput } from '@opl/plugin-sdk/schemas';
import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import { LOCAL_FILE_REASON } from './exportify-reader.ts';
import plugin from './index.ts';

const encoder = new TextEncoder();

const parse = (bytes: Uint8Array, filename: string | null = 'export.csv') => runParse(plugin, bytes, { filename, mediaType: 'text/csv' });

function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../fixtures/${name}`, import.meta.url)));
}

const V1_HEADER = 'schema_version,playlist_id,playlist_name,playlist_description,playlist_kind,playlist_owner_id,playlist_artwork_uri,playlist_created_at,playlist_updated_at,order,source_position,track_id,source_item_id,title,artist,album,duration_seconds,isrc,source_uri,artwork_uri,added_at,media_type,unsupported_reason';

const richPlaylists: PlaylistInput[] = [
  {
    id: '37i9dQZF1DXcBWIGoYBM5M',
    name: 'J-Pop 名曲 / Русский рок, "best"',
    description: 'Любимые песни — お気に入り\r\nsecond line; with "quotes", commas\tand a tab',
    owner_id: 'owner-1',
    artwork_uri: 'https://img.example/cover.jpg',
    created_at: '2023-12-31T23:59:59Z',
    updated_at: '2024-05-01T10:00:00.250+09:00',
    tracks: [
      {
        id: 'trk-1',
        source_item_id: 'set-1',
        title: '花束を君に',
        artist: '宇多田ヒカル',
        album: 'Fantôme',
        duration_s: 282,
        isrc: 'JPB601601133',
        provider_uris: { spotify: 'spotify:track:2x' },
        artwork_uri: 'https://img.example/a.jpg',
        added_at: '2024-01-01T00:00:00Z',
        source_position: 0,
      },
      { id: 'trk-2', title: 'Группа крови', artist: 'Кино', album: 'Группа крови', duration_s: 286, provider_uris: { spotify: 'spotify:track:3y' }, source_position: 1 },
      // A duplicate entry: kept twice, in place.
      { id: 'trk-1', source_item_id: 'set-3', title: '花束を君に', artist: '宇多田ヒカル', album: 'Fantôme', duration_s: 282, isrc: 'JPB601601133', provider_uris: { spotify: 'spotify:track:2x' }, source_position: 2 },
      { title: '=Formula? -No @all +ok', artist: "'Til Tuesday", album: "'=SUM(A1)", media_type: 'episode', unsupported_reason: 'podcast episodes are not migrated', source_position: 3 },
      { title: 'Lokale Datei 🎵', artist: 'Ich', media_type: 'local_file', is_local: true, unsupported_reason: 'local file', provider_uris: {} },
    ],
  },
  { id: 'empty-1', name: 'Nothing yet', kind: 'LIKED_TRACKS' },
  { id: 'pl-3', name: 'Third', tracks: [{ title: 'Один', artist: 'Ария' }] },
  { id: 'empty-2', name: 'Also empty' },
];

describe('opl.format.csv plugin', () => {
  it('is a format plugin with both operations', () => {
    expect(plugin.mark).toBe(PLUGIN_DEFINITION_MARK);
    expect(plugin.kind).toBe('format');
    expect(typeof plugin.operations.parse).toBe('function');
    expect(typeof plugin.operations.serialize).toBe('function');
  });

  it('round-trips playlists, order, empty playlists, Unicode, line breaks, duplicates and rich metadata', async () => {
    const { text } = await runSerialize(plugin, richPlaylists);
    const bytes = encoder.encode(text);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const { playlists, issues } = await parse(bytes);
    expect(issues).toEqual([]);
    const expected = richPlaylists.map((playlist) => FORMAT_OPERATIONS.serialize.input.shape.playlists.element.parse(playlist));
    expect(playlists.map((playlist) => [playlist.name, playlist.tracks.length])).toEqual([
      ['J-Pop 名曲 / Русский рок, "best"', 5],
      ['Nothing yet', 0],
      ['Third', 1],
      ['Also empty', 0],
    ]);
    for (const [index, playlist] of playlists.entries()) {
      const original = expected[index]!;
      expect(playlist).toMatchObject({
        id: original.id,
        name: original.name,
        description: original.description,
        kind: original.kind,
        owner_id: original.owner_id,
        artwork_uri: original.artwork_uri,
        created_at: original.created_at,
        updated_at: original.updated_at,
      });
      for (const [position, track] of playlist.tracks.entries()) {
        const source = original.tracks[position]!;
        expect(track).toEqual({ ...source, position, is_migratable: source.unsupported_reason === null });
      }
    }
  });

  it('streams chunks of at most 64 KiB that concatenate to the file', async () => {
    const album = 'Длинное название 日本語のタイトル '.repeat(100);
    const tracks = Array.from({ length: 2_000 }, (_, index) => ({ title: `Песня ${index}`, artist: 'Артист', album, provider_uris: { spotify: `spotify:track:${index}` } }));
    const { chunks } = await runSerialize(plugin, [{ name: 'Big', description: 'Ж'.repeat(10_000), tracks }]);
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) expect(encoder.encode(chunk).length).toBeLessThanOrEqual(64 * 1024);
    const { playlists, issues } = await parse(encoder.encode(chunks.join('')));
    expect(issues).toEqual([]);
    expect(playlists[0]!.tracks.map((track) => track.title)).toEqual(tracks.map((track) => track.title));
  });

  it('refuses an unknown schema_version with one clear issue', async () => {
    const { playlists, issues } = await parse(encoder.encode(`${V1_HEADER}\n2,p,Name,,PLAYLIST,,,,,1,,,,T,A,,,,,,,track,\n`));
    expect(playlists).toEqual([]);
    expect(issues).toMatchObject([{ line: 2, code: 'unsupported_schema_version', severity: 'error' }]);
    expect(issues[0]!.message).toContain('"2"');
  });

  it('refuses a file of another schema version by its version, also when its columns differ from v1', async () => {
    for (const text of ['schema_version,playlist_name,title,artist\n2,P,T,A\n', 'Schema_Version;Name;Title\r\n"3";P;T\r\n']) {
      const { playlists, issues } = await parse(encoder.encode(text));
      expect(playlists).toEqual([]);
      expect(issues).toMatchObject([{ line: 2, code: 'unsupported_schema_version', severity: 'error' }]);
      expect(issues[0]!.message).toContain('understands schema version 1 only');
    }
    // Version 1 (or none written) with columns missing is still what it is: an incomplete v1 header.
    for (const text of ['schema_version,playlist_name,title,artist\n1,P,T,A\n', 'schema_version,title\n,T\n', 'schema_version,title\n']) {
      expect((await parse(encoder.encode(text))).issues).toMatchObject([{ line: 1, code: 'missing_columns' }]);
    }
  });

  it('reads semicolon-delimited v1 files (a spreadsheet saved in a comma-decimal locale)', async () => {
    const { text } = await runSerialize(plugin, [{ name: 'Semi', tracks: [{ title: 'A; B', artist: 'C' }] }]);
    const semicolons = text.replaceAll('","', '";"');
    const { playlists, issues } = await parse(encoder.encode(semicolons));
    expect(issues).toEqual([]);
    expect(playlists[0]!.tracks[0]).toMatchObject({ title: 'A; B', artist: 'C' });
  });

  it('reports ragged and broken rows by line and keeps their neighbours', async () => {
    const rows = [
      V1_HEADER,
      '1,mix,Mixed bag,,PLAYLIST,,,,,1,,,,First,Kept,,,,,,,track,',
      '1,mix,Mixed bag,,PLAYLIST,,,,,2,,,,Too,Many,,,,,,,track,,extra',
      '1,mix,Mixed bag,,PLAYLIST,,,,,3,,,,Second,"Kept, short"',
      '1,mix,Mixed bag,,PLAYLIST,,,,,x,,,,Bad,Order,,,,,,,track,',
      '1,mix,Mixed bag,,PLAYLIST,,,,,5,,,,Third,Kept,,abc,,,,,track,',
    ];
    const { playlists, issues } = await parse(encoder.encode(rows.join('\r\n')));
    expect(playlists).toHaveLength(1);
    expect(playlists[0]!.tracks.map((track) => [track.title, track.artist, track.duration_s])).toEqual([
      ['First', 'Kept', null],
      ['Second', 'Kept, short', null],
      ['Third', 'Kept', null],
    ]);
    expect(issues).toMatchObject([
      { line: 3, code: 'too_many_cells', severity: 'error' },
      { line: 4, code: 'too_few_cells', severity: 'warning' },
      { line: 5, code: 'invalid_order', severity: 'error', column: 10 },
      { line: 6, code: 'invalid_value', severity: 'warning', column: 17 },
    ]);
  });

  it('counts physical lines through quoted line breaks', async () => {
    const rows = [V1_HEADER, '1,p,P,"two\nline description",PLAYLIST,,,,,1,,,,"A\r\nB",X,,,,,,,track,', '1,p,P,"two\nline description",PLAYLIST,,,,,2,,,,T,X,,oops,,,,,track,'];
    const { playlists, issues } = await parse(encoder.encode(rows.join('\n')));
    expect(playlists[0]!.tracks.map((track) => track.title)).toEqual(['A\r\nB', 'T']);
    expect(issues).toMatchObject([{ line: 5, code: 'invalid_value' }]);
  });

  it('reads an Exportify export: artists split, local file, ISRC-less and episode rows, one playlist named after the file', async () => {
    const { playlists, issues } = await parse(fixture('exportify-sample.csv'), 'C:\\Users\\me\\Downloads\\road_trip.csv');
    expect(issues).toEqual([]);
    expect(playlists).toHaveLength(1);
    const [playlist] = playlists;
    expect(playlist!.name).toBe('road_trip');
    expect(playlist!.tracks).toHaveLength(10);
    const [first, multi, local, noIsrc, , duplicate, quoted, episode, accents, formula] = playlist!.tracks;
    expect(first).toMatchObject({
      title: 'Midnight Ferry',
      artist: 'Harbour Lights',
      artists: ['Harbour Lights'],
      album: 'Night Crossings',
      duration_s: 215.493,
      isrc: 'GBXYZ1900103',
      explicit: false,
      release_date: '2019-03-08',
      release_year: 2019,
      disc_number: 1,
      track_number: 3,
      genre: 'indie pop,dream pop',
      label: 'Quay Records',
      artwork_uri: 'https://i.scdn.example/image/ab01',
      added_at: '2023-11-02T18:04:51Z',
      provider_uris: { spotify: 'spotify:track:0aaaaaaaaaaaaaaaaaaaa1' },
      metadata: { added_by: 'spotify:user:listener01', popularity: 41, album_artists: ['Harbour Lights'] },
      media_type: 'track',
      is_local: false,
      position: 0,
    });
    expect(multi).toMatchObject({ artist: 'The Lanterns, Nova Reyes, DJ Kōji', artists: ['The Lanterns', 'Nova Reyes', 'DJ Kōji'], explicit: true, release_date: '2021', release_year: 2021 });
    expect(local).toMatchObject({
      title: 'First Take, Rough Mix',
      artist: 'Garage Tapes',
      album: "Demo Reel '03",
      is_local: true,
      media_type: 'local_file',
      is_migratable: false,
      unsupported_reason: LOCAL_FILE_REASON,
      provider_uris: {},
      metadata: { source_uri: 'spotify:local:Garage+Tapes:Demo+Reel+%2703:First+Take%2C+Rough+Mix:142' },
      duration_s: 142,
    });
    expect(noIsrc).toMatchObject({ title: 'Северное сияние', artist: 'Белые Ночи', isrc: null, label: 'Полярная Звезда' });
    expect(duplicate).toMatchObject({ title: 'Midnight Ferry', position: 5 });
    expect(quoted).toMatchObject({ title: '"Quoted" Title, Part 2', album: 'Live at the "Hall"', disc_number: 2 });
    expect(episode).toMatchObject({ media_type: 'episode', is_migratable: false, provider_uris: { spotify: 'spotify:episode:3aaaaaaaaaaaaaaaaaaaa8' }, artist: '' });
    expect(accents).toMatchObject({ title: 'Café Noir', artists: ['Zoë Martin', 'Björn Ek'] });
    // A foreign file carries no formula guard: its leading characters are content.
    expect(formula).toMatchObject({ title: '=Equals Sign' });
  });

  it('decodes a windows-1252 Exportify file with a warning and names a missing file "Imported playlist"', async () => {
    const text = 'Track Name;Artist Name(s);Duration (ms)\r\nCafé;Zoë;1000\r\n';
    const { playlists, issues } = await parse(Uint8Array.from(text, (char) => char.charCodeAt(0)), null);
    expect(playlists).toMatchObject([{ name: 'Imported playlist', tracks: [{ title: 'Café', artist: 'Zoë', duration_s: 1 }] }]);
    expect(issues).toMatchObject([{ code: 'legacy_encoding', severity: 'warning' }]);
  });

  it('reads a generic CSV with title and artist columns, tolerating missing cells', async () => {
    const text = 'Artist\tTitle\tAlbum\tISRC\tDuration\r\nQueen\tBohemian Rhapsody\tA Night at the Opera\tgbum71029604\t5:55\r\nAC/DC\tT.N.T.\r\n\tUntitled\t\t\t1:02:03\r\n';
    const { playlists, issues } = await parse(encoder.encode(text), 'mix.csv');
    expect(playlists).toMatchObject([
      {
        name: 'mix',
        tracks: [
          { title: 'Bohemian Rhapsody', artist: 'Queen', album: 'A Night at the Opera', isrc: 'GBUM71029604', duration_s: 355 },
          { title: 'T.N.T.', artist: 'AC/DC', album: null, duration_s: null },
          { title: 'Untitled', artist: '', duration_s: 3723 },
        ],
      },
    ]);
    expect(issues).toMatchObject([{ line: 3, code: 'too_few_cells', severity: 'warning' }]);
  });

  it('reads a list of links without a title column as tracks by link, titles unknown', async () => {
    const { playlists, issues } = await parse(encoder.encode('Artist,Album,URL\nDaft Punk,Discovery,https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC\n'), 'links.csv');
    expect(issues).toEqual([]);
    expect(playlists).toMatchObject([{ name: 'links', tracks: [{ title: '', artist: 'Daft Punk', album: 'Discovery', provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' } }] }]);
    const refused = await parse(encoder.encode('Artist,Album\nDaft Punk,Discovery\n'));
    expect(refused.playlists).toEqual([]);
    expect(refused.issues).toMatchObject([{ line: 1, code: 'unrecognized_columns', severity: 'error' }]);
  });

  it('refuses a file whose columns it does not know with unrecognized_columns', async () => {
    const { playlists, issues } = await parse(encoder.encode('date,amount,account\n2024-01-01,3.50,cash\n'));
    expect(playlists).toEqual([]);
    expect(issues).toMatchObject([{ line: 1, code: 'unrecognized_columns', severity: 'error' }]);
  });

  it('turns invalid UTF-8, binary garbage and a 5 MB single line into issues, never an exception', { timeout: 60_000 }, async () => {
    const invalid = Uint8Array.from([0x74, 0x69, 0x74, 0x6c, 0x65, 0x0a, 0xc3, 0x28, 0xff, 0xfe, 0x0a]);
    const read = await parse(invalid);
    expect(read.issues[0]).toMatchObject({ code: 'legacy_encoding' });
    expect(read.playlists[0]!.tracks).toHaveLength(1);

    const long = encoder.encode('x'.repeat(5 * 1024 * 1024));
    const result = await parse(long);
    expect(result.playlists).toEqual([]);
    expect(result.issues).toMatchObject([{ line: 1, code: 'line_too_long', severity: 'error' }]);
    expect(result.issues[0]!.message.length).toBeLessThan(1_000);

    let seed = 12345;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    const pieces = [',', ';', '\t', '\n', '\r\n', '"', '""', '1', "'", '=', 'schema_version', 'Track Name', 'title', 'Ж', '🎵', '\u0000', ...V1_HEADER.split(',')];
    for (let run = 0; run < 40; run++) {
      const text = Array.from({ length: 400 }, () => pieces[next() % pieces.length]).join('');
      const raw = Uint8Array.from({ length: 300 }, () => next() % 256);
      for (const bytes of [encoder.encode(text), raw, encoder.encode(`${V1_HEADER}\n${text}`), encoder.encode(`Track Name,Artist Name(s),Track URI\n${text}`)]) {
        const { playlists, issues } = await parse(bytes);
        expect(playlists.length + issues.length).toBeGreaterThan(0);
      }
    }
  });
});

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
