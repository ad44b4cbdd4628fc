/**
 * A TXT v1 row is one line of tab-separated cells, so a value may contain neither the delimiter
 * nor a line break. They are replaced by one space each (not escaped): the format stays readable
 * in any editor and spreadsheet, at the cost of those characters not round-tripping. Besides tab,
 * LF and CR this covers the other characters editors and line readers treat as line breaks
 * (vertical tab, form feed, NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR).
 */

const BREAKING = /[\t\n\v\f\r\u0085\u2028\u2029]/g;

export function sanitizeCell(value: string): string {
  return value.replace(BREAKING, ' ');
}
