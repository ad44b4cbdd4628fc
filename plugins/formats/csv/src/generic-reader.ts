import { formatKit, type PlaylistInput } from '@opl/plugin-sdk';
import type { CsvRecord } from './csv-records.ts';
import { acceptRow } from './row-shape.ts';

/**
 * The fallback for any other spreadsheet: a header with a recognizable title column (`title`,
 * `track`, `song`, `name`, …) and optionally artist, album, ISRC, duration and link columns. The
 * column mapping and the row reading are the SDK's track tables (`formatKit.trackTableColumns`,
 * `formatKit.TrackTableReader`), shared with the tabular form of TXT: names matched
 * case-insensitively, the artist cell kept as written, durations in seconds, clock form or
 * milliseconds, Spotify/TIDAL links as provider URIs. The file is one playlist named after the upload.
 */

export function isGenericHeader(names: readonly string[]): boolean {
  return formatKit.trackTableColumns(names) !== null;
}

export function readGeneric(names: readonly string[], records: Iterable<CsvRecord>, name: string, issues: formatKit.IssueCollector): PlaylistInput[] {
  const columns = formatKit.trackTableColumns(names);
  if (columns === null) return [];
  const table = new formatKit.TrackTableReader(columns, issues);
  for (const record of records) {
    if (!acceptRow(record, columns.width, issues)) continue;
    table.add(record.line, record.cells);
  }
  const tracks = table.finish();
  if (tracks.length === 0) issues.add(null, 'no_tracks', 'the file has a header but no track rows', 'warning');
  return [{ name, tracks }];
}
