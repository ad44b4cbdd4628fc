import { InvalidInput, xmlAttributeKey, type XmlElement, type XmlElementStart } from '@opl/plugin-sdk';
import { DeferredWarnings, type Warnings } from './deferred-warnings.ts';
import type { RawField } from './extension-fields.ts';
import { ConvertedTracks, type SourcePlaylist, type SourceTrack } from './source-playlist.ts';
import { OPL_NAMESPACE, XSPF_NAMESPACE } from './xspf-names.ts';

/**
 * Checks an XML tree against XSPF 1 (https://xspf.org/spec; version 0 documents have the same
 * structure) and extracts what the model needs. Refused, with the reason and line: a root that
 * is not `<playlist>` in the XSPF namespace, a `version` other than 0 or 1, no `<trackList>` (or
 * two), an element of the XSPF namespace that XSPF does not define or that appears more often
 * than allowed, element content where XSPF wants text, a `duration` that is not a whole number
 * of milliseconds, a `trackNum` that is not a positive whole number, and an `<extension>`
 * without `application`. URIs are not checked beyond being text. Elements of other namespaces
 * directly under `<playlist>`/`<track>` are not XSPF's way to extend (that is `<extension>`):
 * they are ignored with a warning.
 */

type Rule = 'one' | 'many';
/** Maps, not object literals: a name read from the file is looked up once, with no prototype to guard against. */
const PLAYLIST_CHILDREN: ReadonlyMap<string, Rule> = new Map(Object.entries({ title: 'one', creator: 'one', annotation: 'one', info: 'one', location: 'one', identifier: 'one', image: 'one', date: 'one', license: 'one', attribution: 'one', link: 'many', meta: 'many', extension: 'many', trackList: 'one' } as const));
const TRACK_CHILDREN: ReadonlyMap<string, Rule> = new Map(Object.entries({ location: 'many', identifier: 'many', title: 'one', creator: 'one', annotation: 'one', info: 'one', image: 'one', album: 'one', trackNum: 'one', duration: 'one', link: 'many', meta: 'many', extension: 'many' } as const));
/** Elements whose content XSPF defines; everything under `<extension>` is free. */
const WITH_ELEMENT_CONTENT = new Set(['trackList', 'attribution', 'extension']);

function refuse(element: XmlElement | null, reason: string): never {
  throw new InvalidInput(`not a conforming XSPF document${element === null ? '' : ` (line ${element.line})`}: ${reason}`);
}

/** The XSPF children of `parent` grouped by name, after checking names, counts and content. */
function xspfChildren(parent: XmlElement, rules: ReadonlyMap<string, Rule>, issues: Warnings): Map<string, XmlElement[]> {
  const found = new Map<string, XmlElement[]>();
  for (const child of parent.children) {
    if (child.namespace !== XSPF_NAMESPACE) {
      issues.warn(child.line, 'ignored_element', `<${child.name}> (namespace ${child.namespace === '' ? 'none' : child.namespace}) is not part of XSPF here; XSPF extensions belong in <extension>. It was ignored`);
      continue;
    }
    const rule = rules.get(child.name);
    if (rule === undefined) refuse(child, `<${child.name}> is not an XSPF element inside <${parent.name}>`);
    const list = found.get(child.name);
    if (rule === 'one' && list !== undefined) refuse(child, `<${parent.name}> may hold only one <${child.name}>`);
    if (child.children.length > 0 && !WITH_ELEMENT_CONTENT.has(child.name)) refuse(child, `<${child.name}> must hold text, not elements`);
    if (list === undefined) found.set(child.name, [child]);
    else list.push(child);
  }
  return found;
}

/** Text as written (titles and names may begin or end with spaces). */
function textOf(found: Map<string, XmlElement[]>, name: string): string | null {
  return found.get(name)?.[0]?.text ?? null;
}

