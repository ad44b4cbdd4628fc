import { formatKit, type PlaylistInput } from '@opl/plugin-sdk';
import { isTitleByArtistList, readPlainList } from './plain-list-reader.ts';
import { readTable } from './table-reader.ts';
import { detectLayout } from './txt-layout.ts';
import { MAGIC_LINE } from './txt-columns.ts';
import { readTxtV1 } from './txt-v1-reader.ts';

/**
 * What a web page or an XML document (an XSPF or WPL playlist, an iTunes library) starts with:
 * saved as .txt, its lines would become titles of markup. A title may start with `<` (`<3`), not like this.
 */
const MARKUP_START = /^<(?:!doctype\s|html[\s>]|\?xml\s)/i;

export interface ParsedTxt {
  readonly playlists: PlaylistInput[];
  readonly issues: formatKit.ParseIssue[];
}

/**
 * Decoded text → playlists. A file that starts like TXT v1 (its comment line or its header row) is
 * read as v1, with every playlist it holds; a file whose first line is a tab-separated header
 * of column names (txt-layout.ts) is a track table; anything else is a plain list of tracks
 * (`Artist - Title` lines, or `Title by Artist` when the whole list is written so). Tables and
 * lists become one playlist named after the file. The choice is made once per file, never per
 * line (see txt-layout.ts). A binary file, a web page or an XML document is refused with one issue.
 * A line longer than `formatKit.MAX_LINE_LENGTH` is skipped with a `line_too_long` error; a file
 * left with no track once such lines are skipped is refused (`nothing_readable`).
 */
/** The first line that is not blank, or null. */
function firstLine(text: string): formatKit.TextLine | null {
  for (const line of new formatKit.ReadableLines(text, null)) if (line.text.trim() !== '') return line;
  return null;
}

export function parseTxt(text: string, filename: string | null, decoding: formatKit.Decoding = formatKit.PLAIN_UTF8): ParsedTxt {
  const issues = new formatKit.IssueCollector();
  // Our own TXT v1 export is text by construction, however many control characters its values hold
  // (a title of 40 × U+0001 is written as it is): its first line passes it past the binary check.
  const ownExport = formatKit.firstLineIs(text, MAGIC_LINE);
  if (!ownExport && formatKit.looksBinary(text, { nulIsBinary: false, legacyDecoded: decoding.encoding === 'windows-1252' })) {
    issues.error(null, 'binary_content', 'the file is not a text list (it contains binary data; UTF-16 files need a byte order mark)');
    return { playlists: [], issues: issues.issues() };
  }
  const markup = firstLine(text);
  if (markup !== null && MARKUP_START.test(markup.text.trim())) {
    issues.error(markup.number, 'not_txt', 'the file is an HTML or XML document (a web page, or an XML playlist), not a text list of tracks; nothing was imported');
    return { playlists: [], issues: issues.issues() };
  }
  const decodingWarning = formatKit.decodingWarning(decoding);
  if (decodingWarning !== null) issues.warn(decodingWarning.line, decodingWarning.code, decodingWarning.message);
  // Lines are read as they are needed: the choice looks at the first few, the reader then starts
  // again. Lines too long to read are passed over by every pass, and reported by the reading one.
  const layout = detectLayout(new formatKit.ReadableLines(text, null));
  const readable = new formatKit.ReadableLines(text, issues);
  const lines = readable[Symbol.iterator]();
  const playlists =
    layout === 'v1'
      ? readTxtV1(lines, issues)
      : layout === 'table'
        ? readTable(lines, filename, issues)
        : readPlainList(lines, filename, issues, isTitleByArtistList(new formatKit.ReadableLines(text, null)));
  // Lines skipped for their length and no track read: no playlist, not an empty import.
  if (readable.skipped > 0 && playlists.every((playlist) => (playlist.tracks?.length ?? 0) === 0)) {
    formatKit.refuseLongLinesOnly(issues, readable.skipped);
    return { playlists: [], issues: issues.issues() };
  }
  return { playlists, issues: issues.issues() };
}
