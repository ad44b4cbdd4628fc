import { SaxesParser, type SaxesTagNS } from 'saxes';
import type { XmlElement, XmlElementStart } from './xml-element.ts';
import { XmlParseError } from './xml-parse-error.ts';
import { positionOf, prologDoctype, type XmlAllowedDoctype } from './xml-prolog.ts';

export { XmlParseError } from './xml-parse-error.ts';
export type { XmlAllowedDoctype } from './xml-prolog.ts';

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

export const XML_PARSE_DEFAULTS = { maxDepth: 64, maxNodes: 1_000_000, maxTextLength: 1_000_000 } as const satisfies Required<Omit<XmlParseOptions, 'onElement' | 'allowedDoctype'>>;


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

function freezeAttributes(tag: SaxesTagNS, maxTextLength: number, line: number, column: number, detach: boolean): Readonly<Record<string, string>> {
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
    attributes[attribute.prefix === '' ? attribute.local : `{${attribute.uri}}${attribute.local}`] = detach ? detached(attribute.value) : attribute.value;
  }
  return attributes === null ? NO_ATTRIBUTES : Object.freeze(attributes);
}

/**
 * A document for `parseXml`: its whole text, or a function that yields its text in consecutive
 * pieces (`decodeXmlPieces`), read once — and once more from the start, as far as the refusal,
 * only to explain why a document was refused.
 */
export type XmlText = string | (() => Iterable<string>);

/** Strings at least this long that V8 cuts from a string point into it (a "sliced string") instead of being copied. */
const SLICED_STRING_MIN_LENGTH = 13;

/**
 * `text` in a string of its own. What saxes reads from a piece of a document is cut from that
 * piece, and V8 keeps a whole string alive for as long as any cut from it lives: a reader that
 * keeps one title of each piece would keep every piece, so the whole text. Concatenating makes a
 * new string that slicing must flatten first, so the result points only into its own copy.
 */
function detached(text: string): string {
  return text.length < SLICED_STRING_MIN_LENGTH ? text : ` ${text}`.slice(1);
}

/**
 * The document's beginning, through the line saxes stopped on (an ampersand that broke the
 * document stands at or before that place): what `ampersandProblem` scans when the document came
 * in pieces, so a refusal never reads more of it than it must.
 */
function textThroughLine(pieces: () => Iterable<string>, line: number): string {
  let text = '';
  let lines = 1;
  for (const piece of pieces()) {
    text += piece;
    for (let at = piece.indexOf('\n'); at !== -1; at = piece.indexOf('\n', at + 1)) lines += 1;
    if (lines > line) break;
  }
  return text;
}

/**
 * Parses an XML document (a string, or a function yielding its pieces as `decodeXmlPieces` does:
 * decode the bytes first) into a frozen element tree, or throws `XmlParseError` (an
 * `InvalidInput`) with the line and column of the first problem. From pieces, memory follows what
 * the reader keeps (see `onElement`), not the document's size: no piece outlives its parsing, and
 * every text and attribute value kept is a string of its own (`detached`).
 *
 * Refused: any DOCTYPE (so no DTD, no entity declarations: no billion laughs, no external entity
 * / XXE), entity references other than the five predefined ones (`&lt; &gt; &amp; &quot;
 * &apos;`; numeric character references are fine), anything not well-formed (including characters
 * outside XML's Char production and unbound namespace prefixes, and a document that ends before
 * its root element does), and documents past the limits. Processing instructions other than the
 * XML declaration, and comments, are ignored.
 */
export function parseXml(source: XmlText, options: XmlParseOptions = {}): XmlElement {
  const maxDepth = options.maxDepth ?? XML_PARSE_DEFAULTS.maxDepth;
  const maxNodes = options.maxNodes ?? XML_PARSE_DEFAULTS.maxNodes;
  const maxTextLength = options.maxTextLength ?? XML_PARSE_DEFAULTS.maxTextLength;
  const onElement = options.onElement;
  const allowed = options.allowedDoctype;
  const inPieces = typeof source !== 'string';
  // Decided by the prolog walk before saxes reads anything (see `prologDoctype`).
  let hadDoctype = false;
  let doctypePending = false;

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
    const ampersand = ampersandProblem(inPieces ? textThroughLine(source, parser.line) : source);
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
    stack.push({ name: tag.local, namespace: tag.uri, prefix: tag.prefix, attributes: freezeAttributes(tag, maxTextLength, line, column, inPieces), children: null, text: '', line, column });
  });
  parser.on('closetag', () => {
    const open = stack.pop();
    if (open === undefined) return;
    open.children = open.children === null ? NO_CHILDREN : Object.freeze(open.children);
    if (inPieces) open.text = detached(open.text);
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

  if (inPieces) {
    // The beginning is held back until it tells whether a DOCTYPE stands in the prolog.
    let beginning: string | null = '';
    for (const piece of source()) {
      if (beginning === null) {
        parser.write(piece);
        continue;
      }
      beginning += piece;
      const doctype = prologDoctype(beginning, allowed, false);
      if (doctype === null) continue;
      hadDoctype = doctypePending = doctype;
      parser.write(beginning);
      beginning = null;
    }
    if (beginning !== null) {
      hadDoctype = doctypePending = prologDoctype(beginning, allowed) === true;
      parser.write(beginning);
    }
  } else {
    hadDoctype = doctypePending = prologDoctype(source, allowed) === true;
    parser.write(source);
  }
  parser.close();
  if (root === null) throw new XmlParseError('the document has no root element', null, null);
  return root;
}
