import { formatKit, type PlaylistInput } from '@opl/plugin-sdk';
import { delimiterName, detectDialect, readRecords, type CsvRecord } from './csv-records.ts';
import { isV1Header, readCsvV1 } from './csv-v1-reader.ts';
import { isExportifyHeader, readExportify } from './exportify-reader.ts';
import { isGenericHeader, readGeneric } from './generic-reader.ts';
import { HeaderIndex } from './header-index.ts';

export interface ParsedCsv {
  readonly playlists: PlaylistInput[];
  readonly issues: formatKit.ParseIssue[];
}

/**
 * Decoded text → playlists. The delimiter comes from the header line, and the header decides the
 * layout once for the whole file: our CSV v1 (it names `schema_version`), an Exportify export
 * (`Track Name` with a Spotify URI or ID column, or `Artist Name(s)`), or a generic track list
 * with a recognizable title column. Anything else is refused with `unrecognized_columns`.
 */
export function parseCsv(text: string, filename: string | null, encoding: string = 'utf-8'): ParsedCsv {
  const issues = new formatKit.IssueCollector();
  if (encoding === 'windows-1252') {
    issues.warn(null, 'legacy_encoding', formatKit.LEGACY_ENCODING_WARNING);
  }
  const dialect = detectDialect(text);
  const records = readRecords(text, dialect, issues);
  const first = records.next();
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
  return { playlists, issues: issues.issues() };
}
