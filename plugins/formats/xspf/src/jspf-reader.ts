import { InvalidInput } from '@opl/plugin-sdk';
import type { RawField } from './extension-fields.ts';
import type { SourcePlaylist, SourceTrack } from './source-playlist.ts';
import { uriReferenceProblem } from './uri-reference.ts';
import { OPL_NAMESPACE } from './xspf-names.ts';

/**
 * JSPF, XSPF's JSON form: `{"playlist": {"title", "creator", "annotation", "info", "location",
 * "identifier", "image", "date", "license", "extension": {<application>: [ … ]}, "track": [{
 * "location": [ … ], "identifier": [ … ], "title", "creator", "annotation", "info", "image",
 * "album", "trackNum", "duration", "extension" }]}}`. Refused with a reason: anything but a
 * `playlist` object at the top, a missing `track` array, a value of the wrong type (a string
 * where text belongs, a non-negative whole number for `duration`, a positive one for
 * `trackNum`), and a URI-typed value that is no URI reference (uri-reference.ts): `identifier`,
 * `info`, a playlist's `location` and `license`, the application URIs that key `extension`, and
 * the playlist's and tracks' `link` (`[{<rel URI>: <URI>}]`), `meta` (`[{<rel URI>: "text"}]`) and
 * the playlist's `attribution` (`[{"location"|"identifier": <URI>}]`), which the model does not
 * keep but XSPF types all the same (a track's `location` and any `image` are read as written with
 * a warning instead, as in XSPF: see xspf-reader.ts). A single string where JSPF has a list of
 * URIs is accepted, and a single object where it has a list of `link`, `meta` or `attribution`
 * entries (some writers do that).
 * Our extension is `extension["https://open-playlist.org/ns/xspf/1"][0]`, an object with the model
 * fields as JSON values.
 */

function refuse(reason: string): never {
  throw new InvalidInput(`not a conforming JSPF document: ${reason}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function text(object: Record<string, unknown>, key: string, where: string): string | null {
  const value = object[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') refuse(`${where}.${key} must be a string`);
  return value;
}

/** Refuses a value JSPF types as a URI that is no URI reference. */
function checkUri(uri: string, where: string): string {
  const problem = uriReferenceProblem(uri);
  if (problem !== null) refuse(`${where} must be a URI, and "${uri.slice(0, 60)}" is not one: ${problem}`);
  return uri;
}

/** `strict`: refuse a value that is no URI reference (false for a track's locations, see above). */
function uris(object: Record<string, unknown>, key: string, where: string, strict: boolean): string[] {
  const value = object[key];
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) refuse(`${where}.${key} must be a list of strings`);
  const found = list.map((item) => item.trim()).filter((item) => item !== '');
  if (strict) found.forEach((uri, index) => checkUri(uri, `${where}.${key}[${index}]`));
  return found;
}

type PairRule = 'link' | 'meta' | 'attribution';

/**
 * `link`, `meta` and `attribution`: lists of one-key objects, as XSPF's `<link rel="…">URI</link>`,
 * `<meta rel="…">text</meta>` and `<attribution><location>URI</location>…</attribution>` are
 * written in JSPF. Checked as XSPF checks the elements, and not kept (the model has no place for them).
 */
function checkPairs(object: Record<string, unknown>, key: PairRule, where: string): void {
  const value = object[key];
  if (value === undefined || value === null) return;
  const list: unknown[] = Array.isArray(value) ? value : [value];
  list.forEach((entry, index) => {
    const at = `${where}.${key}[${index}]`;
    if (!isObject(entry)) refuse(`${at} must be an object`);
    for (const [name, content] of Object.entries(entry)) {
      if (key === 'attribution') {
        if (name !== 'location' && name !== 'identifier') refuse(`${at} may hold only "location" and "identifier", not ${JSON.stringify(name.slice(0, 60))}`);
      } else checkUri(name.trim(), `${at}'s key (its rel)`);
      if (typeof content !== 'string') refuse(`${at}[${JSON.stringify(name.slice(0, 60))}] must be a string`);
      if (key !== 'meta') checkUri(content.trim(), `${at}[${JSON.stringify(name.slice(0, 60))}]`);
    }
  });
}