/** A URI or date: surrounding whitespace is layout, not content. */
function uriOf(found: Map<string, XmlElement[]>, name: string): string | null {
  const value = found.get(name)?.[0]?.text.trim();
  return value === undefined || value === '' ? null : value;
}

function allText(found: Map<string, XmlElement[]>, name: string): string[] {
  const values: string[] = [];
  for (const element of found.get(name) ?? []) {
    const value = element.text.trim();
    if (value !== '') values.push(value);
  }
  return values;
}

function wholeNumber(found: Map<string, XmlElement[]>, name: string, positive: boolean): number | null {
  const element = found.get(name)?.[0];
  if (element === undefined) return null;
  const value = element.text.trim();
  if (!/^\d{1,15}$/.test(value) || (positive && Number(value) === 0)) {
    refuse(element, `<${name}> must be a ${positive ? 'positive' : 'non-negative'} whole number${name === 'duration' ? ' of milliseconds' : ''}, not "${value.slice(0, 40)}"`);
  }
  return Number(value);
}

/** What `read` makes of each child of `field` in our namespace named `name`, in document order. */
function oplItems<T>(field: XmlElement, name: string, read: (item: XmlElement) => T): T[] {
  const items: T[] = [];
  for (const item of field.children) {
    if (item.namespace === OPL_NAMESPACE && item.name === name) items.push(read(item));
  }
  return items;
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
    case 'provider_metadata':
      try {
        return JSON.parse(field.text) as unknown;
      } catch {
        return field.text;
      }
    default:
      return field.text;
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

function readTrack(element: XmlElement, issues: Warnings): SourceTrack {
  const found = xspfChildren(element, TRACK_CHILDREN, issues);
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
    trackNum: wholeNumber(found, 'trackNum', true),
    duration: wholeNumber(found, 'duration', false),
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

  readonly onElement = (element: XmlElement, path: readonly XmlElementStart[]): boolean => {
    // Only the root's children and the track list's children matter; most elements of a large
    // file are deeper, so they are let through before anything else is looked at.
    const depth = path.length;
    if (depth === 0 || depth > 2) return true;
    const root = path[0]!;
    if (root !== this.#root) {
      this.#root = root;
      this.#rootIsPlaylist = isXspf(root, 'playlist') && (root.attributes.version === '0' || root.attributes.version === '1');
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
      else this.#tracks.add(readTrack(element, this.#warnings));
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
function readTracks(trackList: XmlElement, issues: Warnings): SourceTrack[] {
  const tracks: SourceTrack[] = [];
  for (const child of trackList.children) {
    if (child.namespace !== XSPF_NAMESPACE) {
      issues.warn(child.line, 'ignored_element', `<${child.name}> in <trackList> is not an XSPF track; it was ignored`);
      continue;
    }
    if (child.name !== 'track') refuse(child, `<trackList> may hold only <track> elements, not <${child.name}>`);
    tracks.push(readTrack(child, issues));
  }
  return tracks;
}

export function readXspf(root: XmlElement, issues: Warnings, stream: XspfTrackStream | null = null): SourcePlaylist {
  if (root.name !== 'playlist') refuse(root, `the root element is <${root.name}>, not <playlist>`);
  if (root.namespace !== XSPF_NAMESPACE) refuse(root, `<playlist> must be in the XSPF namespace ${XSPF_NAMESPACE}, not ${root.namespace === '' ? 'in no namespace' : root.namespace}`);
  const version = root.attributes.version;
  if (version === undefined) refuse(root, '<playlist> has no version attribute');
  if (version !== '0' && version !== '1') refuse(root, `version "${version.slice(0, 20)}" is not XSPF version 0 or 1`);
  const found = xspfChildren(root, PLAYLIST_CHILDREN, issues);
  const trackList = found.get('trackList')?.[0];
  if (trackList === undefined) refuse(root, '<playlist> has no <trackList> (required, even when empty)');
  const tracks = stream?.tracksOf(trackList, issues) ?? readTracks(trackList, issues);
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
