/**
 * What a finished download holds, for the words shown after it: the file, and its warnings as
 * precisely as the answer allows — an archive's `manifest.json` lists them all, a JSON bundle
 * carries them too, other single files only have the warning count header (and the codes header
 * when the engine sends one).
 */

import {
  MANIFEST_FILE_NAME,
  parseBundleWarnings,
  parseExportManifest,
  parseWarningCodes,
  ZIP_CONTENT_TYPE,
  type ExportWarning,
  type ManifestEntry,
} from '../../api/exports.ts';
import { readZipJson, ZipReadError } from './zip-reader.ts';

/** An optional header listing the distinct warning codes of a single-file export. */
export const WARNING_CODES_HEADER = 'x-open-playlist-warning-codes';

export interface DownloadedFile {
  readonly blob: Blob;
  readonly fileName: string;
  readonly warningCount: number;
  readonly headers: Headers;
}

export interface ExportResult {
  readonly fileName: string;
  readonly bytes: number;
  readonly archive: boolean;
  /** The engine's warning count header. */
  readonly warningCount: number;
  /** The warnings the answer lets us name. */
  readonly warnings: readonly ExportWarning[];
  /** Warnings counted by the engine that the file does not name (single CSV, TXT, M3U8, XSPF). */
  readonly unnamed: number;
  /** An archive's entries from its manifest. */
  readonly entries: readonly ManifestEntry[] | null;
  /** Every file in an archive. */
  readonly files: readonly string[] | null;
  /** Why the manifest or bundle could not be read (the file itself is still fine). */
  readonly note: string | null;
}

/** What the request asked for that decides warnings on its own: playlists sent with only some tracks. */
export interface Requested {
  readonly partialPlaylistIds: readonly string[];
}

function isArchive(file: DownloadedFile): boolean {
  const type = file.headers.get('content-type') ?? file.blob.type;
  return type.toLowerCase().startsWith(ZIP_CONTENT_TYPE) || /\.zip$/i.test(file.fileName);
}

function isBundle(file: DownloadedFile): boolean {
  const type = file.headers.get('content-type') ?? file.blob.type;
  return /open-playlist\+json/i.test(type) || /\.json$/i.test(file.fileName);
}

export async function readExportResult(file: DownloadedFile, requested: Requested): Promise<ExportResult> {
  const base = { fileName: file.fileName, bytes: file.blob.size, warningCount: file.warningCount };
  if (isArchive(file)) {
    try {
      const { entries, json } = await readZipJson(file.blob, MANIFEST_FILE_NAME);
      const manifest = parseExportManifest(json);
      const files = entries.map((entry) => entry.name);
      if (!manifest) return { ...base, archive: true, warnings: [], unnamed: file.warningCount, entries: null, files, note: `The archive has no readable ${MANIFEST_FILE_NAME}.` };
      return { ...base, archive: true, warnings: manifest.warnings, unnamed: Math.max(0, file.warningCount - manifest.warnings.length), entries: manifest.entries, files, note: null };
    } catch (error) {
      const why = error instanceof ZipReadError ? error.message : 'The browser could not open it.';
      return { ...base, archive: true, warnings: [], unnamed: file.warningCount, entries: null, files: null, note: `The archive’s manifest could not be read here: ${why}` };
    }
  }
  if (isBundle(file) && file.warningCount > 0) {
    try {
      const warnings = parseBundleWarnings(JSON.parse(await file.blob.text()) as unknown);
      if (warnings) return { ...base, archive: false, warnings, unnamed: Math.max(0, file.warningCount - warnings.length), entries: null, files: null, note: null };
    } catch {
      // Not a bundle after all: fall back to the header below.
    }
  }
  // A single file that does not carry its warnings: the codes header when sent, and what the
  // request itself decides (the spec raises partial_selection for every track selection).
  const codes = parseWarningCodes(file.headers.get(WARNING_CODES_HEADER));
  if (requested.partialPlaylistIds.length > 0 && !codes.includes('partial_selection')) codes.unshift('partial_selection');
  const warnings = file.warningCount === 0 ? [] : codes.slice(0, file.warningCount).map((code) => ({ code, message: null, playlistId: null, count: null }));
  return { ...base, archive: false, warnings, unnamed: Math.max(0, file.warningCount - warnings.length), entries: null, files: null, note: null };
}
