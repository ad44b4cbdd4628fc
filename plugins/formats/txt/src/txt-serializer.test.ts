import { playlistSchema, type PlaylistInput } from '@opl/plugin-sdk/schemas';
import { describe, expect, it } from 'vitest';
import { MAGIC_LINE, TXT_V1_COLUMNS } from './txt-columns.ts';
import { serializeOptions, serializeTxt } from './txt-serializer.ts';

const playlist = (input: PlaylistInput) => playlistSchema.parse(input);

function write(playlists: PlaylistInput[], options: Record<string, unknown> = {}): string {
  return [...serializeTxt(playlists.map(playlist), serializeOptions(options))].join('');
}

function dataRows(text: string): Record<string, string>[] {
  const lines = text.split('\n').slice(3, -1);
  return lines.map((line) => Object.fromEntries(line.split('\t').map((cell, index) => [TXT_V1_COLUMNS[index] ?? `extra_${index}`, cell])));
}

describe('serializeTxt', () => {
  it('writes the two comment lines and the 23 v1 columns in spec order', () => {
    const lines = write([]).split('\n');
    expect(lines[0]).toBe(MAGIC_LINE);
    expect(lines[1]).toMatch(/^# schema_version=1; /);
    expect(lines[2]).toBe(
      'schema_version\tplaylist_id\tplaylist_name\tplaylist_description\tplaylist_kind\tplaylist_owner_id\tplaylist_artwork_uri\t' +
        'playlist_created_at\tplaylist_updated_at\torder\tsource_position\ttrack_id\tsource_item_id\ttitle\tartist\talbum\t' +
        'duration_seconds\tisrc\tsource_uri\tartwork_uri\tadded_at\tmedia_type\tunsupported_reason',
    );
    expect(lines.slice(3)).toEqual(['']);
  });

  it('writes one row per track in order, with every column filled from the model', () => {
    const text = write([
      {
        id: 'pl-1',
        name: 'Road trip',
        description: 'Summer',
        owner_id: 'me',
        artwork_uri: 'https://img.example/pl.jpg',
        created_at: '2024-01-02T03:04:05Z',
        updated_at: '2024-02-03T04:05:06.789+02:00',
        tracks: [
          {
            id: 't1',
            source_item_id: 'item-1',
            title: 'Song A',
            artist: 'Artist A',
            album: 'Album A',
            duration_s: 215.5,
            isrc: 'USRC17607839',
            provider_uris: { spotify: 'spotify:track:aaa' },
            artwork_uri: 'https://img.example/a.jpg',
            added_at: '2024-01-03T00:00:00Z',
            source_position: 7,
          },
          { title: 'Song B', artist: 'Artist B', media_type: 'episode', unsupported_reason: 'episodes are not migrated' },
        ],
      },
    ]);
    const rows = dataRows(text);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      schema_version: '1',
      playlist_id: 'pl-1',
      playlist_name: 'Road trip',
      playlist_description: 'Summer',
      playlist_kind: 'PLAYLIST',
      playlist_owner_id: 'me',
      playlist_artwork_uri: 'https://img.example/pl.jpg',
      playlist_created_at: '2024-01-02T03:04:05Z',
      playlist_updated_at: '2024-02-03T04:05:06.789+02:00',
      order: '1',
      source_position: '7',
      track_id: 't1',
      source_item_id: 'item-1',
      title: 'Song A',
      artist: 'Artist A',
      album: 'Album A',
      duration_seconds: '216',
      isrc: 'USRC17607839',
      source_uri: 'spotify:track:aaa',
      artwork_uri: 'https://img.example/a.jpg',
      added_at: '2024-01-03T00:00:00Z',
      media_type: 'track',
      unsupported_reason: '',
    });
    expect(rows[1]).toMatchObject({ order: '2', source_position: '', track_id: '', duration_seconds: '', media_type: 'episode', unsupported_reason: 'episodes are not migrated' });
  });

  it('writes a metadata-only row for an empty playlist, and several playlists in order', () => {
    const rows = dataRows(
      write([
        { name: 'Empty', id: 'e', kind: 'LIKED_TRACKS' },
        { name: 'Two', tracks: [{ title: 'x', artist: 'y' }, { title: 'x', artist: 'y' }] },
      ]),
    );
    expect(rows.map((row) => [row.playlist_name, row.order, row.title])).toEqual([
      ['Empty', '', ''],
      ['Two', '1', 'x'],
      ['Two', '2', 'x'],
    ]);
    const empty = rows[0]!;
    expect(empty.playlist_kind).toBe('LIKED_TRACKS');
    for (const column of TXT_V1_COLUMNS.slice(9)) expect(empty[column]).toBe('');
  });

  it('replaces tabs and line breaks inside values with spaces', () => {
    const rows = dataRows(write([{ name: 'a\tb', description: 'line 1\r\nline 2\rline 3\u2028x', tracks: [{ title: 'T\ti\nt', artist: 'A' }] }]));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ playlist_name: 'a b', playlist_description: 'line 1  line 2 line 3 x', title: 'T i t' });
  });

  it('guards cells that could start a spreadsheet formula, including after whitespace', () => {
    const rows = dataRows(write([{ name: '=HYPERLINK("x")', tracks: [{ title: '  +1', artist: '@artist', album: '-album', source_position: -3 }] }]));
    expect(rows[0]).toMatchObject({ playlist_name: `'=HYPERLINK("x")`, title: "'  +1", artist: "'@artist", album: "'-album", source_position: "'-3" });
    // A tab at the start of a value is first turned into a space, then guarded as leading whitespace before "=".
    expect(dataRows(write([{ name: '\t=1' }]))[0]!.playlist_name).toBe("' =1");
  });

  it('picks source_uri from the source provider, else the first provider key in code-unit order', () => {
    const track = { title: 't', artist: 'a', provider_uris: { youtube: 'https://music.youtube.com/watch?v=x', deezer: 'deezer:track:1', spotify: 'spotify:track:s' } };
    expect(dataRows(write([{ name: 'p', tracks: [track] }]))[0]!.source_uri).toBe('deezer:track:1');
    expect(dataRows(write([{ name: 'p', tracks: [track] }], { source_provider: 'spotify' }))[0]!.source_uri).toBe('spotify:track:s');
    expect(dataRows(write([{ name: 'p', tracks: [track] }], { source_provider: 'tidal' }))[0]!.source_uri).toBe('deezer:track:1');
    expect(dataRows(write([{ name: 'p', tracks: [{ title: 't', artist: 'a' }] }]))[0]!.source_uri).toBe('');
  });

  it('writes the URI a reader kept in metadata.source_uri when the track has no provider URI', () => {
    const kept = { title: 't', artist: 'a', metadata: { source_uri: 'https://example.com/a.mp3' } };
    expect(dataRows(write([{ name: 'p', tracks: [kept] }]))[0]!.source_uri).toBe('https://example.com/a.mp3');
    expect(dataRows(write([{ name: 'p', tracks: [{ ...kept, provider_uris: { spotify: 'spotify:track:s' } }] }]))[0]!.source_uri).toBe('spotify:track:s');
    expect(dataRows(write([{ name: 'p', tracks: [{ title: 't', artist: 'a', metadata: { source_uri: 42 } }] }]))[0]!.source_uri).toBe('');
  });

  it('falls back to the playlist photo for playlist_artwork_uri', () => {
    expect(dataRows(write([{ name: 'p', photo: 'https://img.example/p.png' }]))[0]!.playlist_artwork_uri).toBe('https://img.example/p.png');
  });
});
