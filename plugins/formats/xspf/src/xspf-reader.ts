import { InvalidInput, xmlAttributeKey, type XmlElement, type XmlElementStart } from '@opl/plugin-sdk';
import { DeferredWarnings, type Warnings } from './deferred-warnings.ts';
import type { RawField } from './extension-fields.ts';
import { textNestsDeeper, TOO_DEEPLY_NESTED } from './json-depth.ts';
import { ConvertedTracks, type SourcePlaylist, type SourceTrack } from './source-playlist.ts';
import { uriText, withoutLayout } from './text-layout.ts';
import { uriReferenceProblem } from './uri-reference.ts';
import { OPL_NAMESPACE, XSPF_NAMESPACE } from './xspf-names.ts';

/**
 * Checks an XML tree against XSPF 1 (https://xspf.org/spec; version 0 documents have the same
 * structure, without `<extension>`) and extracts what the model needs. Refused with the reason
 * and line, as the reference implementation (libxspf) and its conformance suite refuse them: a
 * root that is not `<playlist>` in the XSPF namespace, a `version` other than 0 or 1, no
 * `<trackList>` (or two), an element of the XSPF namespace that XSPF does not define or that
 * appears more often than allowed, element content where XSPF wants text, text where it wants
 * elements (`<playlist>`, `<trackList>`, `<track>`, `<attribution>`), anything but `<location>`
 * and `<identifier>` in `<attribution>`, an attribute XSPF does not define (attributes of other
 * namespaces, such as `xml:base`, are fine), a `<link>` or `<meta>` without `rel`, an
 * `<extension>` without `application`, a `duration` that is not an XML Schema
 * nonNegativeInteger (a `trackNum` must also be above zero), and a `date` that is not an XML
 * Schema dateTime, and a `<license>` or an `application` of `<extension>` that is no URI
 * reference (uri-reference.ts names the reason). Other URI-typed values that are no URI reference
 * do not cost the file (real players write paths, spaces and free text there): `<info>`,
 * `<identifier>` and a playlist's `<location>` are kept as the text they hold, and `<link>`,
 * `<meta>` and `<attribution>` entries (which the model has no place for) are ignored, each with an
 * `invalid_value` warning on its line. A track's `<location>` and any `<image>` are read as the
 * paths they name (Clementine and Strawberry write `Music/Artist - Title.mp3` or `C:\Music\a
 * b.mp3` as they are): source-playlist.ts keeps them with a warning for their track. Elements of
 * other namespaces directly under `<playlist>`/`<track>` are not XSPF's way to extend (that is
 * `<extension>`): they are
 * ignored with a warning.
 */

type Rule = 'one' | 'many';
/** Maps, not object literals: a name read from the file is looked up once, with no prototype to guard against. */
const PLAYLIST_CHILDREN: ReadonlyMap<string, Rule> = new Map(Object.entries({ title: 'one', creator: 'one', annotation: 'one', info: 'one', location: 'one', identifier: 'one', image: 'one', date: 'one', license: 'one', attribution: 'one', link: 'many', meta: 'many', extension: 'many', trackList: 'one' } as const));
const TRACK_CHILDREN: ReadonlyMap<string, Rule> = new Map(Object.entries({ location: 'many', identifier: 'many', title: 'one', creator: 'one', annotation: 'one', info: 'one', image: 'one', album: 'one', trackNum: 'one', duration: 'one', link: 'many', meta: 'many', extension: 'many' } as const));
/** Elements whose content XSPF defines; everything under `<extension>` is free. */
const WITH_ELEMENT_CONTENT = new Set(['trackList', 'attribution', 'extension']);
/** The attributes XSPF defines, by element; the others have none. */
const ATTRIBUTES: ReadonlyMap<string, readonly string[]> = new Map([
  ['playlist', ['version']],
  ['link', ['rel']],
  ['meta', ['rel']],
  ['extension', ['application']],
]);
const NO_ATTRIBUTES: readonly string[] = [];
/** XML's white space: anything else directly inside an element with element content is text XSPF does not allow there. */
const NON_WHITESPACE = /[^ \t\r\n]/;
/** XML Schema nonNegativeInteger, after white space is collapsed. */
const NON_NEGATIVE_INTEGER = /^(?:\+?\d+|-0+)$/;
/** XML Schema dateTime (the time zone is optional there; the model's check comes later). */
const XSD_DATE_TIME = /^-?\d{4,}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-4]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:0\d|1[0-4]):[0-5]\d)?$/;

