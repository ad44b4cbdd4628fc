import { formatKit, InvalidInput, parseXml, xmlChild, xmlChildren, type OperationReturn, type TrackInput, type XmlElement } from '@opl/plugin-sdk';
import { applyLocation, namesFromFile, remoteItem } from './wpl-location.ts';

/**
 * WPL (Windows Media Player playlist): `<?wpl version="1.0"?>` (Zune and Groove Music's `.zpl`: `<?zpl version="2.0"?>`) then SMIL —
 * `<smil><head><title/><author/><meta name content/></head><body><seq><media src tid …/></seq></body></smil>`.
 * One playlist per file. XML goes through the SDK's safe parser (any DOCTYPE and entity
 * declarations refused); the `<?wpl?>` processing instruction is ignored like any other.
 * Problems with one `<media>` are item-level issues that never cost its neighbours.
 */

type ParseResult = OperationReturn<'parse'>;

const TEXT_MAX = formatKit.LIMITS.title;
/** The most `<media>` and other elements read; far beyond any playlist WMP writes. */
const MAX_NODES = 2_000_000;
/** Attributes WMP 11/12 write on `<media>` when it knows the track (duration in milliseconds). */
const MEDIA_ATTRIBUTES = { title: 'trackTitle', artist: 'trackArtist', album: 'albumTitle', albumArtist: 'albumArtist', duration: 'duration' } as const;
// eslint-disable-next-line no-control-regex -- control characters are what is refused here
const CONTROL = /[\u0000-\u001f\u007f]/;

const shown = (value: string): string => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);

function bounded(value: string, what: string, line: number, issues: formatKit.IssueCollector): string {
  const cut = formatKit.boundedText(value.trim(), TEXT_MAX);
  if (cut.truncated) issues.warn(line, 'value_truncated', `the ${what} is longer than ${TEXT_MAX} characters and was cut`);
  return cut.value;
}

function attribute(element: XmlElement, name: string): string | null {
  const value = element.attributes[name]?.trim();
  return value === undefined || value === '' ? null : value;
}

function mediaTrack(media: XmlElement, issues: formatKit.IssueCollector): TrackInput | null {
  const src = media.attributes.src?.trim() ?? '';
  if (src === '') {
    issues.error(media.line, 'missing_src', '<media> has no src (the file it plays); skipped');
    return null;
  }
  if (CONTROL.test(src)) {
    issues.error(media.line, 'invalid_location', `src ${shown(src)} contains control characters; skipped`);
    return null;
  }
  const track: TrackInput = { title: '', artist: '' };
  const metadata: Record<string, unknown> = {};
  const kind = applyLocation(src, track, metadata);
  const fromFile = kind.kind === 'local' ? namesFromFile(kind.path) : kind.kind === 'remote' ? namesFromFile(kind.url) : null;
  const title = attribute(media, MEDIA_ATTRIBUTES.title);
  const artist = attribute(media, MEDIA_ATTRIBUTES.artist);
  track.title = bounded(title ?? fromFile?.title ?? '', 'title', media.line, issues);
  track.artist = bounded(artist ?? (title === null ? (fromFile?.artist ?? '') : ''), 'artist', media.line, issues);
  if (title === null && fromFile !== null && fromFile.trackNumber !== null) track.track_number = fromFile.trackNumber;
  const album = attribute(media, MEDIA_ATTRIBUTES.album);
  if (album !== null) track.album = bounded(album, 'album', media.line, issues);
  const albumArtist = attribute(media, MEDIA_ATTRIBUTES.albumArtist);
  if (albumArtist !== null) metadata.album_artist = bounded(albumArtist, 'album artist', media.line, issues);
  const duration = attribute(media, MEDIA_ATTRIBUTES.duration);
  if (duration !== null) {
    if (/^\d{1,12}$/.test(duration) && Number(duration) / 1_000 <= 1_000_000) track.duration_s = Number(duration) / 1_000;
    else issues.warn(media.line, 'invalid_value', `duration ${shown(duration)} is not a number of milliseconds; left empty`);
  }
  formatKit.fillFromLocalFile(kind, track);
  remoteItem(kind, track);
  // WMP's library ids of the track and its content (GUIDs): kept so a round trip can name them.
  for (const [name, key] of [['tid', 'wpl_tid'], ['cid', 'wpl_cid']] as const) {
    const value = attribute(media, name);
    if (value !== null) metadata[key] = formatKit.boundedText(value, 200).value;
  }
  track.metadata = metadata;
  return track;
}

