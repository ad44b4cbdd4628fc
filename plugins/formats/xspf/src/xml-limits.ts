/**
 * Limits of the XML tree the reader accepts (`parseXml`), and how the writer stays within them.
 * XSPF nests five levels (plus our extension's three), a track takes about ten elements, and every
 * text the model bounds is at most 10,000 characters (longer ones are cut with a warning), so the
 * parser allows slack before refusing — while a hostile document (a DOCTYPE, entity bombs, one
 * 50 MB text) is still refused before it costs memory.
 *
 * The model does not bound everything the writer puts in a text, though: `metadata` and
 * `provider_metadata` are free-form JSON of any size, a date-time may carry any number of
 * fractional digits, and an imported location (`metadata.location`) is any text. So the writer
 * never puts more than `maxTextLength` characters in one element: an extension field longer than
 * that is written as consecutive `<opl:part>` children, which the reader joins (see
 * `textParts`); `<date>` gives way to the extension's `opl:created_at`; a `<location>` is left out
 * (the extension keeps it). The whole document stays bounded by the host's upload limit.
 */
// maxNodes: a rich track as our writer writes it is about 21 elements (location, identifiers, the
// extension's fields and their items), so the engine's largest import (OPL_IMPORT_MAX_TRACKS,
// 100,000 tracks) needs 2.1 million; the tracks are streamed (a closed <track> is dropped), so
// the count bounds parsing time, not memory, which the upload's byte limit bounds.
export const XML_LIMITS = { maxDepth: 32, maxNodes: 4_000_000, maxTextLength: 1_000_000 } as const;

const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

/**
 * `text` in consecutive pieces of at most `max` UTF-16 code units (`max` ≥ 2), never cut inside a
 * surrogate pair (a half would be a lone surrogate, which XML cannot carry). What the reader
 * reads back from a piece is never longer than the piece: escaping (`&amp;`, `&#xD;`) is undone
 * by the parser, and characters XML cannot carry are stripped.
 */
export function textParts(text: string, max: number = XML_LIMITS.maxTextLength): string[] {
  const parts: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + max, text.length);
    if (end < text.length && HIGH_SURROGATE.test(text[end - 1]!)) end -= 1;
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts;
}
