import { formatKit, type OperationReturn, type PlaylistInput, type TrackInput } from '@opl/plugin-sdk';
import { unescapeValue } from './directive-escape.ts';
import { DisplayOrder } from './display-order.ts';
import { parseExtinf, type Extinf } from './extinf.ts';
import { shown } from './issues.ts';
import { classifyLocation, type LocationKind } from './locations.ts';
import {
  ARTIST_DIRECTIVE,
  DURATION_DIRECTIVE,
  PLAYLIST_DIRECTIVES_BY_NAME,
  PLAYLIST_NAME_DIRECTIVE,
  SCHEMA_VERSION_DIRECTIVE,
  SOURCE_URI_DIRECTIVE,
  TITLE_DIRECTIVE,
  TRACK_DIRECTIVES_BY_NAME,
} from './opl-directives.ts';
import { durationCodec, textCodec } from './values.ts';

export const MAX_PLAYLISTS = 10_000;
export const FALLBACK_PLAYLIST_NAME = 'Imported playlist';
export const LOCAL_FILE_REASON = 'local file: the playlist names a file on the device it was made on; the file is not opened or uploaded';

const TITLE_MAX = 2_000;
const NAME_MAX = 1_000;
// eslint-disable-next-line no-control-regex -- control characters are what is detected here
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f]/;

type ParseResult = OperationReturn<'parse'>;

/** One `#EXTINF` … location group while it is being read. */
interface Entry {
  readonly line: number;
  extinf: Extinf | null;
  album: string | null;
  albumArtist: string | null;
  genre: string | null;
  /** Values of `#OPL-*` track directives; when any is present the entry is restored from them. */
  readonly opl: Record<string, unknown>;
  hasOpl: boolean;
}

interface PlaylistDraft {
  /** `#PLAYLIST:` value, or null when the file named none (yet). */
  name: string | null;
  readonly fields: Record<string, unknown>;
  readonly tracks: TrackInput[];
  touched: boolean;
}

function newDraft(): PlaylistDraft {
  return { name: null, fields: {}, tracks: [], touched: false };
}

function cut(value: string, max: number, what: string, line: number, issues: formatKit.IssueCollector): string {
  const bounded = formatKit.boundedText(value, max);
  if (bounded.truncated) issues.warn(line, 'value_truncated', `the ${what} is longer than ${max} characters and was cut`);
  return bounded.value;
}

/**
 * HLS tags that only an HTTP Live Streaming playlist has (RFC 8216): every media playlist has
 * `#EXT-X-TARGETDURATION`, a master playlist lists its variants with `#EXT-X-STREAM-INF`. Its
 * entries are segments or renditions of one audio/video stream, never songs.
 */
const HLS_TAGS = new Set(['EXT-X-TARGETDURATION', 'EXT-X-MEDIA-SEQUENCE', 'EXT-X-STREAM-INF', 'EXT-X-I-FRAME-STREAM-INF']);

/**
 * Why a file is no M3U at all, judged by its first line that is not blank, or null: a web page or
 * an XML playlist (XSPF, WPL, ASX) — what a playlist link that answered with an error or login
 * page saves —, a PLS file (radio sites serve both kinds under either name), or JSON. Read as M3U,
 * each of their lines would become a local file named by markup. No path starts like that:
 * Windows forbids `<` in names, and a path starting with another bracket (`[2019] Live/01.mp3`)
 * stays a path.
 */
