import { formatKit, InvalidInput, parseXml, type OperationReturn, type PlaylistInput, type TrackInput, type XmlElement, type XmlElementStart } from '@opl/plugin-sdk';
import { readTrack, UnknownFields } from './track-fields.ts';

/**
 * The plain XML shape other tools export, one or several playlists:
 *
 * ```xml
 * <playlists>
 *   <playlist name="Road trip">
 *     <track title="Harbour Lights" artist="The Quiet Tide" album="Lights" duration="239" isrc="…" uri="spotify:track:…"/>
 *     <track><title>Under Glass</title><artist>Mara Voss</artist><uri>file:///home/u/a.mp3</uri></track>
 *   </playlist>
 * </playlists>
 * ```
 *
 * The root is `<playlists>` (its `<playlist>` children are the playlists) or one `<playlist>`; a
 * playlist's tracks are its `<track>` children, or those of a `<tracks>` (`<trackList>`) in it.
 * Names are matched without namespace and case-insensitively. A playlist is named by its `name`
 * or `title` attribute or child element, else after the file. Track fields: track-fields.ts.
 * XSPF (`<playlist>` in the XSPF namespace), WPL and iTunes libraries have their own plugins; the
 * sniffer sends only other roots here.
 *
 * Tracks are converted as each `<track>` closes and dropped from the tree (`parseXml`'s
 * `onElement`), so a large file is never held as elements. XML goes through the SDK's safe parser:
 * any DOCTYPE (entity bombs, external entities) and unknown entities are refused, as are files past
 * the limits below.
 */

type ParseResult = OperationReturn<'parse'>;

/**
 * Elements read at most: a track is at most about ten (its fields as children), 100,000 tracks
 * about a million. The text limit is per element and counts the layout between a playlist's
 * tracks too (100,000 indented lines are about a million characters); a field's text is cut to
 * the model's bounds anyway.
 */
const XML_LIMITS = { maxDepth: 16, maxNodes: 2_000_000, maxTextLength: 4_000_000 } as const;
const TRACK_WRAPPERS = new Set(['tracks', 'tracklist']);

const lower = (element: XmlElementStart): string => element.name.toLowerCase();

/** The playlist element a `<track>` at the end of `path` belongs to: its parent, or its parent's parent through a `<tracks>` wrapper. */
function owningPlaylist(path: readonly XmlElementStart[]): XmlElementStart | null {
  const parent = path.at(-1);
  if (parent === undefined) return null;
  if (lower(parent) === 'playlist') return parent;
  const grandparent = path.at(-2);
  return TRACK_WRAPPERS.has(lower(parent)) && grandparent !== undefined && lower(grandparent) === 'playlist' ? grandparent : null;
}

function nameOf(playlist: XmlElement): string | null {
  for (const key of ['name', 'title']) {
    const value = playlist.attributes[key]?.trim();
    if (value !== undefined && value !== '') return value;
  }
  for (const child of playlist.children) {
    const name = lower(child);
    if ((name === 'name' || name === 'title') && child.text.trim() !== '') return child.text.trim();
  }
  return null;
}

export function parseGenericXml(text: string, filename: string | null): ParseResult {
  const issues = new formatKit.IssueCollector();
  const unknown = new UnknownFields();
  /** Each open playlist's tracks, by its element (the same object from its start tag to its end). */
  const tracks = new Map<XmlElementStart, TrackInput[]>();
  const root = parseXml(text, {
    ...XML_LIMITS,
    onElement: (element, path) => {
      if (lower(element) !== 'track') return true;
      const playlist = owningPlaylist(path);
      if (playlist === null) return true;
      let list = tracks.get(playlist);
      if (list === undefined) tracks.set(playlist, (list = []));
      const track = readTrack(element, list.length, unknown, issues);
      if (track !== null) list.push(track);
      return false;
    },
  });
  const rootName = lower(root);
  let elements: readonly XmlElement[];
  if (rootName === 'playlists') elements = root.children.filter((child) => lower(child) === 'playlist');
  else if (rootName === 'playlist') elements = [root];
  else throw new InvalidInput(`the root element is <${root.name.slice(0, 100)}>, not <playlists> or <playlist>: this is not a generic XML playlist`);
  if (elements.length === 0) throw new InvalidInput('<playlists> holds no <playlist>: there is nothing to import');
  const fallback = formatKit.playlistNameFromFilename(filename);
  const playlists: PlaylistInput[] = [];
  for (const element of elements) {
    if (playlists.length === formatKit.LIMITS.playlists) {
      issues.error(element.line, 'too_many_playlists', `the file holds more than ${formatKit.LIMITS.playlists} playlists; only the first ${formatKit.LIMITS.playlists} were read`);
      break;
    }
    const name = nameOf(element);
    const list = tracks.get(element) ?? [];
    if (list.length === 0) issues.warn(element.line, 'no_tracks', `the playlist ${JSON.stringify((name ?? fallback).slice(0, 60))} holds no tracks`);
    playlists.push({ name: formatKit.boundedText(name ?? fallback, formatKit.LIMITS.playlistName).value, tracks: list });
  }
  return { playlists, issues: issues.issues() };
}
