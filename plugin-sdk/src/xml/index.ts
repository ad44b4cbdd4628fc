/**
 * Safe XML for format plugins (`import { parseXml, … } from '@opl/plugin-sdk'`).
 *
 * Plugins may import only `@opl/plugin-sdk`, so every XML format (XSPF, WPL, iTunes/Apple Music
 * `Library.xml`, …) reads and writes XML through this module; it is bundled into the plugin
 * (saxes, pure JavaScript, runs inside the sandbox) and drops out of plugins that do not use it.
 *
 * Decoding — `decodeXmlDocument(bytes, ctx.decodeText)`: BOM, then the XML declaration's encoding,
 * then strict UTF-8 (invalid UTF-8 refused); `xmlEncoding(bytes)` is that decision alone;
 * `decodeXmlPieces(bytes, ctx.decodeText)` decides and refuses the same way but decodes a piece
 * (about 1 MiB) at a time, for `parseXml` to read a large file without its whole text.
 *
 * Reading — `parseXml(text, { maxDepth, maxNodes, maxTextLength })`:
 * - takes a string, or the pieces `decodeXmlPieces` yields (the same rules and refusals; memory
 *   then follows what the reader keeps, not the file's size): decode the file first;
 * - returns the root `XmlElement` — `{ name, namespace, prefix, attributes, children, text, line,
 *   column }`, frozen, elements only, an element's direct character data (text + CDATA) joined in
 *   `text` — and `xmlChild` / `xmlChildren` find children by namespace URI and local name
 *   (compare namespaces, never prefixes; attributes with a prefix are keyed `{uri}local`);
 * - throws `XmlParseError` (an `InvalidInput`, with `line`/`column` and the position in its
 *   message) for: any DOCTYPE (no DTDs, so no entity declarations, billion laughs or external
 *   entities/XXE), entity references other than the five predefined ones (numeric character
 *   references are fine), malformed XML, unbound namespace prefixes, characters outside XML's
 *   Char production, and the limits (nesting depth, element count, text/attribute length);
 * - `allowedDoctype` opts in to one exact external DOCTYPE (`<!DOCTYPE plist PUBLIC "…" "…">`, no
 *   internal subset, never fetched) for formats whose real files always carry it;
 * - ignores comments and processing instructions (other than the XML declaration);
 * - builds the whole tree unless `onElement` drops what the reader has converted: linear in the
 *   input, but memory grows with what is kept, so set `maxNodes` for the largest file the format
 *   can sensibly have.
 *
 * Writing — `escapeXmlText` (element content) and `escapeXmlAttribute` (either quote style) strip
 * what XML 1.0 cannot carry (`stripXmlIllegalChars`) and escape the rest so it reads back equal.
 */
export { decodeXmlDocument, decodeXmlPieces, XML_PIECE_BYTES, xmlEncoding, type XmlEncoding } from './decode-xml.ts';
export { escapeXmlAttribute, escapeXmlText, stripXmlIllegalChars } from './escape-xml.ts';
export { parseXml, XML_PARSE_DEFAULTS, XmlParseError, type XmlAllowedDoctype, type XmlParseOptions, type XmlText } from './parse-xml.ts';
export { xmlAttributeKey, xmlChild, xmlChildren, type XmlElement, type XmlElementStart } from './xml-element.ts';
