import { PLUGIN_DEFINITION_MARK } from '@opl/plugin-sdk';
import { FORMAT_OPERATIONS } from '@opl/plugin-sdk/schemas';
import { runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import { LOCAL_FILE_REASON } from './exportify-reader.ts';
import plugin from './index.ts';
import { encoder, parse, fixture, V1_HEADER, richPlaylists } from './csv-test-support.ts';

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
