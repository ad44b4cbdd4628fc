/**
 * `#OPL-*` values are written on one line. Every character that any common reader treats as a
 * line break — LF, CR, VT, FF, NEL (U+0085), LINE SEPARATOR (U+2028), PARAGRAPH SEPARATOR
 * (U+2029) — is escaped, so a value can never start a new line, let alone a new directive. The
 * backslash itself is escaped first so reading undoes exactly what writing did:
 *
 * `\` → `\\`, LF → `\n`, CR → `\r`, VT, FF, NEL, U+2028, U+2029 → `\uXXXX` (four hex digits).
 *
 * Reading accepts exactly those escapes; any other backslash sequence is kept as written.
 */

const LINE_BREAKING = /[\\\n\r\v\f\u0085\u2028\u2029]/g;

export function escapeValue(value: string): string {
  return value.replace(LINE_BREAKING, (char) => {
    if (char === '\\') return '\\\\';
    if (char === '\n') return '\\n';
    if (char === '\r') return '\\r';
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

export function unescapeValue(value: string): string {
  if (!value.includes('\\')) return value;
  return value.replace(/\\(?:(\\)|(n)|(r)|u([0-9a-fA-F]{4}))/g, (match: string, backslash?: string, lf?: string, cr?: string, hex?: string) => {
    if (backslash !== undefined) return '\\';
    if (lf !== undefined) return '\n';
    if (cr !== undefined) return '\r';
    return hex === undefined ? match : String.fromCharCode(parseInt(hex, 16));
  });
}

/**
 * Text for the standard, human-facing directives (`#PLAYLIST:`, `#EXTINF:`): players show these
 * as they are, so line breaks become spaces instead of escapes. When that changes a value, the
 * exact value also goes into an `#OPL-*` comment.
 */
export function oneLine(value: string): string {
  return value.replace(/[\n\r\v\f\u0085\u2028\u2029]/g, ' ');
}
