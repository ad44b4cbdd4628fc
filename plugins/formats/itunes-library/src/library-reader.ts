import { formatKit, InvalidInput, parseXml, type OperationReturn, type PlaylistInput, type TrackInput, type XmlElement } from '@opl/plugin-sdk';
import { libraryTrack } from './library-track.ts';
import { booleanValue, dictEntries, integerValue, isArray, isDict, LEGACY_PLIST_DOCTYPE, PLIST_DOCTYPE, stringValue } from './plist-values.ts';

/**
 * iTunes / Apple Music `Library.xml` (File › Library › Export Library…): an XML property list whose
 * root dict has `Tracks` (track id ⇒ track dict) and `Playlists` (an array of playlist dicts whose
 * `Playlist Items` name tracks by `Track ID`). Every user playlist becomes a playlist:
 * - the whole library (the master list, "Library": `Master`; without one, the built-in "Music"
 *   list) is one collection of kind `LIKED_TRACKS`, first, so that a whole library can move into
 *   a service's liked songs; its items are its `Playlist Items` (a master list without any, as
 *   hand-made files have, is skipped with a warning: it names no songs);
 * - Apple's other built-in lists (`Distinguished Kind`: Music, Movies, Podcasts, Purchased, …; in
 *   older libraries only a flag such as `Party Shuffle`) and the lists the app hides (`Visible`
 *   false) are not the user's playlists: skipped, one warning each;
 * - folders (`Folder`) hold playlists, not tracks: skipped with a warning, and each playlist in one
 *   carries its folder path (`metadata.folder`, "Parent / Child");
 * - smart playlists are read as the snapshot of items the file lists (`metadata.smart`);
 * - an item names its track by `Track ID`, which iTunes resolves by the track's key in `Tracks`
 *   (the key wins when a track dict's own `Track ID` differs from it; the inner id is the fallback);
 *   an item naming a track the library does not have is an item-level error; its neighbours are
 *   kept; duplicates are kept in order.
 * Deterministic: document order throughout.
 */

type ParseResult = OperationReturn<'parse'>;

/**
 * Elements read at most. A song is about 60 (30 keys and their values), and the whole-library and
 * Music lists hold it again: a 60,000-song library is over 4,000,000. This bounds the parse's time
 * (a library of 20,000,000 is about 500 MB); its memory is the sandbox's limit, which says what to raise.
 */
const MAX_NODES = 20_000_000;
/** The DOCTYPE under Apple's former name, as a library's prolog writes it (either quote). */
const LEGACY_DOCTYPE = /<!DOCTYPE\s+plist\s+PUBLIC\s+["']-\/\/Apple Computer\/\//;
const UNTITLED = 'Untitled playlist';
/**
 * The flags of Apple's built-in lists. Libraries of iTunes versions before `Distinguished Kind`
 * mark them only so; later ones write both.
 */
const BUILT_IN_FLAGS = ['Music', 'Movies', 'TV Shows', 'Podcasts', 'Audiobooks', 'Books', 'Purchased Music', 'Party Shuffle', 'Videos', 'iTunesU'] as const;
const FOLDER_SEPARATOR = ' / ';

const shown = (value: string): string => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);

interface LibraryPlaylist {
  readonly dict: XmlElement;
  readonly entries: Map<string, XmlElement>;
  readonly name: string;
}

/**
 * Track dicts by their key in `Tracks` (else, when the key is no whole number, the dict's own
 * `Track ID`), converted as the parser closes each one and then dropped from the tree: a large
 * library's memory is the model tracks, not their XML elements. A dict whose `Track ID` differs
 * from its key is also found by that id, unless another track has it as its key.
 */
class TrackTable {
  readonly #tracks = new Map<number, TrackInput>();
  /** Inner `Track ID`s that differ from their dict's key: the fallback when an item's id is no key. */
  readonly #innerIds = new Map<number, TrackInput>();
  readonly #issues: formatKit.IssueCollector;

  constructor(issues: formatKit.IssueCollector) {
    this.#issues = issues;
  }