/** A single URI (trimmed, as anyURI collapses white space), or null when absent or blank. */
function uri(object: Record<string, unknown>, key: string, where: string): string | null {
  const value = text(object, key, where)?.trim() || null;
  return value === null ? null : checkUri(value, `${where}.${key}`);
}

function wholeNumber(object: Record<string, unknown>, key: string, where: string, positive: boolean): number | null {
  const value = object[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < (positive ? 1 : 0)) {
    refuse(`${where}.${key} must be a ${positive ? 'positive' : 'non-negative'} whole number${key === 'duration' ? ' of milliseconds' : ''}`);
  }
  return value;
}

function scalarText(value: unknown): RawField {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
}

/** Our extension object → raw fields in the shapes the XSPF reader produces. */
function oplExtension(object: Record<string, unknown>, where: string): ReadonlyMap<string, RawField> | null {
  const extension = object.extension;
  if (extension === undefined || extension === null) return null;
  if (!isObject(extension)) refuse(`${where}.extension must be an object keyed by application URI`);
  for (const application of Object.keys(extension)) checkUri(application, `${where}.extension's key`);
  const ours = extension[OPL_NAMESPACE];
  const first: unknown = Array.isArray(ours) ? ours[0] : ours;
  if (!isObject(first)) return null;
  const fields = new Map<string, RawField>();
  for (const [name, value] of Object.entries(first)) {
    if (name === 'provider_uris') fields.set(name, isObject(value) ? Object.entries(value) : value);
    else if (name === 'metadata' || name === 'provider_metadata' || name === 'artists' || name === 'credits') fields.set(name, value);
    else if (value !== null) fields.set(name, scalarText(value));
  }
  return fields;
}

function readTrack(value: unknown, index: number): SourceTrack {
  const where = `playlist.track[${index}]`;
  if (!isObject(value)) refuse(`${where} must be an object`);
  checkPairs(value, 'link', where);
  checkPairs(value, 'meta', where);
  return {
    line: null,
    locations: uris(value, 'location', where, false),
    identifiers: uris(value, 'identifier', where, true),
    title: text(value, 'title', where),
    creator: text(value, 'creator', where),
    annotation: text(value, 'annotation', where),
    info: uri(value, 'info', where),
    image: text(value, 'image', where),
    album: text(value, 'album', where),
    trackNum: wholeNumber(value, 'trackNum', where, true),
    duration: wholeNumber(value, 'duration', where, false),
    extension: oplExtension(value, where),
  };
}

export function readJspf(json: string): SourcePlaylist {
  let document: unknown;
  try {
    document = JSON.parse(json);
  } catch (error) {
    refuse(`it is not valid JSON (${(error as Error).message.slice(0, 200)})`);
  }
  if (!isObject(document) || !isObject(document.playlist)) refuse('the top level must be an object with a "playlist" object');
  const playlist = document.playlist;
  const tracks = playlist.track;
  if (!Array.isArray(tracks)) refuse('playlist.track must be a list of tracks (required, even when empty)');
  const trimmed = (key: string): string | null => text(playlist, key, 'playlist')?.trim() || null;
  for (const key of ['link', 'meta', 'attribution'] as const) checkPairs(playlist, key, 'playlist');
  return {
    line: null,
    title: text(playlist, 'title', 'playlist'),
    creator: text(playlist, 'creator', 'playlist'),
    annotation: text(playlist, 'annotation', 'playlist'),
    info: uri(playlist, 'info', 'playlist'),
    location: uri(playlist, 'location', 'playlist'),
    identifier: uri(playlist, 'identifier', 'playlist'),
    image: trimmed('image'),
    date: trimmed('date'),
    license: uri(playlist, 'license', 'playlist'),
    extension: oplExtension(playlist, 'playlist'),
    tracks: tracks.map((track, index) => readTrack(track, index)),
  };
}
