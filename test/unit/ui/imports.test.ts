import { describe, expect, it } from 'vitest';
import {
  describeImportFailure,
  formatDuration,
  formatLabel,
  formatMiB,
  groupIssues,
  importPath,
  issueLocation,
  parseImportPreview,
  uploadHeaders,
  type ImportIssue,
} from '../../../ui/src/api/imports.ts';
import { toProblem } from '../../../ui/src/api/problem.ts';

const issue = (line: number | null, severity: string, code = 'x', column: number | null = null): ImportIssue => ({
  line,
  column,
  code,
  message: `${code} at ${line}`,
  severity,
});

describe('formatDuration', () => {
  it('writes minutes and zero-padded seconds', () => {
    expect(formatDuration(215)).toBe('3:35');
    expect(formatDuration(5)).toBe('0:05');
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(600)).toBe('10:00');
  });

  it('rounds fractional seconds, carrying into the minute', () => {
    expect(formatDuration(59.6)).toBe('1:00');
    expect(formatDuration(61.4)).toBe('1:01');
  });

  it('adds hours for long tracks', () => {
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(36_000)).toBe('10:00:00');
  });

  it('is empty for an unknown or impossible duration', () => {
    expect(formatDuration(null)).toBe('');
    expect(formatDuration(undefined)).toBe('');
    expect(formatDuration(-1)).toBe('');
    expect(formatDuration(Number.NaN)).toBe('');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('');
  });
});

describe('groupIssues', () => {
  it('separates errors from warnings, each in line then column order, whole-file issues first', () => {
    const groups = groupIssues([issue(9, 'warning', 'w9'), issue(4, 'error', 'e4b', 7), issue(null, 'warning', 'wall'), issue(4, 'error', 'e4a', 2), issue(2, 'error', 'e2')]);
    expect(groups.errors.map((one) => one.code)).toEqual(['e2', 'e4a', 'e4b']);
    expect(groups.warnings.map((one) => one.code)).toEqual(['wall', 'w9']);
  });

  it('treats an unknown severity as a warning and leaves the input untouched', () => {
    const input = [issue(3, 'notice'), issue(1, 'error')];
    expect(groupIssues(input).warnings).toHaveLength(1);
    expect(input.map((one) => one.line)).toEqual([3, 1]);
  });

  it('names where an issue is', () => {
    expect(issueLocation(issue(4, 'error'))).toBe('Line 4');
    expect(issueLocation(issue(4, 'error', 'x', 12))).toBe('Line 4, column 12');
    expect(issueLocation(issue(null, 'warning'))).toBe('Whole file');
  });
});

