import { formatKit } from '@opl/plugin-sdk';
import { describe, expect, it } from 'vitest';
import { MAGIC_LINE, SCHEMA_LINE, TXT_V1_COLUMNS } from './txt-columns.ts';
import { HEADER, row, v1, parse } from './txt-parser-test-support.ts';

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
