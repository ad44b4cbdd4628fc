import { formatKit, InvalidInput, parseXml, type PlaylistInput, type XmlText } from '@opl/plugin-sdk';
import { readJspf } from './jspf-reader.ts';
import { playlistFromSource } from './source-playlist.ts';
import { XML_LIMITS } from './xml-limits.ts';
import { readXspf, XspfTrackStream } from './xspf-reader.ts';

export interface ParsedXspf {
  readonly playlists: PlaylistInput[];
  readonly issues: formatKit.ParseIssue[];
}

const FALLBACK_NAME = 'XSPF playlist';

/** The document's first character that is not white space, or what the document is when it has none. */
function firstMark(document: XmlText): string | { readonly empty: boolean } {
  // The whole text: a well-formed document may follow any amount of white space (a regular expression's scan is linear).
  if (typeof document === 'string') return /\S/.exec(document)?.[0] ?? { empty: document.length === 0 };
  let empty = true;
  for (const piece of document()) {
    const mark = /\S/.exec(piece)?.[0];
    if (mark !== undefined) return mark;
    empty &&= piece.length === 0;
  }
  return { empty };
}

/** All of a document's text, for the JSON reader (JSPF files are small: no reader keeps less than their text). */
function wholeText(document: XmlText): string {
  if (typeof document === 'string') return document;
  let text = '';
  for (const piece of document()) text += piece;
  return text;
}

/**
 * XSPF or JSPF, chosen by content: the first character that is not whitespace is `<` (XML) or `{`
 * (JSON); anything else is refused, naming what the file looks like. The extension only breaks a
 * tie that content cannot (it never can: the two start differently), so a `.jspf` file holding
 * XSPF is read as XSPF. XSPF is parsed as it is decoded when the document comes in pieces
 * (`decodeXmlPieces`), so a large file's text never exists whole.
 */
export function parseXspfDocument(document: XmlText, filename: string | null): ParsedXspf {
  const start = firstMark(document);
  const issues = new formatKit.IssueCollector();
  let source;
  if (start === '<') {
    // Tracks are read as they close (see XspfTrackStream): the tree never holds them all.
    const stream = new XspfTrackStream();
    source = readXspf(parseXml(document, { ...XML_LIMITS, onElement: stream.onElement }), issues, stream);
  }
  else if (start === '{') source = readJspf(wholeText(document));
  else if (typeof start !== 'string') throw new InvalidInput(start.empty ? 'the file is empty' : 'the file holds only whitespace');
  else throw new InvalidInput('not an XSPF or JSPF document: it does not start with "<" (XML) or "{" (JSON)');
  return { playlists: [playlistFromSource(source, formatKit.playlistNameFromFilename(filename, FALLBACK_NAME), issues)], issues: issues.issues() };
}
