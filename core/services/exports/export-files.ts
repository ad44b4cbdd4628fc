import type { ExportFormat, ExportManifest, ExportWarning } from '@opl/plugin-sdk/schemas';

/** What an export file is: its chunking, names, content types and endings (SPEC "Export endpoints"). */

/** Response streaming chunk size (SPEC "Limits"). */
export const EXPORT_CHUNK_BYTES = 64 * 1024;
/** The bundle's file inside a multi-playlist JSON archive. */
export const BUNDLE_FILE_NAME = 'open-playlist-bundle.json';
export const MANIFEST_FILE_NAME = 'manifest.json';

export const EXPORT_CONTENT_TYPES: Record<ExportFormat | 'zip', string> = {
  csv: 'text/csv; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  m3u8: 'application/vnd.apple.mpegurl',
  xspf: 'application/xspf+xml',
  json: 'application/vnd.open-playlist+json',
  zip: 'application/zip',
};

/** The file name ending of each export format. */
export const EXPORT_EXTENSIONS: Record<ExportFormat, string> = { csv: '.csv', txt: '.txt', m3u8: '.m3u8', xspf: '.xspf', json: '.json' };

/** A finished export file, before its size is taken and it is handed to the caller. */
export interface BuiltExport {
  path: string;
  contentType: string;
  fileName: string;
  unicodeFileName: string;
  manifest: ExportManifest | null;
  warnings: ExportWarning[];
}
