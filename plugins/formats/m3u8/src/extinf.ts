/**
 * `#EXTINF:<duration>[ <attributes>],<display>` — the entry line of extended M3U.
 *
 * - `<duration>` is seconds (whole or decimal, as HLS writes them); `-1` (or any negative) means
 *   unknown, which is what players write for a radio stream (`lengthUnknown`).
 * - `<attributes>` are IPTV-style `key="value"` pairs (`tvg-id="x" group-title="y"`) or bare
 *   `key=value`; quoted values may hold commas and spaces.
 * - `<display>` is everything after the first comma outside quotes: `Artist - Title` or a bare
 *   title (split by the SDK's `formatKit.splitArtistTitle`). It may contain further commas.
 *
 * One linear scan; a malformed line still yields what could be read plus a problem description.
 */

export interface Extinf {
  /** Seconds, or null when unknown or unreadable. */
  readonly duration: number | null;
  /** The line gives the length as unknown (`-1`, any negative), as players write for streams. */
  readonly lengthUnknown: boolean;
  readonly attributes: Readonly<Record<string, string>>;
  readonly display: string;
  /** Why the line is malformed (what was read is still returned), or null. */
  readonly problem: string | null;
}

const MAX_DURATION_SECONDS = 1_000_000;
const ATTRIBUTE = /([^\s=",]+)=(?:"([^"]*)"|([^\s",]*))/g;

/** Index of the first comma that is not inside a double-quoted attribute value, or -1. */
function separatorIndex(body: string): number {
  let quoted = false;
  for (let index = 0; index < body.length; index++) {
    const char = body.charCodeAt(index);
    if (char === 0x22) quoted = !quoted;
    else if (char === 0x2c && !quoted) return index;
  }
  return -1;
}

function readDuration(token: string): { value: number | null; problem: string | null } {
  if (!/^[+-]?\d{1,15}(?:\.\d{1,9})?$/.test(token)) return { value: null, problem: `the duration "${token.slice(0, 40)}" is not a number of seconds` };
  const seconds = Number(token);
  if (seconds < 0) return { value: null, problem: null };
  if (seconds > MAX_DURATION_SECONDS) return { value: null, problem: `the duration ${token} is longer than ${MAX_DURATION_SECONDS} seconds` };
  return { value: seconds, problem: null };
}

/** `body` is the text after `#EXTINF:`. */
export function parseExtinf(body: string): Extinf {
  const comma = separatorIndex(body);
  const head = (comma === -1 ? body : body.slice(0, comma)).trim();
  const display = comma === -1 ? '' : body.slice(comma + 1).trim();
  const space = head.search(/\s/);
  const durationToken = space === -1 ? head : head.slice(0, space);
  const attributeText = space === -1 ? '' : head.slice(space + 1);
  const attributes: Record<string, string> = {};
  for (const match of attributeText.matchAll(ATTRIBUTE)) {
    const key = match[1] as string;
    // The first of a repeated key wins; `hasOwn`, not `in`: `constructor="…"` is an attribute like any other.
    if (!Object.hasOwn(attributes, key)) attributes[key] = match[2] ?? match[3] ?? '';
  }
  const duration = durationToken === '' ? { value: null, problem: 'the duration is missing' } : readDuration(durationToken);
  let problem = duration.problem;
  if (comma === -1) problem = body.includes('"') && (body.split('"').length - 1) % 2 === 1 ? 'an attribute value is not closed by a quote' : 'the comma before the title is missing';
  const lengthUnknown = duration.problem === null && duration.value === null;
  return { duration: duration.value, lengthUnknown, attributes, display, problem };
}
