import { formatKit, type PlaylistInput } from '@opl/plugin-sdk';
import { readPlainList } from './plain-list-reader.ts';
import { readTable } from './table-reader.ts';
import { detectLayout } from './txt-layout.ts';
import { readTxtV1 } from './txt-v1-reader.ts';

export interface ParsedTxt {
  readonly playlists: PlaylistInput[];
  readonly issues: formatKit.ParseIssue[];
}

/**
 * Decoded text → playlists. A file that starts like TXT v1 (its comment line or its header row) is
 * read as v1, with every playlist it holds; a file whose first line is a tab-separated header
 * of column names (txt-layout.ts) is a track table; anything else is a plain list of tracks. Tables and
 * lists become one playlist named after the file. The choice is made once per file, never per
 * line (see txt-layout.ts). A binary file is refused with one issue.
 */
export function parseTxt(text: string, filename: string | null, encoding: formatKit.DetectedEncoding = 'utf-8'): ParsedTxt {
  const issues = new formatKit.IssueCollector();
  if (formatKit.looksBinary(text, { nulIsBinary: false })) {
    issues.error(null, 'binary_content', 'the file is not a text list (it contains binary data; UTF-16 files need a byte order mark)');
    return { playlists: [], issues: issues.issues() };
  }
  if (encoding === 'windows-1252') issues.warn(null, 'legacy_encoding', formatKit.LEGACY_ENCODING_WARNING);
  // Lines are read as they are needed: the choice looks at the first few, the reader then starts again.
  const layout = detectLayout(formatKit.textLines(text));
  const lines = formatKit.textLines(text);
  const playlists = layout === 'v1' ? readTxtV1(lines, issues) : layout === 'table' ? readTable(lines, filename, issues) : readPlainList(lines, filename, issues);
  return { playlists, issues: issues.issues() };
}