function refuse(element: XmlElement | null, reason: string): never {
  throw new InvalidInput(`not a conforming XSPF document${element === null ? '' : ` (line ${element.line})`}: ${reason}`);
}

/**
 * XSPF elements whose text is a URI reference, checked (see the comment at the top): `refuse` the
 * document when it is not one, keep it as `text` with a warning, or `ignore` the element (which
 * the reader does not read anyway) with a warning. A track's `<location>` and `<image>` are not
 * here (nor a playlist's `<image>`): source-playlist.ts warns about them.
 */
type UriRule = 'refuse' | 'text' | 'ignore';
const URI_TEXT: ReadonlyMap<string, ReadonlyMap<string, UriRule>> = new Map([
  ['playlist', new Map<string, UriRule>([['info', 'text'], ['location', 'text'], ['identifier', 'text'], ['license', 'refuse'], ['link', 'ignore']])],
  ['track', new Map<string, UriRule>([['identifier', 'text'], ['info', 'text'], ['link', 'ignore']])],
]);
const RULE_WORDS: Readonly<Record<Exclude<UriRule, 'refuse'>, string>> = { text: 'it was kept as text', ignore: 'it was ignored' };

/**
 * Checks a URI-typed value: one that is no URI reference refuses the document (`refuse`), or is
 * reported on its line as an `invalid_value` warning saying what became of it.
 */
function checkUri(element: XmlElement, value: string, rule: UriRule, issues: Warnings, attribute: string | null = null): void {
  // anyURI collapses white space: what surrounds the URI is layout.
  const uri = value.trim();
  const problem = uriReferenceProblem(uri);
  if (problem === null) return;
  const what = `${attribute === null ? `<${element.name}>` : `the ${attribute} of <${element.name}>`} must be a URI, and "${uri.slice(0, 60)}" is not one: ${problem}`;
  if (rule === 'refuse') refuse(element, what);
  issues.warn(element.line, 'invalid_value', `${what}; ${RULE_WORDS[rule]}`);
}

/**
 * Refuses attributes XSPF does not define on this element, and a missing required one (every
 * defined attribute is required). An `application` that is no URI refuses the document; a `rel`
 * that is none is reported, and its `<link>` or `<meta>` ignored (the model has no place for them).
 */
function checkAttributes(element: XmlElement, issues: Warnings): void {
  const allowed = ATTRIBUTES.get(element.name) ?? NO_ATTRIBUTES;
  // A prefixed attribute is keyed `{namespace}local`: another vocabulary's (xml:base, …), not XSPF's.
  for (const key in element.attributes) {
    if (!key.startsWith('{') && !allowed.includes(key)) refuse(element, `<${element.name}> has an attribute "${key.slice(0, 40)}", which XSPF does not define`);
  }
  for (const name of allowed) {
    const value = element.attributes[name];
    if (value === undefined) refuse(element, `<${element.name}> needs ${name === 'application' ? 'an' : 'a'} ${name} attribute`);
    // `rel` and `application` are URIs; `version` is checked where it is read.
    if (name !== 'version') checkUri(element, value, name === 'application' ? 'refuse' : 'ignore', issues, name);
  }
}

/** Refuses text directly inside an element XSPF gives only element content. */
function checkElementContent(element: XmlElement): void {
  if (NON_WHITESPACE.test(element.text)) refuse(element, `<${element.name}> holds text "${element.text.trim().slice(0, 40)}"; XSPF allows only elements in it`);
}

/** `<attribution>` lists `<location>` and `<identifier>` URIs, nothing else (one that is no URI is reported: the reader ignores them). */
function checkAttribution(attribution: XmlElement, issues: Warnings): void {
  checkElementContent(attribution);
  for (const child of attribution.children) {
    if (child.namespace !== XSPF_NAMESPACE || (child.name !== 'location' && child.name !== 'identifier')) refuse(child, `<attribution> may hold only <location> and <identifier>, not <${child.name}>`);
    checkAttributes(child, issues);
    if (child.children.length > 0) refuse(child, `<${child.name}> must hold text, not elements`);
    checkUri(child, child.text, 'ignore', issues);
  }
}

