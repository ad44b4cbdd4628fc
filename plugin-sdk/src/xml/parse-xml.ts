import { SaxesParser, type SaxesTagNS } from 'saxes';
import { InvalidInput } from '../errors.ts';
import type { XmlElement, XmlElementStart } from './xml-element.ts';

export interface XmlParseOptions {
  /** Deepest element nesting accepted (the root is depth 1). Default 64. */
  readonly maxDepth?: number;
  /** Most elements accepted in one document. Default 1,000,000. */
  readonly maxNodes?: number;
  /** Longest character data of one element, and longest attribute value, in UTF-16 code units. Default 1,000,000. */
  readonly maxTextLength?: number;
  /**
   * Streaming: called as each element closes (children before parents, in document order) with
   * the element and its open ancestors (`path[0]` is the root, the last entry is the parent).
   * Returning false drops the element from its parent's `children`, so a reader that converts
   * each record (an XSPF `<track>`) as it closes never holds the whole tree: memory stays
   * proportional to the deepest open path plus what the reader keeps. The root is always returned.
   * An exception thrown here ends the parse and propagates unchanged.
   */
  readonly onElement?: (element: XmlElement, path: readonly XmlElementStart[]) => boolean;
  /**
   * Opt-in for one well-known DOCTYPE a format's real files always carry (the Apple property-list
   * DOCTYPE of iTunes `Library.xml`). Accepted only when it is exactly `<!DOCTYPE name PUBLIC
   * "publicId" "systemId">` with these three values — no internal subset, so no entity or other
   * declarations — and the root element is `name`. Nothing is fetched: the DTD is never read, so
   * entity references other than the predefined five stay refused. Any other DOCTYPE is refused.
   */
  readonly allowedDoctype?: XmlAllowedDoctype;
}

/** The one DOCTYPE `parseXml` may accept (see `XmlParseOptions.allowedDoctype`). */
export interface XmlAllowedDoctype {
  readonly name: string;
  readonly publicId: string;
  readonly systemId: string;
}

export const XML_PARSE_DEFAULTS = { maxDepth: 64, maxNodes: 1_000_000, maxTextLength: 1_000_000 } as const satisfies Required<Omit<XmlParseOptions, 'onElement' | 'allowedDoctype'>>;

/**
 * A document `parseXml` refused. It is an `InvalidInput`, so it crosses the sandbox boundary as
 * one; the position is also in the message, because only the message survives that crossing.
 */
export class XmlParseError extends InvalidInput {
  readonly line: number | null;
  readonly column: number | null;

  constructor(reason: string, line: number | null, column: number | null) {
    super(line === null ? `XML refused: ${reason}` : `XML refused at line ${line}, column ${column ?? 1}: ${reason}`);
    this.line = line;
    this.column = column;
  }
}

/**
 * An element from its start tag to its end tag. It is the very object returned, frozen at the end
 * tag: one allocation per element rather than an open record plus a frozen copy (a large document
 * is millions of elements, and the garbage they leave is much of the parse's cost).
 */
interface OpenElement extends XmlElementStart {
  /** Null until a first child is kept; at the end tag, that list frozen (or the shared empty one). */
  children: XmlElement[] | readonly XmlElement[] | null;
  /** Joined as it comes (V8 concatenates lazily): one fewer array per element than collecting the pieces. */
  text: string;
}

/** Shared by every element without attributes or children: large documents are mostly leaves. */
const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze(Object.create(null) as Record<string, string>);
const NO_CHILDREN: readonly XmlElement[] = Object.freeze([]);

const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';

