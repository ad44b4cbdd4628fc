import { formatKit, type Playlist, type PlaylistWriter, type Track } from '@opl/plugin-sdk';
import { escapeValue, oneLine } from './directive-escape.ts';
import { parseExtinf } from './extinf.ts';
import { playableLocation } from './locations.ts';
import {
  ARTIST_DIRECTIVE,
  DURATION_DIRECTIVE,
  PLAYLIST_DIRECTIVES,
  PLAYLIST_NAME_DIRECTIVE,
  SCHEMA_VERSION_DIRECTIVE,
  SOURCE_URI_DIRECTIVE,
  TITLE_DIRECTIVE,
  TRACK_DIRECTIVES,
  type FieldDirective,
} from './opl-directives.ts';

export const LINE_END = '\n';

export interface SerializeOptions {
  /** Provider whose URI is preferred for the location and `#OPL-SOURCE-URI` (`options.source_provider`). */
  readonly sourceProvider: string | null;
}

export function serializeOptions(options: Readonly<Record<string, unknown>>): SerializeOptions {
  const provider = options.source_provider;
  return { sourceProvider: typeof provider === 'string' && provider !== '' ? provider : null };
}

/**
 * C0 control characters other than tab and the line breaks `escapeValue` already handles, and lone
 * surrogates. Written raw, a single NUL makes readers (ours included) take the whole file for
 * binary, and a lone surrogate can only be encoded as U+FFFD; so `#OPL-*` values carry them as
 * `\uXXXX` escapes (which the reader's unescaping restores exactly) and the human-facing lines
 * show a space instead, with the exact value in an `#OPL-*` comment.
 */
// eslint-disable-next-line no-control-regex -- control characters are what is replaced here
const UNWRITABLE = /[\u0000-\u0008\u000e-\u001f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

function directive(name: string, value: string): string {
  // After `escapeValue`, whose doubled backslashes keep these new escapes unambiguous.
  return `#${name}:${escapeValue(value).replace(UNWRITABLE, unicodeEscape)}${LINE_END}`;
}

/** Text for `#PLAYLIST:` and `#EXTINF:` (see `oneLine`), without anything `UNWRITABLE`. */
function shownText(value: string): string {
  return oneLine(value).replace(UNWRITABLE, ' ');
}

function* fieldDirectives<M>(directives: readonly FieldDirective<M>[], model: M): Generator<string> {
  for (const entry of directives) {
    const value = entry.write(model);
    if (value !== null) yield directive(entry.name, value);
  }
}

/** The display part of `#EXTINF`: `Artist - Title`, or the title alone when there is no artist. */
function display(track: Track): string {
  return shownText(track.artist === '' ? track.title : `${track.artist} - ${track.title}`);
}

/** Whole seconds, rounded half up; `-1` when unknown (the M3U convention). */
function extinfSeconds(duration: number | null): string {
  return duration === null ? '-1' : String(Math.floor(duration + 0.5));
}

function sourceUri(track: Track, preferred: string | null): string | null {
  for (const key of formatKit.orderedProviders(track.provider_uris, preferred)) {
    const uri = track.provider_uris[key];
    if (uri !== undefined && uri !== '') return uri;
  }
  return null;
}

function* trackLines(track: Track, preferred: string | null): Generator<string> {
  const shown = display(track);
  yield `#EXTINF:${extinfSeconds(track.duration_s)},${shown}${LINE_END}`;
  // The exact values whenever reading the #EXTINF line back would not give them (our files are read
  // back with the exact split: a title "01 - Intro" is not a track number there).
  const readBack = formatKit.splitArtistTitle(parseExtinf(`0,${shown}`).display, { exact: true });
  if (readBack.artist !== track.artist) yield directive(ARTIST_DIRECTIVE, track.artist);
  if (readBack.title !== track.title) yield directive(TITLE_DIRECTIVE, track.title);
  if (track.duration_s !== null && !Number.isInteger(track.duration_s)) yield directive(DURATION_DIRECTIVE, String(track.duration_s));
  const source = sourceUri(track, preferred);
  if (source !== null) yield directive(SOURCE_URI_DIRECTIVE, source);
  yield* fieldDirectives(TRACK_DIRECTIVES, track);
  const location = playableLocation(track.provider_uris, track.metadata, preferred);
  if (location !== null) yield location + LINE_END;
}

function* fileHead(): Generator<string> {
  yield `#EXTM3U${LINE_END}`;
  yield directive(SCHEMA_VERSION_DIRECTIVE, '1');
}

/** A playlist's lines before its tracks. */
function* playlistHead(playlist: Playlist): Generator<string> {
  const name = shownText(playlist.name).trim();
  yield `#PLAYLIST:${name}${LINE_END}`;
  // An empty `#PLAYLIST:` reads as "no name" (the file name is used), so an empty name is explicit too.
  if (name !== playlist.name || name === '') yield directive(PLAYLIST_NAME_DIRECTIVE, playlist.name);
  yield* fieldDirectives(PLAYLIST_DIRECTIVES, playlist);
}

function* tracksLines(tracks: Iterable<Track>, options: SerializeOptions): Generator<string> {
  for (const track of tracks) yield* trackLines(track, options.sourceProvider);
}

/** The file line by line, lazily: a 100,000-track playlist is never held as one string. */
export function* m3uLines(playlists: Iterable<Playlist>, options: SerializeOptions): Generator<string> {
  yield* fileHead();
  for (const playlist of playlists) {
    yield* playlistHead(playlist);
    yield* tracksLines(playlist.tracks, options);
  }
}

/** One playlist's file written slice by slice (`serializePlaylist`): the bytes `serializeM3u` writes for it. */
export function m3uPlaylistWriter(playlist: Playlist, options: SerializeOptions): PlaylistWriter {
  return formatKit.chunkedWriter({
    *begin() {
      yield* fileHead();
      yield* playlistHead(playlist);
    },
    write: (tracks) => tracksLines(tracks, options),
    end: () => [],
  });
}

/** UTF-8 (no BOM, LF line ends) in chunks of at most 64 KiB. */
export function serializeM3u(playlists: Iterable<Playlist>, options: SerializeOptions): Generator<string> {
  return formatKit.chunkUtf8(m3uLines(playlists, options));
}
