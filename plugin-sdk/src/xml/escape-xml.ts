/**
 * Writing XML safely. XML 1.0 cannot carry every string: most C0 control characters, lone
 * surrogates and U+FFFE/U+FFFF are outside its Char production (not even as `&#…;` references),
 * so a serializer strips them; everything else is escaped so that it reads back unchanged.
 */

/** Characters outside XML 1.0's Char production (#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]). */
const ILLEGAL_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** `text` without the characters XML 1.0 cannot represent. */
export function stripXmlIllegalChars(text: string): string {
  ILLEGAL_XML_CHARS.lastIndex = 0;
  return ILLEGAL_XML_CHARS.test(text) ? text.replace(ILLEGAL_XML_CHARS, '') : text;
}

const TEXT_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#xD;' };
const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = { ...TEXT_ESCAPES, '"': '&quot;', "'": '&apos;', '\t': '&#x9;', '\n': '&#xA;' };

/**
 * Element content: illegal characters stripped, `& < >` escaped (`>` too, so `]]>` cannot
 * appear), and CR as `&#xD;` (a literal one would come back as LF after line-end normalization).
 */
export function escapeXmlText(text: string): string {
  return stripXmlIllegalChars(text).replace(/[&<>\r]/g, (char) => TEXT_ESCAPES[char]!);
}

/**
 * An attribute value for either quote style: as `escapeXmlText`, plus both quotes and the
 * whitespace characters that attribute-value normalization would turn into spaces.
 */
export function escapeXmlAttribute(text: string): string {
  return stripXmlIllegalChars(text).replace(/[&<>\r"'\t\n]/g, (char) => ATTRIBUTE_ESCAPES[char]!);
}
