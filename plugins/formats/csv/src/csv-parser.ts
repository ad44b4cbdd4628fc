import { formatKit, type PlaylistInput } from '@opl/plugin-sdk';
import { delimiterName, detectDialect, readRecords, type CsvRecord, type RecordStats } from './csv-records.ts';
import { isV1Header, readCsvV1 } from './csv-v1-reader.ts';
import { HEADER_ROW } from './csv-writer.ts';
import { isExportifyHeader, readExportify } from './exportify-reader.ts';
import { isGenericHeader, readGeneric } from './generic-reader.ts';
import { HeaderIndex } from './header-index.ts';
import { isTakeoutPlaylistHeader, readTakeoutPlaylist } from './takeout-reader.ts';

/**
 * The first bytes of an .xlsx (a ZIP archive) and of an .xls (an OLE2 compound file), as windows-1252
 * decodes them: what a spreadsheet saved in its own format and renamed to .csv starts with.
 */
const WORKBOOK_SIGNATURES = ['PK\u0003\u0004', '\u00d0\u00cf\u0011\u00e0'];

/**
 * The first line of our own CSV v1 export (as written, or with its quotes dropped by a tool that
 * re-saved it): such a file is text by construction, however many control characters its values
 * hold (a title of 40 × U+0001 is written as it is, inside quotes), so the binary check passes it.
 */
const V1_EXPORT_STARTS = [HEADER_ROW.trimEnd(), formatKit.V1_COLUMNS.join(',')];

function isV1Export(text: string): boolean {
  return V1_EXPORT_STARTS.some((start) => formatKit.firstLineIs(text, start));
}

export interface ParsedCsv {
  readonly playlists: PlaylistInput[];
  readonly issues: formatKit.ParseIssue[];
}

/**
 * Decoded text → playlists. The delimiter comes from the header line, and the header decides the
 * layout once for the whole file: our CSV v1 (it names `schema_version`), an Exportify export
 * (`Track Name` with a Spotify URI or ID column, or `Artist Name(s)`), a Google Takeout YouTube
 * playlist (`Playlist Id`, `Channel Id`, …, then `Video Id` rows), or a generic track list with a
 * recognizable title, link or ID column. Anything else is refused with `unrecognized_columns`, and a
 * binary file (an Excel workbook renamed to .csv) with `binary_content`.
 */
export function parseCsv(text: string, filename: string | null, decoding: formatKit.Decoding = formatKit.PLAIN_UTF8): ParsedCsv {
  const issues = new formatKit.IssueCollector();
  // A workbook saved with a .csv name (or any binary file) would otherwise be "read" as a header of noise.
  if (!isV1Export(text) && formatKit.looksBinary(text, { nulIsBinary: false, legacyDecoded: decoding.encoding === 'windows-1252' })) {
    const workbook = WORKBOOK_SIGNATURES.some((signature) => text.startsWith(signature));
    issues.error(
      null,
      'binary_content',
      workbook
        ? 'the file is an Excel workbook, not CSV text: save it from Excel as "CSV UTF-8" and import that file'
        : 'the file is not a CSV text file (it contains binary data; UTF-16 files need a byte order mark)',
    );
    return { playlists: [], issues: issues.issues() };
  }
  const decodingWarning = formatKit.decodingWarning(decoding);
  if (decodingWarning !== null) issues.warn(decodingWarning.line, decodingWarning.code, decodingWarning.message);
  const dialect = detectDialect(text);
  const stats: RecordStats = { longRecords: 0 };
  const records = readRecords(text, dialect, issues, stats);
  const first = records.next();
  // A header too long to read has been reported as what refuses the file.
  if (first.done === true && stats.longRecords > 0) return { playlists: [], issues: issues.issues() };
  if (first.done === true) {
    issues.add(null, 'no_rows', 'the file is empty: it has no header row and no rows', 'warning');
    return { playlists: [], issues: issues.issues() };
  }
  const header: CsvRecord = first.value;
  // The rest of the records, read lazily by whichever layout reader takes the file.
  const rest: Iterable<CsvRecord> = { [Symbol.iterator]: () => records };
  let playlists: PlaylistInput[];
  const index = new HeaderIndex(header.cells);
  if (isV1Header(header.cells)) {
    playlists = readCsvV1(header, rest, issues);
  } else if (isExportifyHeader(index)) {
    playlists = readExportify(index, rest, formatKit.playlistNameFromFilename(filename), issues);
  } else if (isTakeoutPlaylistHeader(index)) {
    playlists = readTakeoutPlaylist(index, rest, formatKit.playlistNameFromFilename(filename), issues);
  } else if (isGenericHeader(header.cells)) {
    playlists = readGeneric(header.cells, rest, formatKit.playlistNameFromFilename(filename), issues);
  } else {
    issues.add(
      header.line,
      'unrecognized_columns',
      `the first row (${delimiterName(dialect.delimiter)}-separated: ${formatKit.shownHeaderCells(header.cells)}) names no columns this reader knows: expected the CSV v1 export columns, an Exportify export (Track Name, Artist Name(s), …) or at least a title column; nothing was imported`,
    );
    playlists = [];
  }
  // Rows skipped for their length and nothing else read: no playlist, not an empty import.
  if (stats.longRecords > 0 && playlists.every((playlist) => (playlist.tracks?.length ?? 0) === 0)) {
    formatKit.refuseLongLinesOnly(issues, stats.longRecords);
    return { playlists: [], issues: issues.issues() };
  }
  return { playlists, issues: issues.issues() };
}