/** The XSPF children of `parent` grouped by name, after checking names, counts, attributes and content. */
function xspfChildren(parent: XmlElement, rules: ReadonlyMap<string, Rule>, issues: Warnings, version: string): Map<string, XmlElement[]> {
  const found = new Map<string, XmlElement[]>();
  for (const child of parent.children) {
    if (child.namespace !== XSPF_NAMESPACE) {
      issues.warn(child.line, 'ignored_element', `<${child.name}> (namespace ${child.namespace === '' ? 'none' : child.namespace}) is not part of XSPF here; XSPF extensions belong in <extension>. It was ignored`);
      continue;
    }
    const rule = rules.get(child.name);
    if (rule === undefined) refuse(child, `<${child.name}> is not an XSPF element inside <${parent.name}>`);
    if (version === '0' && child.name === 'extension') refuse(child, '<extension> is not part of XSPF version 0 (it came with version 1)');
    const list = found.get(child.name);
    if (rule === 'one' && list !== undefined) refuse(child, `<${parent.name}> may hold only one <${child.name}>`);
    checkAttributes(child, issues);
    if (child.children.length > 0 && !WITH_ELEMENT_CONTENT.has(child.name)) refuse(child, `<${child.name}> must hold text, not elements`);
    if (child.name === 'attribution') checkAttribution(child, issues);
    else if (child.name === 'trackList') checkElementContent(child);
    else {
      const rule = URI_TEXT.get(parent.name)?.get(child.name);
      if (rule !== undefined) checkUri(child, child.text, rule, issues);
    }
    if (list === undefined) found.set(child.name, [child]);
    else list.push(child);
  }
  return found;
}

/** A text element's text, without a pretty-printer's layout (text-layout.ts). */
function textOf(found: Map<string, XmlElement[]>, name: string): string | null {
  const text = found.get(name)?.[0]?.text;
  return text === undefined ? null : withoutLayout(text);
}

/** A URI or date: surrounding whitespace is layout, not content. */
function uriOf(found: Map<string, XmlElement[]>, name: string): string | null {
  const text = found.get(name)?.[0]?.text;
  return text === undefined ? null : uriText(text);
}

function allText(found: Map<string, XmlElement[]>, name: string): string[] {
  const values: string[] = [];
  for (const element of found.get(name) ?? []) {
    const value = element.text.trim();
    if (value !== '') values.push(value);
  }
  return values;
}

/**
 * `<duration>` is an XML Schema nonNegativeInteger (so `+7`, `007` and `0` conform); `<trackNum>`
 * one greater than zero, as the spec describes it and its reference implementation (libxspf)
 * checks. A conforming value too large for the model is reported and left empty (the duration's
 * bound is the model's, checked when the track is converted).
 */
function wholeNumber(found: Map<string, XmlElement[]>, name: 'trackNum' | 'duration', issues: Warnings): number | null {
  const element = found.get(name)?.[0];
  if (element === undefined) return null;
  const value = element.text.trim();
  const positive = name === 'trackNum';
  if (!NON_NEGATIVE_INTEGER.test(value) || (positive && Number(value) === 0)) {
    refuse(element, `<${name}> must be a ${positive ? 'positive' : 'non-negative'} whole number${positive ? '' : ' of milliseconds'}, not "${value.slice(0, 40)}"`);
  }
  const number = Number(value);
  if (positive && !Number.isSafeInteger(number)) {
    issues.warn(element.line, 'invalid_value', `<trackNum> ${value.slice(0, 40)} is larger than the model allows; it was left empty`);
    return null;
  }
  return number;
}

/** What `read` makes of each child of `field` in our namespace named `name`, in document order. */
function oplItems<T>(field: XmlElement, name: string, read: (item: XmlElement) => T): T[] {
  const items: T[] = [];
  for (const item of field.children) {
    if (item.namespace === OPL_NAMESPACE && item.name === name) items.push(read(item));
  }
  return items;
}

