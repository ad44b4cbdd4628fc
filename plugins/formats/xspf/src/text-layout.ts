import { uriReferenceProblem } from './uri-reference.ts';

/**
 * What the reader makes of the text of a standard element, shared with the writer so that it
 * knows which values a standard element carries exactly (and which it must repeat in the
 * extension, see extension-fields.ts).
 */

const LINE_BREAK = /[\r\n]/;

/**
 * Text (`<title>`, `<creator>`, `<annotation>`, `<album>`) as written — titles and names may begin
 * or end with spaces — but for white space holding a line break at its start or end: that is a
 * pretty-printer's layout (`<title>\n    Hunter\n  </title>`, as Python's minidom wrote it), never
 * part of a name. Line breaks inside the text stay.
 */
export function withoutLayout(text: string): string {
  // trimStart/trimEnd and a test of what they cut: linear, where a regular expression on a long run of spaces is not.
  const start = text.length - text.trimStart().length;
  if (LINE_BREAK.test(text.slice(0, start))) text = text.slice(start);
  const end = text.trimEnd().length;
  if (LINE_BREAK.test(text.slice(end))) text = text.slice(0, end);
  return text;
}

/** A URI-typed element's value (`<image>`, `<location>`, `<date>` …): white space around it is layout (anyURI collapses it); empty is none. */
export function uriText(text: string): string | null {
  const value = text.trim();
  return value === '' ? null : value;
}

/** True when a text element holding `text` reads back as exactly `text`. */
export function textReadsBack(text: string | null): boolean {
  return text === null || withoutLayout(text) === text;
}

/** `<image>` for a model artwork URI: the URI other software can use, or null when there is none to write. */
export function imageUri(uri: string | null): string | null {
  const value = uri === null ? null : uriText(uri);
  return value !== null && uriReferenceProblem(value) === null ? value : null;
}

/** True when `<image>` carries `uri` exactly (null: no element). */
export function imageReadsBack(uri: string | null): boolean {
  return uri === null || imageUri(uri) === uri;
}