describe('describeImportFailure', () => {
  const failure = (source: 'file' | 'text' | 'url', status: number, body: Record<string, unknown>) =>
    describeImportFailure(source, status, toProblem(status, { title: 'Engine title', status, detail: 'Engine detail.', code: 'some_code', ...body }), body);

  it('413 states the limit in MiB and how to get under it', () => {
    const result = failure('file', 413, { max_bytes: 10 * 1024 * 1024 });
    expect(result.problem.title).toBe('The file is too large');
    expect(result.problem.detail).toBe('Imports accept at most 10 MiB.');
    expect(result.problem.code).toBe('some_code');
    expect(result.nextSteps.join(' ')).toMatch(/Split the playlist/);
    expect(failure('text', 413, { max_chars: 5_000_000 }).problem.detail).toBe('Pasted text may have at most 5,000,000 characters.');
    expect(failure('file', 413, {}).problem.detail).toMatch(/larger than this engine accepts/);
  });

  it('415 lists the readable formats in words', () => {
    const result = failure('file', 415, { readable_formats: ['csv', 'm3u8', 'json'] });
    expect(result.problem.title).toBe('This file cannot be read');
    expect(result.problem.detail).toBe('This engine reads CSV, M3U8, Open Playlist JSON.');
    expect(result.readableFormats).toEqual(['csv', 'm3u8', 'json']);
    expect(result.nextSteps[0]).toMatch(/one of these formats/);
  });

  it('415 without formats keeps the engine detail and points at the plugins', () => {
    const result = failure('file', 415, {});
    expect(result.problem.detail).toBe('Engine detail.');
    expect(result.readableFormats).toBeUndefined();
    expect(result.nextSteps[0]).toMatch(/Plugins page/);
  });

  it('422 with a connect action names the provider to connect', () => {
    const result = failure('url', 422, { action: { type: 'connect_source_account', provider: 'spotify', display_name: 'Spotify' } });
    expect(result.problem.title).toBe('Connect a Spotify account first');
    expect(result.problem.detail).toBe('Engine detail.');
    expect(result.connect).toEqual({ provider: 'spotify', displayName: 'Spotify' });
    expect(result.nextSteps[0]).toMatch(/Connections/);
  });

  it('422 for a refused URL keeps the reason and suggests what else to do', () => {
    const result = failure('url', 422, { reason: 'host_not_allowed' });
    expect(result.problem.title).toBe('This link cannot be imported');
    expect(result.reason).toBe('host_not_allowed');
    expect(result.nextSteps[0]).toMatch(/OPL_IMPORT_URL_ALLOWED_HOSTS/);
    expect(failure('url', 422, { reason: 'something_new' }).nextSteps[0]).toMatch(/Check the link/);
  });

  it('422 with issues groups them', () => {
    const result = failure('text', 422, {
      issues: [
        { line: 3, column: null, code: 'bad', message: 'Bad line', severity: 'error' },
        { line: 1, column: null, code: 'meh', message: 'Odd line', severity: 'warning' },
      ],
    });
    expect(result.problem.title).toBe('Nothing could be read from this text');
    expect(result.issues?.errors.map((one) => one.line)).toEqual([3]);
    expect(result.issues?.warnings.map((one) => one.line)).toEqual([1]);
    // The page lists the issues before the next step, so the step points up at them.
    expect(result.nextSteps).toEqual(['Fix what the issues above name, then import it again.']);
  });

  it('422 over a limit says to split the import', () => {
    const result = failure('file', 422, { max_tracks: 10, track_count: 11 });
    expect(result.problem.title).toBe('This file cannot be imported');
    expect(result.problem.detail).toBe('Engine detail.');
    expect(result.nextSteps[0]).toMatch(/Split the import/);
  });

  it('502 says to try again later', () => {
    const result = failure('url', 502, { reason: 'timeout' });
    expect(result.problem.title).toBe('The remote server did not deliver the playlist');
    expect(result.nextSteps[0]).toMatch(/^Try again later/);
  });

  it('keeps the problem as it is for other statuses', () => {
    const result = failure('file', 401, {});
    expect(result.problem.title).toBe('Engine title');
    expect(result.nextSteps).toEqual([]);
    expect(describeImportFailure('file', 0, { title: 'Cannot reach the engine', status: 0 }, undefined).nextSteps[0]).toMatch(/engine is running/);
  });
});

describe('import helpers', () => {
  it('formats sizes in MiB', () => {
    expect(formatMiB(10 * 1024 * 1024)).toBe('10 MiB');
    expect(formatMiB(1.5 * 1024 * 1024)).toBe('1.5 MiB');
    expect(formatMiB(512 * 1024 * 1024)).toBe('512 MiB');
  });

  it('names formats', () => {
    expect(formatLabel('m3u8')).toBe('M3U8');
    expect(formatLabel('json')).toBe('Open Playlist JSON');
    expect(formatLabel('abc')).toBe('ABC');
    expect(formatLabel(null)).toBe('Unknown');
  });

  it('percent-encodes the file name and encodes the id in paths', () => {
    expect(uploadHeaders('Road Trip – Été.m3u8', '')).toEqual({
      'x-filename': 'Road%20Trip%20%E2%80%93%20%C3%89t%C3%A9.m3u8',
      'content-type': 'application/octet-stream',
    });
    expect(uploadHeaders('a.csv', 'text/csv')['content-type']).toBe('text/csv');
    expect(importPath('a/b')).toBe('/api/imports/a%2Fb');
  });
});

