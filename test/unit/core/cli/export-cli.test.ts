import { describe, expect, it } from 'vitest';
import { dispositionFileName, downloadNameProblem, insideDirectory, safeDownloadName } from '../../../../core/cli/export/download-file-name.ts';
import { ExportUsageError, parseExportOptions } from '../../../../core/cli/export/export-options.ts';
import { warningCodes, warningInWords } from '../../../../core/cli/export/warning-words.ts';

const ACCOUNT = '2f1c8a52-5d0e-4b8e-9a57-3c1d2e4f5a6b';

describe('opl export options', () => {
  it('reads a live export with playlists and track selections', () => {
    expect(parseExportOptions(['--source', `spotify:${ACCOUNT}`, '--playlist', 'a', '--playlist', 'a', '--tracks', 'b=pos:0, t1', '--tracks', 'b=t2', '--format', 'csv', '-o', 'out/'])).toEqual({
      mode: 'live',
      source: { kind: 'account', provider: 'spotify', accountId: ACCOUNT },
      playlistIds: ['a'],
      tracks: { b: ['pos:0', 't1', 't2'] },
      format: 'csv',
      out: 'out/',
      force: false,
      url: null,
    });
    expect(parseExportOptions(['--source', `import:${ACCOUNT}`, '--format', 'json'])).toMatchObject({ source: { kind: 'import', importId: ACCOUNT } });
    expect(parseExportOptions(['--source', ACCOUNT, '--format', 'json'])).toMatchObject({ source: { kind: 'account', provider: null, accountId: ACCOUNT } });
    expect(parseExportOptions(['--migration', ACCOUNT, '--format', 'xspf', '--force'])).toMatchObject({ mode: 'migration', jobId: ACCOUNT, force: true });
  });

  it('refuses what it cannot read with a sentence', () => {
    const cases: string[][] = [
      ['--format', 'csv'],
      ['--source', `spotify:${ACCOUNT}`],
      ['--source', `spotify:${ACCOUNT}`, '--format', 'docx'],
      ['--source', 'spotify', '--format', 'csv'],
      ['--source', 'import:abc', '--format', 'csv'],
      ['--source', `spotify:${ACCOUNT}`, '--tracks', '=x', '--format', 'csv'],
      ['--source', `spotify:${ACCOUNT}`, '--tracks', 'p=', '--format', 'csv'],
      ['--migration', 'nope', '--format', 'csv'],
      ['--migration', ACCOUNT, '--playlist', 'x', '--format', 'csv'],
      ['--source', `spotify:${ACCOUNT}`, '--format', 'csv', 'stray'],
      ['--unknown'],
    ];
    for (const args of cases) expect(() => parseExportOptions(args), args.join(' ')).toThrow(ExportUsageError);
  });
});

describe('download names from Content-Disposition', () => {
  it('prefers filename*, falls back to filename', () => {
    expect(dispositionFileName(`attachment; filename="Road Trip.csv"; filename*=UTF-8''Road%20Trip%20%C3%89t%C3%A9.csv`)).toBe('Road Trip Été.csv');
    expect(dispositionFileName('attachment; filename="a \\"b\\".csv"')).toBe('a "b".csv');
    expect(dispositionFileName(`attachment; filename=plain.csv; filename*=UTF-8''%E0%A4%A`)).toBe('plain.csv');
    expect(dispositionFileName(null)).toBeNull();
    expect(dispositionFileName('inline')).toBeNull();
  });

  it('keeps only a safe base name', () => {
    expect(safeDownloadName('../../etc/passwd', 'f')).toBe('passwd');
    expect(safeDownloadName('..\\..\\boot.ini', 'f')).toBe('boot.ini');
    expect(safeDownloadName('nul.txt', 'f')).toBe('_nul.txt');
    expect(safeDownloadName('a<b>c|d?.csv', 'f')).toBe('a_b_c_d_.csv');
    expect(safeDownloadName('.hidden', 'f')).toBe('hidden');
    expect(safeDownloadName('..', 'f')).toBe('f');
    expect(safeDownloadName('x/', 'f')).toBe('f');
    expect(safeDownloadName(null, 'f')).toBe('f');
    expect(safeDownloadName('y'.repeat(500), 'f')).toHaveLength(200);
  });

  it('never resolves outside the directory', () => {
    expect(insideDirectory('/tmp/out', 'a.csv')).toBe('/tmp/out/a.csv');
    expect(insideDirectory('/tmp/out', '../a.csv')).toBe('/tmp/out/a.csv');
  });
});

describe('warnings in words', () => {
  it('reads a codes header and explains every spec code', () => {
    expect(warningCodes('partial_selection, empty_playlist,partial_selection,,BAD CODE')).toEqual(['partial_selection', 'empty_playlist']);
    expect(warningCodes(null)).toEqual([]);
    for (const code of ['partial_selection', 'empty_playlist', 'unsupported_items', 'missing_source_uri', 'playlist_read_failed', 'historical_playlist_metadata_partial', 'historical_track_metadata_partial']) {
      expect(warningInWords(code)).not.toBe('see the export for details');
    }
  });
});

describe('downloadNameProblem: -o names what arrives', () => {
  it('takes an archive named .zip and a single file named anything else', () => {
    expect(downloadNameProblem('/out/all.zip', 'application/zip', 'csv')).toBeNull();
    expect(downloadNameProblem('/out/ALL.ZIP', 'application/zip', 'csv')).toBeNull();
    expect(downloadNameProblem('/out/one.csv', 'text/csv; charset=utf-8', 'csv')).toBeNull();
    expect(downloadNameProblem('/out/one.txt', 'text/csv; charset=utf-8', 'csv')).toBeNull();
  });

  it('refuses an archive under another name and a single file named .zip, naming the file to ask for', () => {
    expect(downloadNameProblem('/out/all.csv', 'application/zip', 'csv')).toBe(
      "The export holds several playlists, so it is a ZIP archive (one csv file per playlist and manifest.json), and all.csv does not end in .zip. Nothing was written: choose -o /out/all.zip, or -o /out/ to save it under the engine's name.",
    );
    expect(downloadNameProblem('/out/backup', 'application/zip', 'json')).toContain('choose -o /out/backup.zip');
    expect(downloadNameProblem('/out/x.zip', 'application/vnd.apple.mpegurl', 'm3u8')).toBe(
      "The export is one playlist, so it is a single m3u8 file, not a ZIP archive, and x.zip ends in .zip. Nothing was written: choose -o /out/x.m3u8, or -o /out/ to save it under the engine's name.",
    );
  });
});