  add(key: string, dict: XmlElement): void {
    if (!isDict(dict)) {
      this.#issues.warn(dict.line, 'invalid_track', `track ${shown(key)} is not a <dict>; ignored`);
      return;
    }
    const inner = integerValue(dictEntries(dict).get('Track ID'));
    const id = /^\d{1,15}$/.test(key.trim()) ? Number(key.trim()) : inner;
    if (id === null) this.#issues.warn(dict.line, 'invalid_track', `track ${shown(key)} has no whole-number Track ID; ignored`);
    else if (this.#tracks.has(id)) this.#issues.warn(dict.line, 'duplicate_track_id', `Track ID ${id} appears twice in "Tracks"; the first is kept`);
    else {
      const track = libraryTrack(dict, this.#issues);
      this.#tracks.set(id, track);
      if (inner !== null && inner !== id && !this.#innerIds.has(inner)) this.#innerIds.set(inner, track);
    }
  }

  /** A fresh copy (each playlist entry gets its own position), or null when the library has no such track. */
  get(id: number): TrackInput | null {
    const track = this.#tracks.get(id) ?? this.#innerIds.get(id);
    return track === undefined ? null : { ...track, metadata: { ...track.metadata } };
  }

}

/**
 * The Apple DOCTYPE this library may carry: the current one, or the one iTunes 11 and older wrote
 * (`-//Apple Computer//…`). Only the prolog is looked at; the parser still accepts exactly that
 * DOCTYPE, without an internal subset, and refuses every other.
 */
function plistDoctype(text: string): typeof PLIST_DOCTYPE | typeof LEGACY_PLIST_DOCTYPE {
  return LEGACY_DOCTYPE.test(text.slice(0, 4_096)) ? LEGACY_PLIST_DOCTYPE : PLIST_DOCTYPE;
}

/** The root dict's entries; the `Tracks` entries go into `table` as they are read. */
function libraryRoot(text: string, table: TrackTable): Map<string, XmlElement> {
  // The key of the root dict entry being read, and the key of the `Tracks` entry being read.
  let rootKey: string | null = null;
  let trackKey: string | null = null;
  const root = parseXml(text, {
    maxNodes: MAX_NODES,
    allowedDoctype: plistDoctype(text),
    onElement: (element, path) => {
      if (path.length === 2 && path[0]!.name === 'plist' && path[1]!.name === 'dict' && element.name === 'key') rootKey = element.text;
      if (path.length !== 3 || rootKey !== 'Tracks' || path[1]!.name !== 'dict' || path[2]!.name !== 'dict') return true;
      if (element.name === 'key' && trackKey === null) trackKey = element.text;
      else {
        table.add(trackKey ?? '', element);
        trackKey = null;
      }
      return false;
    },
  });
  if (root.name !== 'plist' || root.namespace !== '') throw new InvalidInput(`the root element is <${root.name.slice(0, 100)}>, not <plist>: this is not an iTunes / Apple Music library`);
  const top = root.children[0];
  if (top === undefined || !isDict(top)) throw new InvalidInput('the property list does not hold a <dict>: this is not an iTunes / Apple Music library');
  const entries = dictEntries(top);
  if (!entries.has('Tracks') && !isArray(entries.get('Playlists'))) {
    throw new InvalidInput('the property list has neither "Tracks" nor "Playlists": this is not an iTunes / Apple Music library (export it with File › Library › Export Library…)');
  }
  return entries;
}

/** "Parent / Child" folder path of a playlist, following `Parent Persistent ID` (cycles cut). */
function folderPath(parentId: string | null, folders: ReadonlyMap<string, { name: string; parent: string | null }>): string | null {
  const names: string[] = [];
  const seen = new Set<string>();
  for (let id = parentId; id !== null && !seen.has(id); id = folders.get(id)?.parent ?? null) {
    seen.add(id);
    const folder = folders.get(id);
    if (folder === undefined) break;
    names.unshift(folder.name);
  }
  return names.length === 0 ? null : names.join(FOLDER_SEPARATOR);
}

function playlistTracks(playlist: LibraryPlaylist, table: TrackTable, issues: formatKit.IssueCollector): TrackInput[] {
  const tracks: TrackInput[] = [];
  const items = playlist.entries.get('Playlist Items');
  if (items === undefined) return tracks;
  if (!isArray(items)) {
    issues.error(items.line, 'invalid_playlist', `"Playlist Items" of ${shown(playlist.name)} is not an <array>; the playlist is empty`);
    return tracks;
  }
  for (const item of items.children) {
    const id = isDict(item) ? integerValue(dictEntries(item).get('Track ID')) : null;
    if (id === null) {
      issues.error(item.line, 'invalid_item', `an item of ${shown(playlist.name)} names no Track ID; skipped`);
      continue;
    }
    const track = table.get(id);
    if (track === null) {
      issues.error(item.line, 'missing_track', `an item of ${shown(playlist.name)} names Track ID ${id}, which is not in the library's "Tracks"; skipped`);
      continue;
    }
    track.position = tracks.length;
    tracks.push(track);
  }
  return tracks;
}

/** The built-in Music list: `Distinguished Kind` 4, or (older libraries) the `Music` flag. */
function isMusicList(entries: ReadonlyMap<string, XmlElement>): boolean {
  return integerValue(entries.get('Distinguished Kind')) === 4 || booleanValue(entries.get('Music')) === true;
}

/** The whole library as one `LIKED_TRACKS` collection (see the top). */
function libraryCollection(whole: LibraryPlaylist, table: TrackTable, issues: formatKit.IssueCollector): PlaylistInput {
  const metadata: Record<string, unknown> = { itunes_library: true };
  const persistentId = stringValue(whole.entries.get('Playlist Persistent ID'));
  if (persistentId !== null) metadata.itunes_persistent_id = formatKit.boundedText(persistentId, 200).value;
  return { name: whole.name, kind: 'LIKED_TRACKS', tracks: playlistTracks(whole, table, issues), metadata };
}

/** `issues` may already hold the decoding's warnings (library-text.ts); the library's come after them. */
export function parseLibraryText(text: string, issues: formatKit.IssueCollector = new formatKit.IssueCollector()): ParseResult {
  const table = new TrackTable(issues);
  const root = libraryRoot(text, table);
  const playlistsElement = root.get('Playlists');
  const dicts = playlistsElement !== undefined && isArray(playlistsElement) ? playlistsElement.children.filter((child) => isDict(child)) : [];

  const candidates: LibraryPlaylist[] = [];
  const folders = new Map<string, { name: string; parent: string | null }>();
  /** The whole library: the master list, else the built-in Music list. */
  let whole: LibraryPlaylist | null = null;
  const hasMaster = dicts.some((dict) => booleanValue(dictEntries(dict).get('Master')) === true);
  for (const dict of dicts) {
    const entries = dictEntries(dict);
    const name = formatKit.boundedText(stringValue(entries.get('Name'))?.trim() || UNTITLED, formatKit.LIMITS.playlistName).value;
    const distinguished = entries.get('Distinguished Kind');
    const flag = BUILT_IN_FLAGS.find((key) => booleanValue(entries.get(key)) === true);
    const isMaster = booleanValue(entries.get('Master')) === true;
    if (whole === null && (isMaster || (!hasMaster && isMusicList(entries))) && entries.has('Playlist Items')) {
      whole = { dict, entries, name };
    } else if (isMaster) {
      const why = entries.has('Playlist Items') ? 'a second whole-library list (the first is imported as the library)' : 'the whole library, but it lists no items';
      issues.warn(dict.line, 'library_list_skipped', `${shown(name)} is ${why}; skipped`);
    } else if (distinguished !== undefined || flag !== undefined) {
      const kind = distinguished === undefined ? `marked ${flag}` : `Distinguished Kind ${distinguished.text.trim().slice(0, 20)}`;
      issues.warn(dict.line, 'system_playlist_skipped', `${shown(name)} is a built-in list of the app (${kind}), not a playlist of yours; skipped`);
    } else if (booleanValue(entries.get('Visible')) === false) {
      // The app keeps lists of its own that it never shows; no user can make or see one.
      issues.warn(dict.line, 'system_playlist_skipped', `${shown(name)} is a hidden list of the app (Visible false), not a playlist of yours; skipped`);
    } else if (booleanValue(entries.get('Folder')) === true) {
      const id = stringValue(entries.get('Playlist Persistent ID'));
      if (id !== null) folders.set(id, { name, parent: stringValue(entries.get('Parent Persistent ID')) });
      issues.warn(dict.line, 'folder_skipped', `${shown(name)} is a playlist folder, not a playlist; the playlists in it are imported with their folder path`);
    } else {
      candidates.push({ dict, entries, name });
    }
  }

  // The parse result holds at most this many playlists (the library's included); the host would refuse the whole library.
  const room = formatKit.LIMITS.playlists - (whole === null ? 0 : 1);
  if (candidates.length > room) {
    issues.error(null, 'too_many_playlists', `the library holds ${candidates.length} playlists; only the first ${room} were read`);
    candidates.length = room;
  }
  const playlists: PlaylistInput[] = candidates.map((playlist) => {
    const { entries } = playlist;
    const metadata: Record<string, unknown> = {};
    const folder = folderPath(stringValue(entries.get('Parent Persistent ID')), folders);
    if (folder !== null) metadata.folder = formatKit.boundedText(folder, 10_000).value;
    const persistentId = stringValue(entries.get('Playlist Persistent ID'));
    if (persistentId !== null) metadata.itunes_persistent_id = formatKit.boundedText(persistentId, 200).value;
    const playlistId = integerValue(entries.get('Playlist ID'));
    if (playlistId !== null) metadata.itunes_playlist_id = playlistId;
    if (entries.has('Smart Info')) metadata.smart = true;
    const description = stringValue(entries.get('Description'));
    return {
      name: playlist.name,
      description: description === null || description === '' ? null : formatKit.boundedText(description, 10_000).value,
      tracks: playlistTracks(playlist, table, issues),
      metadata,
    };
  });
  if (whole !== null) playlists.unshift(libraryCollection(whole, table, issues));
  if (playlists.length === 0) issues.error(null, 'no_playlists', 'the library holds no playlists and no whole-library list (built-in lists and folders are not imported)');
  return { playlists, issues: issues.issues() };
}
