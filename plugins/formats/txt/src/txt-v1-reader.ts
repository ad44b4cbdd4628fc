import { formatKit, type PlaylistInput } from '@opl/plugin-sdk';
import { tabCells } from './tab-cells.ts';
import { isSkippable } from './text-lines.ts';
import { SCHEMA_VERSION } from './txt-columns.ts';

/**
 * Reads the TXT v1 layout written by the serializer (and by anything else that follows SPEC
 * "Export file columns"): the comment lines, then the header row and the tab-separated rows, which
 * the SDK's v1 row reader (`formatKit.readV1Header` / `V1RowGrouper`, shared with CSV) turns into
 * playlists. Column names match exactly (CSV's match ignores case). Malformed rows are reported by
 * line and skipped; their neighbours are kept. A file re-saved by Excel reads back to the values
 * written: its quote-wrapped cells are unwrapped (tab-cells.ts), then the formula guard is removed.
 */

export const MAGIC_PATTERN = /^#\s*Open Playlist TXT\b/i;
const MAGIC_VERSION = /^#\s*Open Playlist TXT\s+v(\S*)/i;
const SCHEMA_COMMENT = /^#\s*schema_version\s*[=:]\s*([^\s;]*)/i;
const FORMAT_LABEL = 'TXT';

export function readTxtV1(lines: Iterator<formatKit.TextLine>, issues: formatKit.IssueCollector): PlaylistInput[] {
  let declared: { readonly version: string; readonly line: number } | null = null;
  // Read by hand rather than with for…of: leaving a for…of would close the iterator the rows come from.
  let headerLine: formatKit.TextLine | undefined;
  for (let next = lines.next(); !next.done; next = lines.next()) {
    const line = next.value;
    if (!isSkippable(line.text)) {
      headerLine = line;
      break;
    }
    const trimmed = line.text.trim();
    const magic = MAGIC_VERSION.exec(trimmed);
    if (magic && magic[1] !== SCHEMA_VERSION) {
      formatKit.unsupportedVersion(issues, line.number, magic[1] ?? '', FORMAT_LABEL);
      return [];
    }
    const schema = SCHEMA_COMMENT.exec(trimmed);
    if (schema && declared === null) declared = { version: schema[1] ?? '', line: line.number };
  }
  if (declared !== null && declared.version !== SCHEMA_VERSION) {
    formatKit.unsupportedVersion(issues, declared.line, declared.version, FORMAT_LABEL);
    return [];
  }
  if (headerLine === undefined) {
    issues.add(null, 'missing_header', 'the file starts like TXT v1 but has no header row naming the columns; nothing was imported');
    return [];
  }
  // The first row, read ahead when the header needs its schema_version (the file declared none), then read as a row first.
  let firstRow: formatKit.TextLine | null | undefined;
  const firstRowVersion = (position: number) => {
    if (firstRow === undefined) {
      firstRow = null;
      for (let next = lines.next(); !next.done; next = lines.next()) {
        if (isSkippable(next.value.text)) continue;
        firstRow = next.value;
        break;
      }
    }
    return firstRow === null ? null : { version: tabCells(firstRow.text)[position] ?? '', line: firstRow.number };
  };
  const header = formatKit.readV1Header(tabCells(headerLine.text), headerLine.number, issues, FORMAT_LABEL, declared === null ? { ignoreCase: false, firstRowVersion } : { ignoreCase: false });
  if (header === null) return [];
  // Without a schema comment, the first row's version speaks for the file.
  const grouper = new formatKit.V1RowGrouper(header, issues, FORMAT_LABEL, { versionDeclared: declared !== null });
  const rows: Iterator<formatKit.TextLine> = {
    next: () => {
      if (firstRow === undefined || firstRow === null) return lines.next();
      const value = firstRow;
      firstRow = null;
      return { done: false, value };
    },
  };
  for (let next = rows.next(); !next.done; next = rows.next()) {
    const line = next.value;
    if (isSkippable(line.text)) continue;
    const cells = tabCells(line.text);
    // Empty cells after the last column (trailing tabs) shift nothing.
    if (cells.length > header.width && cells.slice(header.width).some((cell) => cell.trim() !== '')) {
      issues.add(line.number, 'too_many_cells', `the row has ${cells.length} tab-separated cells but the header names ${header.width}; the row was skipped`);
      continue;
    }
    // Fewer cells are fine: editors that strip trailing whitespace drop trailing empty cells.
    if (!grouper.add(line.number, cells)) return [];
  }
  return grouper.finish();
}