function foreignFormat(text: string): { line: number; message: string } | null {
  for (const { number, text: raw } of formatKit.textLines(text)) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('<')) return { line: number, message: 'the file is an HTML or XML document (a web page, or an XSPF, WPL or ASX playlist), not an M3U playlist; nothing was imported' };
    if (line.length === 10 && line.toLowerCase() === '[playlist]') return { line: number, message: 'the file is a PLS playlist ([playlist]), not M3U; nothing was imported: read it as PLS (a .pls file)' };
    if (/^[[{]$|^\{\s*"|^\[\s*\{/.test(line)) return { line: number, message: 'the file is a JSON document, not an M3U playlist; nothing was imported' };
    return null;
  }
  return null;
}

/**
 * What a location line says about a track read without `#OPL-*` directives: a provider's track
 * (or episode, not migrated) goes to `provider_uris`; a provider URI naming no song (an album, a
 * playlist, an artist…) is `unknown` media kept as `metadata.location`, not migrated; a Spotify
 * local-file URI and a path are local files (`metadata.location`, and `metadata.local_path` for a path).
 */
function fromLocation(location: string, kind: LocationKind, track: TrackInput, metadata: Record<string, unknown>): void {
  if (kind.kind === 'provider') {
    const reason = formatKit.providerItemReason(kind.item);
    if (kind.item === 'track' || kind.item === 'episode') track.provider_uris = { [kind.provider]: kind.uri };
    else metadata.location = location;
    if (reason !== null) Object.assign(track, { media_type: kind.item === 'episode' ? 'episode' : 'unknown', is_migratable: false, unsupported_reason: reason });
    return;
  }
  metadata.location = location;
  if (kind.kind === 'local_file') {
    Object.assign(track, { is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: formatKit.LOCAL_FILE_REASON });
  } else if (kind.kind === 'local') {
    metadata.local_path = kind.path;
    Object.assign(track, { is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: LOCAL_FILE_REASON });
  }
}

export class M3uReader {
  readonly #issues = new formatKit.IssueCollector();
  readonly #playlists: PlaylistDraft[] = [];
  #current: PlaylistDraft = newDraft();
  #entry: Entry | null = null;
  /** `#OPL-SCHEMA-VERSION:1` was read: entries without a location are normal, not a problem. */
  #oplFile = false;
  /** A schema version other than 1 was declared: `#OPL-*` comments are ignored. */
  #oplIgnored = false;
  #stopped = false;
  /** Lines skipped for their length: a file left with no entry is refused, not read as empty. */
  #longLines = 0;
  /** The line of the first HLS tag, when the file is an HLS playlist (nothing is imported). */
  #hlsLine: number | null = null;
  /** Which way round the file's `#EXTINF` displays name their songs; decided once the file is read. */
  readonly #displayOrder = new DisplayOrder();

  read(text: string, filename: string | null, decoding: formatKit.Decoding = formatKit.PLAIN_UTF8): ParseResult {
    if (formatKit.looksBinary(text, { nulIsBinary: true, legacyDecoded: decoding.encoding === 'windows-1252' })) {
      this.#issues.error(null, 'binary_content', 'the file is not a text playlist (it contains binary data; UTF-16 files need a byte order mark)');
      return { playlists: [], issues: this.#issues.issues() };
    }
    const foreign = foreignFormat(text);
    if (foreign !== null) {
      this.#issues.error(foreign.line, 'not_m3u', foreign.message);
      return { playlists: [], issues: this.#issues.issues() };
    }
    // A `.m3u` written by an older player is often Latin-1: read as such, but said, since a file in another code page would be misread.
    const decodingWarning = formatKit.decodingWarning(decoding);
    if (decodingWarning !== null) this.#issues.warn(decodingWarning.line, decodingWarning.code, decodingWarning.message);
    for (const line of formatKit.textLines(text)) {
      if (this.#stopped) break;
      this.#line(line.text, line.number);
    }
    if (this.#hlsLine !== null) {
      this.#issues.error(this.#hlsLine, 'hls_playlist', 'this is an HLS (HTTP Live Streaming) playlist: its entries are segments or variants of one audio/video stream, not songs; nothing was imported');
      return { playlists: [], issues: this.#issues.issues() };
    }
    this.#closeEntry(null);
    this.#displayOrder.apply();
    // Lines skipped for their length and no entry read: no playlist, not an empty import.
    if (this.#longLines > 0 && this.#playlists.every((draft) => draft.tracks.length === 0) && this.#current.tracks.length === 0) {
      formatKit.refuseLongLinesOnly(this.#issues, this.#longLines);
      return { playlists: [], issues: this.#issues.issues() };
    }
    return this.#result(filename);
  }

  #line(raw: string, number: number): void {
    if (raw.length > formatKit.MAX_LINE_LENGTH) {
      // Only the start is looked at: a trimmed copy of 50 MB is not made to find a `#`.
      const lost = this.#entry !== null && !raw.slice(0, 1_000).trimStart().startsWith('#') ? '; the entry it belongs to was skipped' : '';
      if (lost !== '') this.#entry = null;
      this.#longLines += 1;
      formatKit.reportLongLine(this.#issues, number, raw.length, lost);
      return;
    }
    const line = raw.trimStart();
    if (line === '') return;
    if (line.startsWith('#')) this.#directive(line, number);
    else this.#location(line.trimEnd(), number);
  }

  #directive(line: string, number: number): void {
    const colon = line.indexOf(':');
    const name = (colon === -1 ? line.slice(1) : line.slice(1, colon)).trimEnd().toUpperCase();
    const value = colon === -1 ? '' : line.slice(colon + 1);
    switch (name) {
      case 'PLAYLIST':
        return this.#playlist(value.trim());
      case 'EXTINF': {
        if (this.#entry?.extinf) this.#closeEntry(null);
        const entry = this.#openEntry(number);
        entry.extinf = parseExtinf(value);
        if (entry.extinf.problem !== null) this.#issues.warn(number, 'invalid_extinf', `#EXTINF: ${entry.extinf.problem}; the entry is read from what remains`);
        return;
      }
      case 'EXTALB':
        this.#openEntry(number).album = value.trim();
        return;
      case 'EXTART':
        this.#openEntry(number).albumArtist = value.trim();
        return;
      case 'EXTGENRE':
        this.#openEntry(number).genre = value.trim();
        return;
      default:
        if (name.startsWith('OPL-')) this.#opl(name, unescapeValue(value), number);
        else if (HLS_TAGS.has(name)) {
          this.#hlsLine = number;
          this.#stopped = true;
        }
    }
  }

  #opl(name: string, value: string, number: number): void {
    if (name === SCHEMA_VERSION_DIRECTIVE) {
      if (value.trim() === '1') this.#oplFile = true;
      else {
        this.#oplIgnored = true;
        this.#issues.warn(number, 'unsupported_schema_version', `#${name} ${shown(value)} is not supported (only 1 is); the #OPL-* comments are ignored and the file is read as plain M3U`);
      }
      return;
    }
    if (this.#oplIgnored) return;
    const problem = (reason: string | null): void => {
      if (reason !== null) this.#issues.warn(number, 'invalid_value', `#${name} ${shown(value)} ${reason}; the value was ignored`);
    };
    if (name === PLAYLIST_NAME_DIRECTIVE) {
      const read = textCodec(NAME_MAX).read(value);
      if (read.problem !== undefined) return problem(read.problem);
      this.#current.fields.name = read.value;
      this.#current.touched = true;
      return;
    }
    const playlistDirective = PLAYLIST_DIRECTIVES_BY_NAME.get(name);
    if (playlistDirective !== undefined) {
      this.#current.touched = true;
      return problem(playlistDirective.read(value, this.#current.fields));
    }
    const trackDirective = TRACK_DIRECTIVES_BY_NAME.get(name);
    const special = name === TITLE_DIRECTIVE || name === ARTIST_DIRECTIVE || name === DURATION_DIRECTIVE || name === SOURCE_URI_DIRECTIVE;
    if (trackDirective === undefined && !special) return; // a newer directive: ignored
    const entry = this.#openEntry(number);
    entry.hasOpl = true;
    if (trackDirective !== undefined) return problem(trackDirective.read(value, entry.opl));
    if (name === DURATION_DIRECTIVE) {
      const read = durationCodec.read(value);
      if (read.problem !== undefined) return problem(read.problem);
      entry.opl.duration_s = read.value;
      return;
    }
    if (name === SOURCE_URI_DIRECTIVE) {
      entry.opl[SOURCE_URI_DIRECTIVE] = value;
      return;
    }
    const read = textCodec(TITLE_MAX).read(value);
    if (read.problem !== undefined) return problem(read.problem);
    entry.opl[name === TITLE_DIRECTIVE ? 'title' : 'artist'] = read.value;
  }

  #playlist(name: string): void {
    this.#closeEntry(null);
    if (this.#current.name !== null || this.#current.touched || this.#current.tracks.length > 0) {
      this.#playlists.push(this.#current);
      if (this.#playlists.length >= MAX_PLAYLISTS) {
        this.#issues.error(null, 'too_many_playlists', `only the first ${MAX_PLAYLISTS} playlists were read`);
        this.#stopped = true;
      }
      this.#current = newDraft();
    }
    this.#current.name = name;
  }

  #openEntry(number: number): Entry {
    this.#entry ??= { line: number, extinf: null, album: null, albumArtist: null, genre: null, opl: {}, hasOpl: false };
    return this.#entry;
  }

  #location(location: string, number: number): void {
    if (CONTROL.test(location)) {
      this.#issues.error(number, 'invalid_location', `the location ${shown(location)} contains control characters; the entry was skipped`);
      this.#entry = null;
      return;
    }
    this.#openEntry(number);
    this.#closeEntry(location);
  }

  /** Turns the entry being read into a track; `location` is null when it has none. */
  #closeEntry(location: string | null): void {
    const entry = this.#entry;
    if (entry === null) return;
    this.#entry = null;
    const issues = this.#issues;
    const extinf = entry.extinf;
    const kind = location !== null && !entry.hasOpl ? classifyLocation(location) : null;
    // Our own files join `artist - title` exactly; anything else may number its entries (`01 - Title`).
    let names: formatKit.ArtistTitle = { artist: '', title: '', trackNumber: null };
    if (extinf !== null) names = formatKit.splitArtistTitle(extinf.display, { exact: this.#oplFile || entry.hasOpl });
    if (kind?.kind === 'local_file') {
      // A Spotify local file names itself: what `#EXTINF` leaves out is taken from its URI.
      names = { artist: names.artist === '' ? kind.artist : names.artist, title: names.title === '' ? kind.title : names.title, trackNumber: names.trackNumber };
    } else if (names.title === '' && names.artist === '' && (kind?.kind === 'local' || kind?.kind === 'remote')) {
      names = formatKit.splitArtistTitle(formatKit.fileStem(kind.kind === 'local' ? kind.path : kind.url), { fileName: true });
    }
    const artist = names.artist === '' && !entry.hasOpl && entry.albumArtist !== null ? entry.albumArtist : names.artist;
    if (location === null && !entry.hasOpl && (extinf === null || (!this.#oplFile && names.title === ''))) {
      // `#EXTALB:` / `#EXTART:` (or an empty `#EXTINF`) with no location after them: nothing to import.
      issues.warn(entry.line, 'empty_entry', 'the entry has no title and no location line (e.g. a stray #EXTART or #EXTALB at the end); it was skipped');
      return;
    }
    if (location === null && !this.#oplFile) issues.warn(entry.line, 'missing_location', 'the entry has no location line; it is kept with its title and artist');
    const track: TrackInput = { title: '', artist: '' };
    const metadata: Record<string, unknown> = {};
    if (location !== null && kind !== null) fromLocation(location, kind, track, metadata);
    if (extinf !== null) {
      track.duration_s = extinf.duration;
      if (!entry.hasOpl && Object.keys(extinf.attributes).length > 0) metadata.extinf_attributes = extinf.attributes;
    }
    track.artist = cut(artist, TITLE_MAX, 'artist', entry.line, issues);
    track.title = cut(names.title, TITLE_MAX, 'title', entry.line, issues);
    // iTunes writes `Title - Artist`; the files' paths tell (display-order.ts).
    if (extinf !== null && kind?.kind === 'local' && !this.#oplFile) this.#displayOrder.note(track, extinf.display, names, kind.path);
    if (!entry.hasOpl) {
      if (names.trackNumber !== null) track.track_number = names.trackNumber;
      if (entry.album !== null && entry.album !== '') track.album = cut(entry.album, 10_000, 'album', entry.line, issues);
      if (entry.genre !== null && entry.genre !== '') track.genre = cut(entry.genre, 10_000, 'genre', entry.line, issues);
      if (kind?.kind === 'local_file') {
        if (kind.album !== '' && (entry.album === null || entry.album === '')) track.album = cut(kind.album, 10_000, 'album', entry.line, issues);
        if (track.duration_s === undefined || track.duration_s === null) track.duration_s = kind.seconds;
      }
      if (kind?.kind === 'remote') {
        const reason = formatKit.remoteItemReason(kind.url, { artist: track.artist, title: track.title, lengthUnknown: extinf?.lengthUnknown === true });
        if (reason !== null) Object.assign(track, { media_type: 'unknown', is_migratable: false, unsupported_reason: reason });
      }
      if (Object.keys(metadata).length > 0) track.metadata = metadata;
    } else {
      const { [SOURCE_URI_DIRECTIVE]: sourceUri, ...fields } = entry.opl;
      Object.assign(track, fields);
      if (typeof sourceUri === 'string' && fields.provider_uris === undefined) {
        const provider = formatKit.providerOfUri(sourceUri);
        if (provider !== null) track.provider_uris = { [provider]: sourceUri };
        else if (fields.metadata === undefined) track.metadata = { source_uri: sourceUri };
      }
    }
    track.position = this.#current.tracks.length;
    this.#current.tracks.push(track);
  }

  #result(filename: string | null): ParseResult {
    const drafts = [...this.#playlists];
    const current = this.#current;
    const hasCurrent = current.name !== null || current.touched || current.tracks.length > 0;
    if (hasCurrent || (drafts.length === 0 && !this.#oplFile)) drafts.push(current);
    if (!this.#oplFile && drafts.every((draft) => draft.tracks.length === 0)) this.#issues.warn(null, 'no_tracks', 'the file holds no playlist entries');
    const playlists = drafts.slice(0, MAX_PLAYLISTS).map((draft): PlaylistInput => {
      const named = draft.name !== null && draft.name !== '' ? draft.name.slice(0, NAME_MAX) : formatKit.playlistNameFromFilename(filename, FALLBACK_PLAYLIST_NAME);
      return { name: named, ...draft.fields, tracks: draft.tracks };
    });
    return { playlists, issues: this.#issues.issues() };
  }
}

export function parseM3u(text: string, filename: string | null, decoding: formatKit.Decoding = formatKit.PLAIN_UTF8): ParseResult {
  return new M3uReader().read(text, filename, decoding);
}
