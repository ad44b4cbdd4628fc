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
  const rows = records[Symbol.iterator]();
  // The first row, read ahead when the header needs its schema_version, then read as a row first.
  let first: IteratorResult<CsvRecord> | undefined;
  const firstRowVersion = (position: number) => {
    first ??= rows.next();
    return first.done === true ? null : { version: first.value.cells[position] ?? '', line: first.value.line };
  };
  const columns = formatKit.readV1Header(header.cells, header.line, issues, FORMAT_LABEL, { ignoreCase: true, firstRowVersion });
  if (columns === null) return [];
  const grouper = new formatKit.V1RowGrouper(columns, issues, FORMAT_LABEL);
  const all: Iterable<CsvRecord> = {
    *[Symbol.iterator]() {
      if (first?.done === false) yield first.value;
      for (let next = rows.next(); next.done !== true; next = rows.next()) yield next.value;
    },
  };
  for (const record of all) {
    if (!acceptRow(record, columns.width, issues)) continue;
    if (!grouper.add(record.line, record.cells)) break;
  }
  return grouper.finish();
}
