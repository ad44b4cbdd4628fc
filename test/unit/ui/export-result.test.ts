import { Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { describe, expect, it } from 'vitest';
import { readExportResult, WARNING_CODES_HEADER } from '../../../ui/src/components/export-page/export-result.ts';

async function zip(files: Record<string, string>): Promise<Blob> {
  const archive = new ZipArchive({ forceZip64: true, zlib: { level: 6 } });
  const chunks: Buffer[] = [];
  archive.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => archive.on('end', () => resolve()));
  for (const [name, text] of Object.entries(files)) archive.append(Readable.from([Buffer.from(text)]), { name });
  await archive.finalize();
  await ended;
  return new Blob([Buffer.concat(chunks)]);
}

const headers = (entries: Record<string, string>) => new Headers(entries);

describe('what a download holds', () => {
  it('an archive: its files, manifest entries and every warning', async () => {
    const manifest = {
      schema_version: 1,
      format: 'csv',
      playlist_count: 2,
      entries: [
        { playlist_id: 'a', playlist_name: 'A', filename: 'A.csv', status: 'warning', track_count: 2, warning_codes: ['partial_selection'] },
        { playlist_id: 'b', playlist_name: 'B', filename: 'B.csv', status: 'warning', track_count: 0, warning_codes: ['empty_playlist'] },
      ],
      warnings: [
        { code: 'partial_selection', message: 'Only 2 of the 5 tracks of "A" were selected and exported.', playlist_id: 'a', count: 2 },
        { code: 'empty_playlist', message: '"B" has no tracks.', playlist_id: 'b', count: 0 },
      ],
    };
    const blob = await zip({ 'A.csv': 'x', 'B.csv': 'y', 'manifest.json': JSON.stringify(manifest) });
    const result = await readExportResult({ blob, fileName: 'Export.zip', warningCount: 2, headers: headers({ 'content-type': 'application/zip' }) }, { partialPlaylistIds: ['a'] });
    expect(result).toMatchObject({ archive: true, fileName: 'Export.zip', unnamed: 0, files: ['A.csv', 'B.csv', 'manifest.json'], note: null });
    expect(result.entries?.map((entry) => [entry.name, entry.file, entry.status])).toEqual([
      ['A', 'A.csv', 'warning'],
      ['B', 'B.csv', 'warning'],
    ]);
    expect(result.warnings.map((warning) => warning.code)).toEqual(['partial_selection', 'empty_playlist']);
  });

  it('an archive that cannot be opened keeps the count and says why', async () => {
    const result = await readExportResult({ blob: new Blob(['not a zip']), fileName: 'x.zip', warningCount: 3, headers: headers({ 'content-type': 'application/zip' }) }, { partialPlaylistIds: [] });
    expect(result).toMatchObject({ archive: true, warnings: [], unnamed: 3 });
    expect(result.note).toMatch(/no end-of-directory record/);
  });

  it('a JSON bundle carries its warnings', async () => {
    const bundle = { schema_version: 1, playlists: [], warnings: [{ code: 'unsupported_items', message: '2 episodes' }] };
    const result = await readExportResult({ blob: new Blob([JSON.stringify(bundle)]), fileName: 'A.json', warningCount: 1, headers: headers({ 'content-type': 'application/vnd.open-playlist+json' }) }, { partialPlaylistIds: [] });
    expect(result.warnings).toEqual([{ code: 'unsupported_items', message: '2 episodes', playlistId: null, count: null }]);
    expect(result.unnamed).toBe(0);
  });

  it('a single CSV: the codes header when sent, partial_selection from the request, the rest counted', async () => {
    const csv = new Blob(['\uFEFF"schema_version"']);
    const withCodes = await readExportResult({ blob: csv, fileName: 'A.csv', warningCount: 2, headers: headers({ 'content-type': 'text/csv', [WARNING_CODES_HEADER]: 'partial_selection,unsupported_items' }) }, { partialPlaylistIds: ['a'] });
    expect(withCodes.warnings.map((warning) => warning.code)).toEqual(['partial_selection', 'unsupported_items']);
    expect(withCodes.unnamed).toBe(0);
    const counted = await readExportResult({ blob: csv, fileName: 'A.csv', warningCount: 2, headers: headers({ 'content-type': 'text/csv' }) }, { partialPlaylistIds: ['a'] });
    expect(counted.warnings.map((warning) => warning.code)).toEqual(['partial_selection']);
    expect(counted.unnamed).toBe(1);
    const none = await readExportResult({ blob: csv, fileName: 'A.csv', warningCount: 0, headers: headers({ 'content-type': 'text/csv' }) }, { partialPlaylistIds: [] });
    expect(none).toMatchObject({ warnings: [], unnamed: 0, archive: false, bytes: csv.size });
  });
});
