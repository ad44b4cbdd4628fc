/**
 * Whether a text is a URI reference, as XSPF 1 types `<location>`, `<identifier>`, `<info>`,
 * `<image>`, `<license>`, `<link>` (and its `rel`), `<meta rel>`, `<extension application>` and
 * the `<attribution>` entries (https://xspf.org/spec). Any of them may be relative: the spec
 * resolves relative references against the base URI (XML Base, its section "Relative paths"),
 * and its errata say `rel` and `application` may be relative too (`<meta rel="playCount">` is
 * legal, `rel="play count"` is not). So nothing here demands an absolute URI; what is checked is
 * RFC 3986's syntax:
 *
 * - only URI characters: unreserved `A–Z a–z 0–9 - . _ ~`, the delimiters `: / ? # [ ] @
 *   ! $ & ' ( ) * + , ; =`, and `%` escapes — plus non-ASCII characters (U+00A0 and above),
 *   which RFC 3987 IRIs and XML Schema's anyURI (XSPF's schema type) allow and real files hold
 *   (`file:///C:/Música/…`). No space, `\`, `"`, `<`, `>`, `^`, `` ` ``, `{`, `|`, `}` or
 *   control character;
 * - every `%` followed by two hexadecimal digits;
 * - at most one `#` (a fragment holds no other);
 * - `[` and `]` only around the host (an IPv6 literal, `http://[::1]/`);
 * - without a scheme, no colon before the first `/`, `?` or `#` (`:x` is no reference; a
 *   scheme is a letter then letters, digits, `+ - .`, so `C:/a.mp3` is a URI of scheme `c`).
 *
 * The caller trims the text first: anyURI collapses surrounding white space.
 */

const NOT_URI_CHARACTER = /[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%\u00A0-\u{10FFFF}]/u;
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
/** `scheme://authority`: the authority ends at the first `/`, `?` or `#`. */
const AUTHORITY = /^(?:[A-Za-z][A-Za-z0-9+.-]*:)?\/\/([^/?#]*)/;
const C1_CONTROLS = /[\u0080-\u009F]/;

function named(char: string): string {
  if (char === ' ') return 'a space';
  if (char === '\t' || char === '\n' || char === '\r') return 'a line break or tab';
  const code = char.codePointAt(0)!;
  return code < 0x20 || code === 0x7f ? `the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `"${char}"`;
}

/** Why `text` is no URI reference (a few words, for a message), or null when it is one. */
export function uriReferenceProblem(text: string): string | null {
  const bad = NOT_URI_CHARACTER.exec(text)?.[0] ?? C1_CONTROLS.exec(text)?.[0];
  if (bad !== undefined) return `it holds ${named(bad)}, which a URI must percent-encode`;
  if (BAD_ESCAPE.test(text)) return 'it holds a "%" that is not followed by two hexadecimal digits';
  const hash = text.indexOf('#');
  if (hash !== -1 && text.includes('#', hash + 1)) return 'it holds a second "#"';
  const authority = AUTHORITY.exec(text)?.[1] ?? '';
  const brackets = (text.match(/[[\]]/g) ?? []).length;
  if (brackets > 0 && (brackets !== 2 || !/^(?:[^@[\]]*@)?\[[^[\]]+\](?::\d*)?$/.test(authority))) return 'it holds "[" or "]" outside an IPv6 host';
  if (!SCHEME.test(text) && /^[^/?#]*:/.test(text)) return 'it has a colon before any "/" but no scheme before it';
  return null;
}