function readHead(head: XmlElement | null, issues: formatKit.IssueCollector): { title: string | null; author: string | null; meta: Record<string, string>; itemCount: { value: number; line: number } | null } {
  const meta: Record<string, string> = {};
  let itemCount: { value: number; line: number } | null = null;
  if (head === null) return { title: null, author: null, meta, itemCount };
  for (const element of xmlChildren(head, '', 'meta')) {
    const name = element.attributes.name?.trim() ?? '';
    const content = element.attributes.content ?? '';
    if (name === '') continue;
    if (name.toLowerCase() === 'itemcount') {
      if (/^\s*\d{1,9}\s*$/.test(content)) itemCount = { value: Number(content), line: element.line };
      else issues.warn(element.line, 'invalid_value', `ItemCount ${shown(content)} is not a count; ignored`);
    } else if (Object.keys(meta).length < 50 && name.length <= 200) {
      meta[name] = formatKit.boundedText(content, 1_000).value;
    }
  }
  const title = xmlChild(head, '', 'title')?.text.trim() ?? '';
  const author = xmlChild(head, '', 'author')?.text.trim() ?? '';
  return { title: title === '' ? null : title, author: author === '' ? null : author, meta, itemCount };
}

export function parseWplText(text: string, filename: string | null): ParseResult {
  const issues = new formatKit.IssueCollector();
  const root = parseXml(text, { maxNodes: MAX_NODES });
  if (root.name !== 'smil' || root.namespace !== '') {
    throw new InvalidInput(`the root element is <${root.name.slice(0, 100)}>, not <smil>: this is not a Windows Media Player playlist`);
  }
  const head = readHead(xmlChild(root, '', 'head'), issues);
  const body = xmlChild(root, '', 'body');
  const tracks: TrackInput[] = [];
  const sequences = body === null ? [] : xmlChildren(body, '', 'seq');
  for (const seq of sequences) {
    for (const child of seq.children) {
      if (child.name !== 'media' || child.namespace !== '') {
        const why = child.name === 'smartPlaylist' ? 'the rules of an auto playlist are not read; only its listed <media> entries are' : 'it is not a <media> entry';
        issues.warn(child.line, 'ignored_element', `<${child.name.slice(0, 100)}> in <seq> was ignored: ${why}`);
        continue;
      }
      const track = mediaTrack(child, issues);
      if (track === null) continue;
      track.position = tracks.length;
      tracks.push(track);
    }
  }
  const entries = sequences.reduce((sum, seq) => sum + xmlChildren(seq, '', 'media').length, 0);
  if (head.itemCount !== null && head.itemCount.value !== entries) {
    issues.warn(head.itemCount.line, 'entry_count_mismatch', `ItemCount says ${head.itemCount.value} but the playlist has ${entries} <media> entries; all entries found were read`);
  }
  if (sequences.length === 0) issues.warn(body?.line ?? root.line, 'no_tracks', 'the playlist has no <body><seq> with entries');
  else if (tracks.length === 0) issues.warn(null, 'no_tracks', 'the playlist holds no entries');
  const metadata: Record<string, unknown> = {};
  if (Object.keys(head.meta).length > 0) metadata.wpl_meta = head.meta;
  return {
    playlists: [
      {
        name: head.title === null ? formatKit.playlistNameFromFilename(filename) : formatKit.boundedText(head.title, formatKit.LIMITS.playlistName).value,
        owner_name: head.author === null ? null : formatKit.boundedText(head.author, 1_000).value,
        tracks,
        metadata,
      },
    ],
    issues: issues.issues(),
  };
}