/**
 * A text field's text: its `<opl:part>` children joined, when it has them (a text longer than one
 * element may hold, see xml-limits.ts), else its own text. Each part is within the parser's
 * limit; their sum only within the document's size.
 */
function fieldText(field: XmlElement): string {
  const parts = oplItems(field, 'part', (item) => item.text);
  return parts.length === 0 ? field.text : parts.join('');
}

/** One field of our extension as `RawField` (see there). */
function rawField(field: XmlElement): RawField {
  switch (field.name) {
    case 'artists':
      return oplItems(field, 'artist', (item) => item.text);
    case 'credits':
      return oplItems(field, 'credit', (item) => ({ ...item.attributes }));
    case 'provider_uris':
      return oplItems(field, 'uri', (item) => [item.attributes[xmlAttributeKey('', 'provider')], item.text]);
    case 'metadata':
    case 'provider_metadata': {
      const text = fieldText(field);
      // Checked before parsing: a text nested too deep is never turned into objects (json-depth.ts).
      if (textNestsDeeper(text)) return TOO_DEEPLY_NESTED;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    }
    default:
      return fieldText(field);
  }
}

/** Our extension's fields (the first `<extension>` with our application), or null. */
function oplExtension(found: Map<string, XmlElement[]>): ReadonlyMap<string, RawField> | null {
  let ours: XmlElement | undefined;
  // Every <extension> needs an application, ours or not, so all are checked before ours is read.
  for (const extension of found.get('extension') ?? []) {
    const application = extension.attributes.application;
    if (application === undefined) refuse(extension, '<extension> needs an application attribute');
    if (ours === undefined && application === OPL_NAMESPACE) ours = extension;
  }
  if (ours === undefined) return null;
  const fields = new Map<string, RawField>();
  for (const field of ours.children) {
    if (field.namespace === OPL_NAMESPACE && !fields.has(field.name)) fields.set(field.name, rawField(field));
  }
  return fields;
}

function readTrack(element: XmlElement, issues: Warnings, version: string): SourceTrack {
  checkAttributes(element, issues);
  checkElementContent(element);
  const found = xspfChildren(element, TRACK_CHILDREN, issues, version);
  return {
    line: element.line,
    locations: allText(found, 'location'),
    identifiers: allText(found, 'identifier'),
    title: textOf(found, 'title'),
    creator: textOf(found, 'creator'),
    annotation: textOf(found, 'annotation'),
    info: uriOf(found, 'info'),
    image: uriOf(found, 'image'),
    album: textOf(found, 'album'),
    trackNum: wholeNumber(found, 'trackNum', issues),
    duration: wholeNumber(found, 'duration', issues),
    extension: oplExtension(found),
  };
}

const isXspf = (element: XmlElementStart, name: string): boolean => element.namespace === XSPF_NAMESPACE && element.name === name;

/**
 * Reads the tracks of a document's (first) `<trackList>` while the XML is parsed (`parseXml`'s
 * `onElement`): each `<track>` is checked and converted to the model when it closes and its
 * subtree dropped, so a 100,000-track file never exists as one element tree (the sandbox has 128
 * MiB), nor as 100,000 source tracks waiting to be converted. Nothing is streamed unless the root
 * is an XSPF `<playlist>` of version 0 or 1; otherwise the tree is kept and `readXspf` refuses it
 * as before. Warnings and the first refusal wait until `readXspf` reaches the track list (and
 * conversion warnings until `playlistFromSource` reaches the tracks), so issues and errors come in
 * the same order as from a whole tree.
 */
export class XspfTrackStream {
  readonly #tracks = new ConvertedTracks();
  readonly #warnings = new DeferredWarnings();
  #refusal: InvalidInput | null = null;
  /** The streamed `<trackList>` once it has closed. */
  #trackList: XmlElement | null = null;
  /** The root the decision below was made for: it is the same object for every element of a parse. */
  #root: XmlElementStart | null = null;
  #rootIsPlaylist = false;
  #version = '1';

