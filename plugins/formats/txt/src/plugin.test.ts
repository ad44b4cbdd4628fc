import { PLUGIN_DEFINITION_MARK } from '@opl/plugin-sdk';
import { FORMAT_OPERATIONS, type PlaylistInput } from '@opl/plugin-sdk/schemas';
import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';
import { TXT_V1_COLUMNS } from './txt-columns.ts';

const TXT_HEADER: readonly string[] = TXT_V1_COLUMNS;

const encoder = new TextEncoder();

const parse = (bytes: Uint8Array, filename: string | null = 'export.txt') => runParse(plugin, bytes, { filename, mediaType: 'text/plain' });

const richPlaylists: PlaylistInput[] = [
  {
    id: '37i9dQZF1DXcBWIGoYBM5M',
    name: 'J-Pop 名曲 / Русский рок',
    description: 'Любимые песни — お気に入り',
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
      {
        id: 'trk-2',
        title: 'Группа крови',
        artist: 'Кино',
        album: 'Группа крови',
        duration_s: 286,
        provider_uris: { spotify: 'spotify:track:3y' },
        source_position: 1,
      },
      // A duplicate entry: kept twice, in place.
      {
        id: 'trk-1',
        source_item_id: 'set-3',
        title: '花束を君に',
        artist: '宇多田ヒカル',
        album: 'Fantôme',
        duration_s: 282,
        isrc: 'JPB601601133',
        provider_uris: { spotify: 'spotify:track:2x' },
        source_position: 2,
      },
      {
        title: '=Formula? -No @all +ok',
        artist: "'Til Tuesday",
        media_type: 'episode',
        unsupported_reason: 'podcast episodes are not migrated',
        source_position: 3,
      },
    ],
  },
  { id: 'empty-1', name: 'Nothing yet', kind: 'LIKED_TRACKS' },
  { id: 'pl-3', name: 'Third', tracks: [{ title: 'Один', artist: 'Ария' }] },
];

describe('opl.format.txt schema versions', () => {
  it('refuses a file of another schema version by its version, also when its columns differ from v1', async () => {
    for (const text of ['schema_version\tplaylist_name\ttitle\tartist\n2\tP\tT\tA\n', '# Open Playlist TXT\n\nschema_version\ttitle\n# a comment\n7\tT\n']) {
      const { playlists, issues } = await parse(encoder.encode(text));
      expect(playlists).toEqual([]);
      expect(issues).toMatchObject([{ code: 'unsupported_schema_version', severity: 'error' }]);
      expect(issues[0]!.message).toContain('understands schema version 1 only');
    }
    const incomplete = await parse(encoder.encode('schema_version\tplaylist_name\ttitle\tartist\n1\tP\tT\tA\n'));
    expect(incomplete.issues).toMatchObject([{ line: 1, code: 'missing_columns' }]);
  });

  it('still reads every row when the header did not need the first row read ahead', async () => {
    const { text } = await runSerialize(plugin, [{ name: 'P', tracks: [{ title: 'One', artist: 'A' }, { title: 'Two', artist: 'B' }] }]);
    const withoutComments = text.split('\n').filter((line) => !line.startsWith('#')).join('\n');
    const { playlists, issues } = await parse(encoder.encode(withoutComments));
    expect(issues).toEqual([]);
    expect(playlists[0]!.tracks.map((track) => track.title)).toEqual(['One', 'Two']);
  });
});

