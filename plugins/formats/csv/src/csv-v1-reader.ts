import { formatKit, type PlaylistInput } from '@opl/plugin-sdk';
import type { CsvRecord } from './csv-records.ts';
import { acceptRow } from './row-shape.ts';

export const FORMAT_LABEL = 'CSV';

/** True when the header row names `schema_version`: the file is (meant to be) our CSV v1. */
export function isV1Header(names: readonly string[]): boolean {
  return names.some((name) => name.trim().toLowerCase() === 'schema_version');
}

/** CSV v1: the export columns, rows grouped back into playlists exactly as the TXT reader does. */
export function readCsvV1(header: CsvRecord, records: Iterable<CsvRecord>, issues: formatKit.IssueCollector): PlaylistInput[] {
  const columns = formatKit.readV1Header(header.cells, header.line, issues, FORMAT_LABEL);
  if (columns === null) return [];
  const grouper = new formatKit.V1RowGrouper(columns, issues, FORMAT_LABEL);
  for (const record of records) {
    if (!acceptRow(record, columns.width, issues)) continue;
    if (!grouper.add(record.line, record.cells)) break;
  }
  return grouper.finish();
}