function positionOf(text: string, index: number): { line: number; column: number } {
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

/**
 * Refuses a DOCTYPE before saxes buffers it: saxes reports a doctype only once it has read all of
 * it, and a hostile one (an entity-expansion bomb) may be long. A DOCTYPE can only stand in the
 * prolog, among comments and processing instructions, so walking those is exact. Returns whether
 * the prolog held the allowed DOCTYPE (exactly, no internal subset).
 */
function refuseDoctypeInProlog(text: string, allowed: XmlAllowedDoctype | undefined): boolean {
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (at < text.length && ' \t\r\n'.includes(text[at]!)) at += 1;
    if (text.startsWith('<?', at)) {
      const end = text.indexOf('?>', at + 2);
      if (end === -1) return false;
      at = end + 2;
    } else if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at + 4);
      if (end === -1) return false;
      at = end + 3;
    } else {
      if (text.startsWith('<!DOCTYPE', at)) {
        if (allowed !== undefined) {
          const pattern = allowedDoctypePattern(allowed);
          pattern.lastIndex = at;
          if (pattern.test(text)) return true;
        }
        const { line, column } = positionOf(text, at);
        const only = allowed === undefined ? '' : ` other than <!DOCTYPE ${allowed.name} PUBLIC "${allowed.publicId}" "${allowed.systemId}">`;
        throw new XmlParseError(`a DOCTYPE${only} is not accepted (document type definitions and entity declarations are refused: entity expansion and external entities are a denial-of-service and file-disclosure risk)`, line, column);
      }
      return false;
    }
  }
}

/**
 * Where an ampersand breaks the document, when one does. saxes reads everything from a `&` to the
 * next `;` as one entity name, so a bare `&` (`Simon & Garfunkel`, the most common mistake in a
 * hand-written file) is reported lines later as an unclosed tag or a bad character in an entity
 * name. Comments, CDATA sections and processing instructions may hold any `&`; elsewhere only the
 * five predefined entities and character references may follow one (a DOCTYPE could declare no
 * others: it is refused). Only asked after saxes has refused the document.
 */
