import { formatKit, InvalidInput, xmlAttributeKey, type XmlElement, type XmlElementStart } from '@opl/plugin-sdk';
import type { RawField } from './extension-fields.ts';
import type { SourcePlaylist, SourceTrack } from './source-playlist.ts';
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
const PLAYLIST_CHILDREN: Readonly<Record<string, Rule>> = { title: 'one', creator: 'one', annotation: 'one', info: 'one', location: 'one', identifier: 'one', image: 'one', date: 'one', license: 'one', attribution: 'one', link: 'many', meta: 'many', extension: 'many', trackList: 'one' };
const TRACK_CHILDREN: Readonly<Record<string, Rule>> = { location: 'many', identifier: 'many', title: 'one', creator: 'one', annotation: 'one', info: 'one', image: 'one', album: 'one', trackNum: 'one', duration: 'one', link: 'many', meta: 'many', extension: 'many' };
/** Elements whose content XSPF defines; everything under `<extension>` is free. */
const WITH_ELEMENT_CONTENT = new Set(['trackList', 'attribution', 'extension']);

/** Where warnings go: the parse's issue list, or a stream's deferred list (same order in the end). */
interface Warnings {
  warn(line: number | null, code: string, message: string): void;
}

function refuse(element: XmlElement | null, reason: string): never {
  throw new InvalidInput(`not a conforming XSPF document${element === null ? '' : ` (line ${element.line})`}: ${reason}`);
}

