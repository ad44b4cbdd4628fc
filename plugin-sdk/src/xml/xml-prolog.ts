import { XmlParseError } from './xml-parse-error.ts';

/** The one DOCTYPE `parseXml` may accept (see `XmlParseOptions.allowedDoctype`). */
export interface XmlAllowedDoctype {
  readonly name: string;
  readonly publicId: string;
  readonly systemId: string;
}

/** 1-based line and column of `index` in `text` (lines end at LF). */
export function positionOf(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) {
    line += 1;
    lineStart = at + 1;
  }
  return { line, column: index - lineStart + 1 };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `<!DOCTYPE name PUBLIC "publicId" "systemId">`, either quote style, nothing else: matched at a position (sticky). */
function allowedDoctypePattern(allowed: XmlAllowedDoctype): RegExp {
  const quoted = (value: string): string => `(?:"${escapeRegExp(value)}"|'${escapeRegExp(value)}')`;
  return new RegExp(`<!DOCTYPE[ \\t\\r\\n]+${escapeRegExp(allowed.name)}[ \\t\\r\\n]+PUBLIC[ \\t\\r\\n]+${quoted(allowed.publicId)}[ \\t\\r\\n]+${quoted(allowed.systemId)}[ \\t\\r\\n]*>`, 'y');
}

/** Longest allowed DOCTYPE waited for across pieces before it is refused as not the allowed one. */
const MAX_ALLOWED_DOCTYPE = 4096;

/**
 * Refuses a DOCTYPE before saxes buffers it: saxes reports a doctype only once it has read all of
 * it, and a hostile one (an entity-expansion bomb) may be long. A DOCTYPE can only stand in the
 * prolog, among comments and processing instructions, so walking those is exact. Returns whether
 * the prolog held the allowed DOCTYPE (exactly, no internal subset) — or, when `text` is only the
 * document's beginning (`complete` false, a document read in pieces), null while the beginning
 * read so far cannot tell: the caller reads another piece and asks again.
 */
export function prologDoctype(text: string, allowed: XmlAllowedDoctype | undefined, complete = true): boolean | null {
  const undecided = complete ? false : null;
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (at < text.length && ' \t\r\n'.includes(text[at]!)) at += 1;
    if (text.startsWith('<?', at)) {
      const end = text.indexOf('?>', at + 2);
      if (end === -1) return undecided;
      at = end + 2;
    } else if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at + 4);
      if (end === -1) return undecided;
      at = end + 3;
    } else if (text.startsWith('<!DOCTYPE', at)) {
      if (allowed !== undefined) {
        const pattern = allowedDoctypePattern(allowed);
        pattern.lastIndex = at;
        if (pattern.test(text)) return true;
        if (!complete && !text.includes('>', at) && text.length - at < MAX_ALLOWED_DOCTYPE) return null;
      }
      const { line, column } = positionOf(text, at);
      const only = allowed === undefined ? '' : ` other than <!DOCTYPE ${allowed.name} PUBLIC "${allowed.publicId}" "${allowed.systemId}">`;
      throw new XmlParseError(`a DOCTYPE${only} is not accepted (document type definitions and entity declarations are refused: entity expansion and external entities are a denial-of-service and file-disclosure risk)`, line, column);
    } else {
      // The end of what was read so far, or the start of what may yet be a comment, instruction or DOCTYPE.
      const rest = text.slice(at, at + 9);
      if (!complete && rest.length < 9 && ('<!DOCTYPE'.startsWith(rest) || '<!--'.startsWith(rest))) return null;
      return false;
    }
  }
}