describe('opl.format.txt plugin', () => {
  it('is a format plugin with both operations', () => {
    expect(plugin.mark).toBe(PLUGIN_DEFINITION_MARK);
    expect(plugin.kind).toBe('format');
    expect(typeof plugin.operations.parse).toBe('function');
    expect(typeof plugin.operations.serialize).toBe('function');
  });

  it('round-trips playlists, order, empty playlists, Unicode, duplicates and rich metadata', async () => {
    const { text } = await runSerialize(plugin, richPlaylists);
    const { playlists, issues } = await parse(encoder.encode(text));
    expect(issues).toEqual([]);
    const expected = richPlaylists.map((playlist) => FORMAT_OPERATIONS.serialize.input.shape.playlists.element.parse(playlist));
    expect(playlists.map((playlist) => [playlist.name, playlist.tracks.length])).toEqual([
      ['J-Pop 名曲 / Русский рок', 4],
      ['Nothing yet', 0],
      ['Third', 1],
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
        expect(track).toEqual({
          ...source,
          duration_s: source.duration_s === null ? null : Math.round(source.duration_s),
          position,
          is_migratable: source.unsupported_reason === null,
        });
      }
    }
  });

  it('streams chunks of at most 64 KiB that concatenate to the file', { timeout: 60_000 }, async () => {
    const album = 'Длинное название 日本語のタイトル '.repeat(100);
    const tracks = Array.from({ length: 2_000 }, (_, index) => ({ title: `Песня ${index}`, artist: 'Артист', album, provider_uris: { spotify: `spotify:track:${index}` } }));
    const { chunks } = await runSerialize(plugin, [{ name: 'Big', description: 'Ж'.repeat(10_000), tracks }]);
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) expect(encoder.encode(chunk).length).toBeLessThanOrEqual(64 * 1024);
    const { playlists, issues } = await parse(encoder.encode(chunks.join('')));
    expect(issues).toEqual([]);
    expect(playlists[0]!.tracks.map((track) => track.title)).toEqual(tracks.map((track) => track.title));
  });

  it('writes UTF-8 without a BOM', async () => {
    const bytes = encoder.encode((await runSerialize(plugin, [])).text);
    expect([...bytes.slice(0, 3)]).not.toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes).startsWith('# Open Playlist TXT v1\n')).toBe(true);
  });

  it('decodes plain lists in UTF-16 and windows-1252 and names them after the file', async () => {
    const text = 'Björk - Jóga\nMotörhead - Ace of Spades\n';
    const utf16 = new Uint8Array(2 + text.length * 2);
    const view = new DataView(utf16.buffer);
    view.setUint16(0, 0xfeff, true);
    for (let index = 0; index < text.length; index++) view.setUint16(2 + index * 2, text.charCodeAt(index), true);
    const latin1 = Uint8Array.from(text, (char) => char.charCodeAt(0));
    for (const bytes of [utf16, latin1]) {
      const { playlists, issues } = await parse(bytes, 'Metal & more.txt');
      expect(issues.map((issue) => issue.code)).toEqual(bytes === latin1 ? ['legacy_encoding'] : []);
      expect(playlists).toHaveLength(1);
      expect(playlists[0]!.name).toBe('Metal & more');
      expect(playlists[0]!.tracks.map((track) => `${track.artist}|${track.title}`)).toEqual(['Björk|Jóga', 'Motörhead|Ace of Spades']);
    }
  });

  it('refuses binary garbage and UTF-16 without a byte order mark with one clear issue, but reads a title holding a NUL', async () => {
    let seed = 99;
    const garbage = Uint8Array.from({ length: 1024 * 1024 }, () => (seed = (seed * 1103515245 + 12345) % 2147483648) >>> 16 & 0xff);
    const text = 'Björk - Jóga\nMotörhead - Ace of Spades\n';
    const utf16WithoutMark = Uint8Array.from({ length: text.length * 2 }, (_, index) => (index % 2 === 0 ? text.charCodeAt(index / 2) & 0xff : 0));
    for (const bytes of [garbage, new Uint8Array(4096), utf16WithoutMark]) {
      const { playlists, issues } = await parse(bytes);
      expect(playlists).toEqual([]);
      expect(issues).toEqual([expect.objectContaining({ code: 'binary_content', severity: 'error' })]);
    }
    const { playlists, issues } = await parse(encoder.encode('A - B\u0000C\nD - E\n'));
    expect(issues).toEqual([]);
    expect(playlists[0]!.tracks.map((track) => track.title)).toEqual(['B\u0000C', 'E']);
  });

  it('keeps every source_uri through txt → txt: provider URIs, links read as provider URIs, web addresses and local files', async () => {
    const text = [
      '# Open Playlist TXT v1',
      '# schema_version=1',
      TXT_HEADER.join('\t'),
      ...[
        ['1', 'Spotify link', 'https://open.spotify.com/track/0DiWol3AO6WpXZgp0goxAV?si=x', 'track', ''],
        ['2', 'Web file', 'https://example.com/a.mp3', 'track', ''],
        ['3', 'Local', 'spotify:local:Me::Local:200', 'local_file', 'local file'],
        ['4', 'URI', 'deezer:track:3135556', 'track', ''],
      ].map(([order, title, uri, media, reason]) => TXT_HEADER.map((column) => ({ schema_version: '1', playlist_name: 'Mix', order, title, artist: 'Band', source_uri: uri, media_type: media, unsupported_reason: reason })[column] ?? '').join('\t')),
      '',
    ].join('\n');
    const first = await parse(encoder.encode(text));
    expect(first.issues).toEqual([]);
    const { text: written } = await runSerialize(plugin, first.playlists);
    const sourceUris = written
      .split('\n')
      .slice(3, -1)
      .map((line) => line.split('\t')[TXT_HEADER.indexOf('source_uri')]);
    expect(sourceUris).toEqual(['spotify:track:0DiWol3AO6WpXZgp0goxAV', 'https://example.com/a.mp3', 'spotify:local:Me::Local:200', 'deezer:track:3135556']);
    const second = await parse(encoder.encode(written));
    expect(second.issues).toEqual([]);
    expect(second.playlists).toEqual(first.playlists);
  });

  it('reads its own export re-saved by Excel as windows-1252 text back to the values written', async () => {
    const { text } = await runSerialize(plugin, [{ name: '=Road trip, "best" of', tracks: [{ title: 'Café', artist: '-5 Degrees', album: "'=x", isrc: 'GBAAN9700044' }] }]);
    // What Excel does on "Save as Text (Tab delimited)": quote-wrap cells holding a quote or comma, CRLF, the ANSI code page.
    const resaved = text
      .split('\n')
      .map((line) => line.split('\t').map((cell) => (/[",]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join('\t'))
      .join('\r\n');
    const { playlists, issues } = await parse(Uint8Array.from(resaved, (char) => char.charCodeAt(0)));
    expect(issues).toMatchObject([{ code: 'legacy_encoding', severity: 'warning' }]);
    expect(playlists[0]).toMatchObject({ name: '=Road trip, "best" of', tracks: [{ title: 'Café', artist: '-5 Degrees', album: "'=x", isrc: 'GBAAN9700044' }] });
  });

  it('reads a tab-separated sheet with a header row as a track table', async () => {
    const { playlists, issues } = await parse(encoder.encode('Title\tArtist\tAlbum\tDuration\r\nOne More Time\tDaft Punk\tDiscovery\t5:20\r\n'), 'sheet.txt');
    expect(issues).toEqual([]);
    expect(playlists).toMatchObject([{ name: 'sheet', tracks: [{ title: 'One More Time', artist: 'Daft Punk', album: 'Discovery', duration_s: 320 }] }]);
  });

  it('turns arbitrary bytes into a result the host accepts, never an exception', async () => {
    // A fixed-seed generator keeps the inputs the same on every run.
    let seed = 12345;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    const pieces = ['\t', '\n', '\r\n', '1', '#', ' - ', "'", '=', 'schema_version', 'Ж', '🎵', '\u0000', ...TXT_HEADER];
    for (let run = 0; run < 40; run++) {
      const text = Array.from({ length: 400 }, () => pieces[next() % pieces.length]).join('');
      const raw = Uint8Array.from({ length: 300 }, () => next() % 256);
      for (const bytes of [encoder.encode(text), raw, encoder.encode(`# Open Playlist TXT v1\n${TXT_HEADER.join('\t')}\n${text}`)]) {
        const { playlists, issues } = await parse(bytes);
        expect(playlists.length + issues.length).toBeGreaterThan(0);
      }
    }
  });
});
