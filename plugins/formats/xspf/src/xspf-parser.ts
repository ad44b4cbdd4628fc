import { formatKit, InvalidInput, parseXml, type PlaylistInput } from '@opl/plugin-sdk';
import { readJspf } from './jspf-reader.ts';
import { playlistFromSource } from './source-playlist.ts';
import { XML_LIMITS } from './xml-limits.ts';
import { readXspf, XspfTrackStream } from './xspf-reader.ts';

export interface ParsedXspf {
  readonly playlists: PlaylistInput[];
  readonly issues: formatKit.ParseIssue[];
}

const FALLBACK_NAME = 'XSPF playlist';

/**
 * XSPF or JSPF, chosen by content: the first character that is not whitespace is `<` (XML) or `{`
 * (JSON); anything else is refused, naming what the file looks like. The extension only breaks a
 * tie that content cannot (it never can: the two start differently), so a `.jspf` file holding
 * XSPF is read as XSPF.
 */
export function parseXspfText(text: string, filename: string | null): ParsedXspf {
  // The whole text: a well-formed document may follow any amount of white space (a regular expression's scan is linear).
  const start = /\S/.exec(text)?.[0];
  const issues = new formatKit.IssueCollector();
  let source;
  if (start === '<') {
    // Tracks are read as they close (see XspfTrackStream): the tree never holds them all.
    const stream = new XspfTrackStream();
    source = readXspf(parseXml(text, { ...XML_LIMITS, onElement: stream.onElement }), issues, stream);
  }
  else if (start === '{') source = readJspf(text);
  else if (start === undefined) throw new InvalidInput(text.length === 0 ? 'the file is empty' : 'the file holds only whitespace');
  else throw new InvalidInput('not an XSPF or JSPF document: it does not start with "<" (XML) or "{" (JSON)');
  return { playlists: [playlistFromSource(source, formatKit.playlistNameFromFilename(filename, FALLBACK_NAME), issues)], issues: issues.issues() };
}
