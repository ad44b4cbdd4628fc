import { describe, expect, it } from 'vitest';
import {
  availableFormat,
  describeExportFailure,
  entryResultLabel,
  EXPORT_FORMATS,
  exportBody,
  formatBytes,
  historyExportPath,
  parseExportManifest,
  parseWarningCodes,
  unavailableFormats,
  WARNING_CODES,
  warningLabel,
  warningSentence,
} from '../../../ui/src/api/exports.ts';
import type { Problem } from '../../../ui/src/api/problem.ts';

const problem = (status: number, code?: string, detail = 'The engine says why.'): Problem => ({ title: 'Engine title', status, detail, ...(code ? { code } : {}) });

describe('export requests', () => {
  it('names an account source by provider and account id, an import by "import" and its id', () => {
    const selection = { collectionIds: ['p1', 'p2'], tracks: {} };
    expect(exportBody({ kind: 'account', accountId: 'acc-1', provider: 'spotify' }, 'csv', selection)).toEqual({
      source_provider: 'spotify',
      source_account_id: 'acc-1',
      format: 'csv',
      selection: { playlist_ids: ['p1', 'p2'] },
    });
    expect(exportBody({ kind: 'import', importId: 'imp-1' }, 'json', { collectionIds: ['0'], tracks: {} })).toMatchObject({ source_provider: 'import', source_account_id: 'imp-1' });
  });

  it('lists a playlist with only some tracks in playlist_ids too, keeps the order, and drops empty track lists', () => {
    const body = exportBody({ kind: 'account', accountId: 'a', provider: 'tidal' }, 'm3u8', { collectionIds: ['p1'], tracks: { p2: ['pos:0', 'pos:3'], p3: [] } });
    expect(body['selection']).toEqual({ playlist_ids: ['p1', 'p2'], tracks: { p2: ['pos:0', 'pos:3'] } });
  });

  it('offers the five formats of the spec, each with a one-line explanation', () => {
    expect(EXPORT_FORMATS.map((format) => format.value)).toEqual(['csv', 'txt', 'm3u8', 'xspf', 'json']);
    for (const format of EXPORT_FORMATS) expect(format.explanation.length, format.value).toBeGreaterThan(30);
    expect(historyExportPath('job/1')).toBe('/api/exports/migrations/job%2F1');
  });
});

describe('export warnings in words', () => {
  it('has a sentence and a short label for every warning code of the spec', () => {
    expect([...WARNING_CODES].sort()).toEqual(
      ['empty_playlist', 'historical_playlist_metadata_partial', 'historical_track_metadata_partial', 'missing_source_uri', 'partial_selection', 'playlist_read_failed', 'unsupported_items'].sort(),
    );
    for (const code of WARNING_CODES) {
      expect(warningSentence(code), code).toMatch(/^[A-Z].+\.$/);
      expect(warningLabel(code), code).not.toBe(code);
    }
    expect(warningSentence('partial_selection')).toBe('Only the tracks you picked were exported, not the whole playlist.');
    expect(warningSentence('new_code')).toContain('“new_code”');
  });

  it('reads an export manifest v1 and refuses anything else', () => {
    const manifest = parseExportManifest({
      schema_version: 1,
      format: 'csv',
      source_provider: 'spotify',
      playlist_count: 3,
      entries: [
        { playlist_id: 'p1', playlist_name: 'One', filename: 'One.csv', status: 'warning', track_count: 3, warning_codes: ['partial_selection'] },
        { playlist_id: 'p2', playlist_name: 'Two', filename: '', status: 'error', track_count: 0, warning_codes: ['playlist_read_failed'] },
        { playlist_id: 'p3', playlist_name: 'Three', filename: 'Three.csv', status: 'ok', track_count: 1, warning_codes: [] },
      ],
      warnings: [{ code: 'partial_selection', message: 'Only 3 of 9.', playlist_id: 'p1', count: 3 }, { code: 'playlist_read_failed', message: '' }, { message: 'no code' }],
    });
    expect(manifest?.entries.map((entry) => [entry.name, entry.status, entry.file, entryResultLabel(entry)])).toEqual([
      ['One', 'warning', 'One.csv', 'Exported, with warnings'],
      ['Two', 'error', null, 'Could not be read'],
      ['Three', 'ok', 'Three.csv', 'Exported'],
    ]);
    expect(entryResultLabel({ status: 'warning', trackCount: 0 })).toBe('Exported, no tracks');
    expect(manifest?.warnings).toEqual([
      { code: 'partial_selection', message: 'Only 3 of 9.', playlistId: 'p1', count: 3 },
      { code: 'playlist_read_failed', message: null, playlistId: null, count: null },
    ]);
    expect(parseExportManifest({ schema_version: 2, format: 'csv', entries: [] })).toBeUndefined();
    expect(parseExportManifest('nope')).toBeUndefined();
  });

  it('reads a codes header once each, ignoring junk', () => {
    expect(parseWarningCodes('partial_selection, empty_playlist,partial_selection,<script>')).toEqual(['partial_selection', 'empty_playlist']);
    expect(parseWarningCodes(null)).toEqual([]);
  });

  it('formats file sizes', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(20 * 1024 * 1024)).toBe('20 MiB');
  });
});