  readonly onElement = (element: XmlElement, path: readonly XmlElementStart[]): boolean => {
    // Only the root's children and the track list's children matter; most elements of a large
    // file are deeper, so they are let through before anything else is looked at.
    const depth = path.length;
    if (depth === 0 || depth > 2) return true;
    const root = path[0]!;
    if (root !== this.#root) {
      this.#root = root;
      this.#rootIsPlaylist = isXspf(root, 'playlist') && (root.attributes.version === '0' || root.attributes.version === '1');
      this.#version = root.attributes.version ?? '1';
    }
    if (!this.#rootIsPlaylist) return true;
    if (depth === 1) {
      if (isXspf(element, 'trackList')) this.#trackList ??= element;
      return true;
    }
    if (!isXspf(path[1]!, 'trackList') || this.#trackList !== null) return true;
    if (this.#refusal !== null) return false;
    try {
      if (element.namespace !== XSPF_NAMESPACE) this.#warnings.warn(element.line, 'ignored_element', `<${element.name}> in <trackList> is not an XSPF track; it was ignored`);
      else if (element.name !== 'track') refuse(element, `<trackList> may hold only <track> elements, not <${element.name}>`);
      else this.#tracks.add(readTrack(element, this.#warnings, this.#version));
    } catch (error) {
      if (!(error instanceof InvalidInput)) throw error;
      this.#refusal = error;
    }
    return false;
  };

  /** The tracks of `trackList` when this stream read them, after replaying its warnings (or its refusal); null otherwise. */
  tracksOf(trackList: XmlElement, issues: Warnings): ConvertedTracks | null {
    if (trackList !== this.#trackList) return null;
    this.#warnings.replay(issues);
    if (this.#refusal !== null) throw this.#refusal;
    return this.#tracks;
  }
}

/** The tracks of a `<trackList>` that was not streamed (it is in the tree with its children). */
function readTracks(trackList: XmlElement, issues: Warnings, version: string): SourceTrack[] {
  const tracks: SourceTrack[] = [];
  for (const child of trackList.children) {
    if (child.namespace !== XSPF_NAMESPACE) {
      issues.warn(child.line, 'ignored_element', `<${child.name}> in <trackList> is not an XSPF track; it was ignored`);
      continue;
    }
    if (child.name !== 'track') refuse(child, `<trackList> may hold only <track> elements, not <${child.name}>`);
    tracks.push(readTrack(child, issues, version));
  }
  return tracks;
}

export function readXspf(root: XmlElement, issues: Warnings, stream: XspfTrackStream | null = null): SourcePlaylist {
  if (root.name !== 'playlist') refuse(root, `the root element is <${root.name}>, not <playlist>`);
  if (root.namespace !== XSPF_NAMESPACE) refuse(root, `<playlist> must be in the XSPF namespace ${XSPF_NAMESPACE}, not ${root.namespace === '' ? 'in no namespace' : root.namespace}`);
  const version = root.attributes.version;
  if (version === undefined) refuse(root, '<playlist> has no version attribute');
  if (version !== '0' && version !== '1') refuse(root, `version "${version.slice(0, 20)}" is not XSPF version 0 or 1`);
  checkAttributes(root, issues);
  checkElementContent(root);
  const found = xspfChildren(root, PLAYLIST_CHILDREN, issues, version);
  const trackList = found.get('trackList')?.[0];
  if (trackList === undefined) refuse(root, '<playlist> has no <trackList> (required, even when empty)');
  const date = found.get('date')?.[0];
  if (date !== undefined && !XSD_DATE_TIME.test(date.text.trim())) refuse(date, `<date> must be an XML Schema dateTime such as 2005-01-08T17:10:47-05:00, not "${date.text.trim().slice(0, 40)}"`);
  const tracks = stream?.tracksOf(trackList, issues) ?? readTracks(trackList, issues, version);
  return {
    line: root.line,
    title: textOf(found, 'title'),
    creator: textOf(found, 'creator'),
    annotation: textOf(found, 'annotation'),
    info: uriOf(found, 'info'),
    location: uriOf(found, 'location'),
    identifier: uriOf(found, 'identifier'),
    image: uriOf(found, 'image'),
    date: uriOf(found, 'date'),
    license: uriOf(found, 'license'),
    extension: oplExtension(found),
    tracks,
  };
}
