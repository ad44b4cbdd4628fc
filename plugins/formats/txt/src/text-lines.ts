/** One physical line of the decoded file with its 1-based number, as issues report it. */
export interface TextLine {
  readonly number: number;
  readonly text: string;
}

/** Splits on LF, CRLF or a lone CR (old Mac files); writers never put any of them inside a value. */
export function splitLines(text: string): TextLine[] {
  const parts = text.split(/\r\n|\n|\r/);
  // A final line end does not open another (empty) line.
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts.map((line, index) => ({ number: index + 1, text: line }));
}

/** Blank lines and `#` comments carry no rows in either the v1 layout or a plain list. */
export function isSkippable(line: string): boolean {
  const trimmed = line.trim();
  return trimmed === '' || trimmed.startsWith('#');
}