describe('parseImportPreview', () => {
  const body = {
    id: '6f1c1d9e-0000-4000-8000-000000000001',
    kind: 'file',
    name: 'Road Trip.m3u8',
    format: 'm3u8',
    state: 'previewed',
    created_at: '2026-11-21T10:00:00.000Z',
    expires_at: '2026-11-22T10:00:00.000Z',
    playlist_count: 1,
    track_count: 30,
    playlists: [
      {
        name: 'Road Trip',
        description: null,
        track_count: 30,
        tracks: [{ title: 'Song', artist: 'Band', album: null, duration_s: 215, isrc: 'USAAA0000001', artists: ['Band'] }],
      },
    ],
    issues: [{ line: 4, column: null, code: 'missing_location', message: 'No location', severity: 'warning' }],
    collection_ids: ['0'],
  };

  it('reads the documented shape into camelCase', () => {
    const preview = parseImportPreview(body);
    expect(preview).toMatchObject({ id: body.id, expiresAt: body.expires_at, playlistCount: 1, trackCount: 30 });
    expect(preview?.playlists[0]).toMatchObject({ key: '0', name: 'Road Trip', trackCount: 30, tracks: [{ title: 'Song', durationS: 215, album: null }] });
    expect(preview?.issues[0]).toMatchObject({ line: 4, severity: 'warning' });
  });

  it('keys each playlist by the engine’s collection_ids, so two sharing an id stay apart', () => {
    const entry = (id: string | null, name: string) => ({ id, name, description: null, track_count: 0, tracks: [] });
    const preview = parseImportPreview({
      ...body,
      playlist_count: 3,
      playlists: [entry('dup', 'Whole'), entry('dup', 'Partial'), entry(null, 'No id')],
      collection_ids: ['dup', 'dup#1', '2'],
    });
    expect(preview?.playlists.map((playlist) => [playlist.key, playlist.name])).toEqual([
      ['dup', 'Whole'],
      ['dup#1', 'Partial'],
      ['2', 'No id'],
    ]);
  });

  it('refuses a body without collection_ids, or with malformed ones', () => {
    const { collection_ids: _, ...without } = body;
    expect(parseImportPreview(without)).toBeUndefined();
    expect(parseImportPreview({ ...body, collection_ids: '0' })).toBeUndefined();
    expect(parseImportPreview({ ...body, collection_ids: [0] })).toBeUndefined();
    expect(parseImportPreview({ ...body, collection_ids: [] })).toBeUndefined();
    expect(parseImportPreview({ ...body, collection_ids: ['0', '1'] })).toBeUndefined();
  });

  it('treats absent optional track fields as unknown', () => {
    const preview = parseImportPreview({ ...body, playlists: [{ name: 'P', description: null, track_count: 1, tracks: [{ title: 'T', artist: 'A' }] }] });
    expect(preview?.playlists[0]?.tracks[0]).toEqual({ title: 'T', artist: 'A', album: null, durationS: null, isrc: null, link: null });
  });

  it('names a song by its link: the first provider URI, else an http(s) link a file kept, never a path', () => {
    const tracks = [
      { title: '', artist: '', provider_uris: { tidal: 'tidal:track:2', spotify: 'spotify:track:1' } },
      { title: '', artist: '', metadata: { location: 'https://www.deezer.com/track/3135556' } },
      { title: '', artist: '', metadata: { source_uri: 'https://youtu.be/FGBhQbmPwH8', location: 'https://other.example/' } },
      { title: 'Local', artist: '', metadata: { location: 'C:\\Music\\a.mp3' } },
    ];
    const preview = parseImportPreview({ ...body, playlists: [{ name: 'P', description: null, track_count: 4, tracks }] });
    expect(preview?.playlists[0]?.tracks.map((track) => track.link)).toEqual(['spotify:track:1', 'https://www.deezer.com/track/3135556', 'https://youtu.be/FGBhQbmPwH8', null]);
  });

  it('refuses a body that is not an import preview', () => {
    expect(parseImportPreview(undefined)).toBeUndefined();
    expect(parseImportPreview({ ...body, id: 5 })).toBeUndefined();
    expect(parseImportPreview({ ...body, playlists: [{ name: 'P' }] })).toBeUndefined();
    expect(parseImportPreview({ ...body, issues: [{ line: 'four' }] })).toBeUndefined();
  });
});