// An unclosed comment, CDATA section or instruction runs to the end (`$`): one pass, never a rescan per `<!--`.
const AMPERSAND_SCAN = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<\?[\s\S]*?(?:\?>|$)|&(?!(?:amp|lt|gt|quot|apos);|#[0-9]+;|#x[0-9A-Fa-f]+;)/g;
const ENTITY_REFERENCE = /^&([A-Za-z_:][\w.:-]{0,99});/;

function ampersandProblem(text: string): XmlParseError | null {
  AMPERSAND_SCAN.lastIndex = 0;
  for (let match = AMPERSAND_SCAN.exec(text); match !== null; match = AMPERSAND_SCAN.exec(text)) {
    if (match[0] !== '&') continue;
    const { line, column } = positionOf(text, match.index);
    const entity = ENTITY_REFERENCE.exec(text.slice(match.index, match.index + 102))?.[1];
    if (entity !== undefined) {
      return new XmlParseError(`undefined entity "&${entity};": XML knows only &amp; &lt; &gt; &quot; &apos; and character references such as &#233; (for the text itself write &amp;${entity};)`, line, column);
    }
    if (text[match.index + 1] === '#') return null; // a malformed character reference: saxes says so, at the right place
    return new XmlParseError('a bare "&": in XML an ampersand in text or in an attribute value is written &amp;', line, column);
  }
  return null;
}

function freezeAttributes(tag: SaxesTagNS, maxTextLength: number, line: number, column: number): Readonly<Record<string, string>> {
  let attributes: Record<string, string> | null = null;
  // for-in, not Object.values: no array per tag, and a tag without attributes (most elements of a
  // large document) costs only the loop's setup. saxes makes `attributes` without a prototype, so
  // every key is its own.
  const all = tag.attributes;
  for (const key in all) {
    const attribute = all[key]!;
    if (attribute.value.length > maxTextLength) throw new XmlParseError(`attribute "${attribute.name.slice(0, 100)}" is longer than ${maxTextLength} characters`, line, column);
    if (attribute.uri === XMLNS_NAMESPACE) continue;
    attributes ??= Object.create(null) as Record<string, string>;
    attributes[attribute.prefix === '' ? attribute.local : `{${attribute.uri}}${attribute.local}`] = attribute.value;
  }
  return attributes === null ? NO_ATTRIBUTES : Object.freeze(attributes);
}

/**
 * Parses a whole XML document (a string: decode the bytes first) into a frozen element tree,
 * or throws `XmlParseError` (an `InvalidInput`) with the line and column of the first problem.
 *
 * Refused: any DOCTYPE (so no DTD, no entity declarations: no billion laughs, no external entity
 * / XXE), entity references other than the five predefined ones (`&lt; &gt; &amp; &quot;
 * &apos;`; numeric character references are fine), anything not well-formed (including characters
 * outside XML's Char production and unbound namespace prefixes), and documents past the limits.
 * Processing instructions other than the XML declaration, and comments, are ignored.
 */
export function parseXml(text: string, options: XmlParseOptions = {}): XmlElement {
  const maxDepth = options.maxDepth ?? XML_PARSE_DEFAULTS.maxDepth;
  const maxNodes = options.maxNodes ?? XML_PARSE_DEFAULTS.maxNodes;
  const maxTextLength = options.maxTextLength ?? XML_PARSE_DEFAULTS.maxTextLength;
  const onElement = options.onElement;
  const allowed = options.allowedDoctype;
  const hadDoctype = refuseDoctypeInProlog(text, allowed);
  let doctypePending = hadDoctype;

  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: OpenElement[] = [];
  let root: XmlElement | null = null;
  let nodes = 0;
  const fail = (reason: string): never => {
    throw new XmlParseError(reason, parser.line, parser.column + 1);
  };
  const appendText = (data: string): void => {
    const open = stack[stack.length - 1];
    // Outside the root only whitespace reaches here (saxes reports anything else as an error).
    if (open === undefined) return;
    if (open.text.length + data.length > maxTextLength) fail(`the text of <${open.name.slice(0, 100)}> is longer than ${maxTextLength} characters`);
    open.text = open.text === '' ? data : open.text + data;
  };

  // saxes keeps each handler in a property it adds to the parser. V8 turns the parser into a slow
  // dictionary-mode object once a seventh is added, and the whole parse then takes about three
  // times as long: these six handlers are all it may get.
  // saxes starts its message with "line:column: " (no file name is set); ours says where already.
  parser.on('error', (error) => {
    // An ampersand at or before the place saxes stopped is the cause, wherever saxes noticed it.
    const ampersand = ampersandProblem(text);
    if (ampersand !== null && ampersand.line !== null && (ampersand.line < parser.line || (ampersand.line === parser.line && (ampersand.column ?? 0) <= parser.column + 1))) throw ampersand;
    fail(error.message.replace(/^\d+:\d+: /, ''));
  });
  parser.on('doctype', () => {
    // The prolog walk has already matched this one DOCTYPE exactly; a second is never accepted.
    if (doctypePending) {
      doctypePending = false;
      return;
    }
    fail('a DOCTYPE is not accepted (document type definitions and entity declarations are refused)');
  });
  parser.on('opentag', (tag) => {
    if (nodes === 0 && hadDoctype && tag.name !== allowed?.name) {
      fail(`the root element is <${tag.name.slice(0, 100)}>, not <${allowed?.name ?? ''}> as the DOCTYPE says`);
    }
    nodes += 1;
    if (nodes > maxNodes) fail(`the document has more than ${maxNodes} elements`);
    if (stack.length + 1 > maxDepth) fail(`elements are nested deeper than ${maxDepth} levels`);
    const line = parser.line;
    const column = parser.column + 1;
    // Keys in XmlElement's order: the object becomes the element itself at its end tag.
    stack.push({ name: tag.local, namespace: tag.uri, prefix: tag.prefix, attributes: freezeAttributes(tag, maxTextLength, line, column), children: null, text: '', line, column });
  });
  parser.on('closetag', () => {
    const open = stack.pop();
    if (open === undefined) return;
    open.children = open.children === null ? NO_CHILDREN : Object.freeze(open.children);
    // Its children are now a frozen list, so the frozen object is exactly an XmlElement.
    const element = Object.freeze(open) as XmlElement;
    const parent = stack[stack.length - 1];
    if (parent === undefined) root = element;
    if (onElement !== undefined && !onElement(element, stack)) return;
    // A parent is open, so its list (when it has one) is still the mutable one.
    if (parent !== undefined) {
      if (parent.children === null) parent.children = [element];
      else (parent.children as XmlElement[]).push(element);
    }
  });
  parser.on('text', appendText);
  parser.on('cdata', appendText);

  parser.write(text);
  parser.close();
  if (root === null) throw new XmlParseError('the document has no root element', null, null);
  return root;
}