describe('refused exports in words, with the next action', () => {
  it('too many playlists: names the limit', () => {
    const failure = describeExportFailure('live', 422, problem(422, 'unprocessable_content'), { reason: 'too_many_playlists', max_playlists: 100 });
    expect(failure.problem.title).toBe('Too many playlists for one export');
    expect(failure.nextSteps.join(' ')).toContain('at most 100 playlists');
    expect(failure.reason).toBe('too_many_playlists');
  });

  it('an expired provider connection: reconnect on Connections', () => {
    const failure = describeExportFailure('live', 409, problem(409, 'provider_auth_expired'), { code: 'provider_auth_expired', action: { type: 'reconnect_account' } });
    expect(failure.action).toEqual({ kind: 'reconnect' });
    expect(failure.nextSteps.join(' ')).toMatch(/Reconnect the account/);
  });

  it('401 from the engine: sign in on Settings', () => {
    expect(describeExportFailure('live', 401, problem(401, 'session_required'), {}).action).toEqual({ kind: 'sign-in' });
  });

  it('rate limited: when to try again, from the body or the Retry-After header', () => {
    const fromBody = describeExportFailure('live', 429, problem(429, 'provider_rate_limited'), { retry_after_s: 29.2 });
    expect(fromBody.action).toEqual({ kind: 'retry', afterSeconds: 30 });
    expect(fromBody.nextSteps[0]).toContain('Try again in 30 seconds');
    expect(fromBody.problem.title).toBe('The music service asks to slow down');
    const fromHeader = describeExportFailure('live', 429, problem(429, 'rate_limited'), {}, '600');
    expect(fromHeader.nextSteps[0]).toContain('Try again in 10 minutes');
    expect(describeExportFailure('live', 429, problem(429), {}).action).toEqual({ kind: 'retry', afterSeconds: null });
  });

  it('expired sources: an import to import again, a migration whose details were deleted', () => {
    expect(describeExportFailure('live', 410, problem(410, 'gone'), {}).action).toEqual({ kind: 'import-again' });
    const history = describeExportFailure('history', 410, problem(410, 'migration_detail_expired'), {});
    expect(history.problem.title).toBe('The track details of this migration were deleted');
    expect(history.nextSteps[0]).toContain('OPL_MIGRATION_HISTORY_RETENTION_DAYS');
  });

  it('the engine reasons for unreadable playlists, whatever status they come with', () => {
    expect(describeExportFailure('live', 404, problem(404), { reason: 'playlist_not_found' }).problem.title).toBe('The playlist was not found');
    expect(describeExportFailure('live', 403, problem(403), { reason: 'playlist_access_denied' }).action).toEqual({ kind: 'reconnect' });
    expect(describeExportFailure('live', 422, problem(422), { reason: 'all_playlists_failed' }).nextSteps[0]).toContain('Nothing was downloaded');
    expect(describeExportFailure('history', 409, problem(409), { reason: 'migration_not_finished' }).problem.title).toBe('This migration has not ended yet');
  });

  it('unknown format lists what the engine writes; a network failure offers to try again', () => {
    expect(describeExportFailure('live', 422, problem(422), { reason: 'unknown_format', writable_formats: ['csv', 'json'] }).nextSteps[0]).toBe('Choose one of: csv, json.');
    expect(describeExportFailure('live', 0, problem(0, 'network_error'), undefined).action).toEqual({ kind: 'retry', afterSeconds: null });
  });

  it('a format whose plugin is not loaded, or stopped while writing: another format, or a retry', () => {
    const unloaded = describeExportFailure('live', 503, problem(503, 'service_unavailable'), { reason: 'format_unavailable', writable_formats: ['csv', 'json'] });
    expect(unloaded.problem.title).toBe('This format is not available on this engine right now');
    expect(unloaded.nextSteps).toEqual(['Choose one of: csv, json.', 'Its plugin was refused or quarantined; an administrator can see why on the Plugins page.']);
    expect(unloaded.action).toEqual({ kind: 'none' });
    expect(describeExportFailure('history', 503, problem(503, 'service_unavailable'), { reason: 'format_unavailable', writable_formats: [] }).nextSteps[0]).toBe('No export format plugin is loaded at the moment.');
    const stopped = describeExportFailure('live', 503, problem(503, 'service_unavailable'), { reason: 'format_unavailable', failure: 'memory_limit' });
    expect(stopped.problem.title).toBe('The format plugin stopped while writing the file');
    expect(stopped.action).toEqual({ kind: 'retry', afterSeconds: null });
  });

  it('reads which formats the engine cannot write now, and moves the choice off one of them', () => {
    const answer = { formats: [{ format: 'csv', available: false }, { format: 'txt', available: true }, { format: 'json', available: false }, { format: 'future', available: false }], max_playlists: 100 };
    const unavailable = unavailableFormats(answer);
    expect(unavailable && [...unavailable]).toEqual(['csv', 'json']);
    expect(availableFormat('csv', unavailable!)).toBe('txt');
    expect(availableFormat('m3u8', unavailable!)).toBe('m3u8');
    expect(availableFormat('csv', new Set(['csv', 'txt', 'm3u8', 'xspf', 'json']))).toBe('csv');
    // Anything but the documented shape: no list, so every format stays offered.
    for (const bad of [null, {}, { formats: 'csv' }, { formats: [{ format: 'csv' }] }, { formats: [{ format: 1, available: true }] }]) expect(unavailableFormats(bad)).toBeNull();
  });

  it('a server out of temporary space, or failing to write it: what happened, the wait asked for, and what the administrator checks', () => {
    const full = describeExportFailure('live', 503, problem(503, 'service_unavailable'), { reason: 'temporary_storage_full', errno: 'ENOSPC' }, '120');
    expect(full.problem.title).toBe('The engine has no room to build the file');
    expect(full.action).toEqual({ kind: 'retry', afterSeconds: 120 });
    expect(full.nextSteps.join(' ')).toContain('Try again in 2 minutes, or export fewer playlists at a time');
    expect(full.nextSteps.join(' ')).toContain('TMPDIR');
    expect(full.nextSteps.join(' ')).not.toContain('music service');
    expect(describeExportFailure('live', 503, problem(503), { reason: 'temporary_storage_full' }).nextSteps[0]).toMatch(/^Try again later, /);
    const failed = describeExportFailure('history', 503, problem(503), { reason: 'temporary_storage_failed', errno: 'EIO' });
    expect(failed.problem.title).toBe('The engine could not write the file');
    expect(failed.action).toEqual({ kind: 'retry', afterSeconds: null });
  });

  it('any other 502/503/504 keeps the Retry-After the answer came with', () => {
    const unavailable = describeExportFailure('live', 503, problem(503, 'service_unavailable'), {}, '30');
    expect(unavailable.action).toEqual({ kind: 'retry', afterSeconds: 30 });
    expect(unavailable.nextSteps[0]).toContain('Try again in 30 seconds.');
    expect(describeExportFailure('live', 502, problem(502), undefined).nextSteps[0]).toContain('Try again later.');
  });

  it('a body too large for the engine (413): tick whole playlists or split the tracks', () => {
    const failure = describeExportFailure('live', 413, problem(413, 'payload_too_large'), { code: 'payload_too_large' });
    expect(failure.problem.title).toBe('The selection is too large to send');
    expect(failure.nextSteps[0]).toContain('Tick whole playlists instead of thousands of their tracks');
  });

  it('a download that ran out of time or stopped part-way says so, not that the engine is down', () => {
    const timeout = describeExportFailure('live', 0, problem(0, 'download_timeout'), undefined);
    expect(timeout.nextSteps[0]).toContain('export fewer playlists at a time');
    expect(timeout.action).toEqual({ kind: 'retry', afterSeconds: null });
    const cut = describeExportFailure('live', 0, problem(0, 'download_interrupted'), undefined);
    expect(cut.nextSteps[0]).toContain('may be cutting long downloads');
    expect(cut.nextSteps[0]).not.toContain('engine is running');
  });

  it('keeps the engine’s own detail and code', () => {
    const failure = describeExportFailure('live', 422, problem(422, 'unprocessable_content', 'Exactly why.'), { reason: 'invalid_selection' });
    expect(failure.problem).toMatchObject({ detail: 'Exactly why.', code: 'unprocessable_content', status: 422 });
  });
});