/** The XSPF children of `parent` grouped by name, after checking names, counts and content. */
function xspfChildren(parent: XmlElement, rules: Readonly<Record<string, Rule>>, issues: Warnings): Map<string, XmlElement[]> {
  const found = new Map<string, XmlElement[]>();
  for (const child of parent.children) {
    if (child.namespace !== XSPF_NAMESPACE) {
      issues.warn(child.line, 'ignored_element', `<${child.name}> (namespace ${child.namespace === '' ? 'none' : child.namespace}) is not part of XSPF here; XSPF extensions belong in <extension>. It was ignored`);
      continue;
    }
    const rule = Object.hasOwn(rules, child.name) ? rules[child.name] : undefined;
    if (rule === undefined) refuse(child, `<${child.name}> is not an XSPF element inside <${parent.name}>`);
    const list = found.get(child.name) ?? [];
    if (rule === 'one' && list.length === 1) refuse(child, `<${parent.name}> may hold only one <${child.name}>`);
    if (!WITH_ELEMENT_CONTENT.has(child.name) && child.children.length > 0) refuse(child, `<${child.name}> must hold text, not elements`);
    list.push(child);
    found.set(child.name, list);
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
  return (found.get(name) ?? []).map((element) => element.text.trim()).filter((value) => value !== '');
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

/** Our extension's fields (the first `<extension>` with our application), or null. */
function oplExtension(found: Map<string, XmlElement[]>): ReadonlyMap<string, RawField> | null {
  const extensions = found.get('extension') ?? [];
  for (const extension of extensions) {
    if (extension.attributes.application === undefined) refuse(extension, '<extension> needs an application attribute');
  }
  const ours = extensions.find((extension) => extension.attributes.application === OPL_NAMESPACE);
  if (ours === undefined) return null;
  const fields = new Map<string, RawField>();
  for (const field of ours.children) {
    if (field.namespace !== OPL_NAMESPACE || fields.has(field.name)) continue;
    const items = field.children.filter((child) => child.namespace === OPL_NAMESPACE);
    switch (field.name) {
      case 'artists':
        fields.set(field.name, items.filter((item) => item.name === 'artist').map((item) => item.text));
        break;
      case 'credits':
        fields.set(field.name, items.filter((item) => item.name === 'credit').map((item) => ({ ...item.attributes })));
        break;
      case 'provider_uris':
        fields.set(field.name, items.filter((item) => item.name === 'uri').map((item) => [item.attributes[xmlAttributeKey('', 'provider')], item.text]));
        break;
      case 'metadata':
      case 'provider_metadata':
        try {
          fields.set(field.name, JSON.parse(field.text) as unknown);
        } catch {
          fields.set(field.name, field.text);
        }
        break;
      default:
        fields.set(field.name, field.text);
    }
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

/** Warnings a stream found, replayed later into the real list; bounded like it (the rest are only counted). */
class DeferredWarnings implements Warnings {
  readonly #listed: [number | null, string, string][] = [];
  #omitted = 0;

  warn(line: number | null, code: string, message: string): void {
    if (this.#listed.length < formatKit.MAX_LISTED_ISSUES) this.#listed.push([line, code, message]);
    else this.#omitted += 1;
  }

  replay(issues: Warnings): void {
    for (const [line, code, message] of this.#listed) issues.warn(line, code, message);
    // The list is full by now, so these only count.
    for (let count = 0; count < this.#omitted; count++) issues.warn(null, 'ignored_element', '');
  }
}

const isXspf = (element: XmlElementStart, name: string): boolean => element.namespace === XSPF_NAMESPACE && element.name === name;

/**
 * Reads the tracks of a document's (first) `<trackList>` while the XML is parsed (`parseXml`'s
 * `onElement`): each `<track>` is checked and converted when it closes and its subtree dropped, so
 * a 100,000-track file never exists as one element tree (the sandbox has 128 MiB). Nothing is
 * streamed unless the root is an XSPF `<playlist>` of version 0 or 1; otherwise the tree is kept
 * and `readXspf` refuses it as before. Warnings and the first refusal wait until `readXspf`
 * reaches the track list, so issues and errors come in the same order as from a whole tree.
 */
export class XspfTrackStream {
  readonly tracks: SourceTrack[] = [];
  readonly #warnings = new DeferredWarnings();
  #refusal: InvalidInput | null = null;
  /** The streamed `<trackList>` once it has closed. */
  #trackList: XmlElement | null = null;

  readonly onElement = (element: XmlElement, path: readonly XmlElementStart[]): boolean => {
    const root = path[0];
    if (root === undefined || !isXspf(root, 'playlist') || (root.attributes.version !== '0' && root.attributes.version !== '1')) return true;
    if (path.length === 1) {
      if (isXspf(element, 'trackList')) this.#trackList ??= element;
      return true;
    }
    const parent = path[1];
    if (path.length !== 2 || parent === undefined || !isXspf(parent, 'trackList') || this.#trackList !== null) return true;
    if (this.#refusal !== null) return false;
    try {
      if (element.namespace !== XSPF_NAMESPACE) this.#warnings.warn(element.line, 'ignored_element', `<${element.name}> in <trackList> is not an XSPF track; it was ignored`);
      else if (element.name !== 'track') refuse(element, `<trackList> may hold only <track> elements, not <${element.name}>`);
      else this.tracks.push(readTrack(element, this.#warnings));
    } catch (error) {
      if (!(error instanceof InvalidInput)) throw error;
      this.#refusal = error;
    }
    return false;
  };

  /** The tracks of `trackList` when this stream read them, after replaying its warnings (or its refusal); null otherwise. */
  tracksOf(trackList: XmlElement, issues: Warnings): SourceTrack[] | null {
    if (trackList !== this.#trackList) return null;
    this.#warnings.replay(issues);
    if (this.#refusal !== null) throw this.#refusal;
    return this.tracks;
  }
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
  const streamed = stream?.tracksOf(trackList, issues) ?? null;
  const tracks: SourceTrack[] = streamed ?? [];
  for (const child of streamed === null ? trackList.children : []) {
    if (child.namespace !== XSPF_NAMESPACE) {
      issues.warn(child.line, 'ignored_element', `<${child.name}> in <trackList> is not an XSPF track; it was ignored`);
      continue;
    }
    if (child.name !== 'track') refuse(child, `<trackList> may hold only <track> elements, not <${child.name}>`);
    tracks.push(readTrack(child, issues));
  }
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
