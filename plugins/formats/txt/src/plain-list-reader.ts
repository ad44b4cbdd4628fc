import { formatKit, type PlaylistInput, type TrackInput } from '@opl/plugin-sdk';
import { isSkippable } from './text-lines.ts';

/**
 * Reads a hand-made list: one track per line as `Artist - Title` or a bare `Title` (split by the
 * SDK's `splitArtistTitle`: "AC-DC" or "Jay-Z" never split, "Artist - Title - Live" keeps
 * "Title - Live"); `#` comments and blank lines are ignored. A line that is just a track link — a
 * Spotify or TIDAL track web link, or a provider track URI such as `spotify:track:…` (read by the
 * SDK's `classifyLocation`, as every format reads them) — is that track: its provider URI, title
 * and artist unknown (empty), for matching to find. A line that is just a song page of another
 * music service (`formatKit.songLinkService`: a Deezer, YouTube, YouTube Music or Apple Music song
 * link) is that song too, kept as written in `metadata.location` (what a CSV export writes as
 * `source_uri`): a migration to that service takes the link as the song, one to another service
 * says the line has nothing to search by. A line that is just a link naming no song is kept, not
 * migrated, with the reason, the link in `metadata.location`: a provider's album, playlist, artist
 * or episode (`spotify:album:…`, an open.spotify.com album link), or any other web address (a
 * channel, a stream, a shop): there is no title or artist to search for, and the address is no
 * song's name.
 * Duplicates stay, in file order. No formula-guard stripping here: a list typed by hand means its
 * leading apostrophes ("'Til Tuesday - Voices Carry").
 *
 * Lists copied from web pages often name their songs `Title by Artist` instead. A title may hold
 * " by " too ("Stand by Me"), so the whole list decides, never a line alone (`isTitleByArtistList`);
 * in such a list every line holding " by " splits at the last one.
 */

/** A list of at least this many `Title by Artist` lines can be told from titles that hold " by ". */
const MIN_BY_LINES = 3;
/** A list number or a bullet before the title of a `Title by Artist` line (`1. `, `2) `, `• `). */
const BY_LINE_NUMBERING = /^(?:[-*\u2022\u00b7]\s+)?(?:\d{1,4}[.)]\s+)?/;
/** An `Artist - Title` separator: a hyphen, en dash or em dash with whitespace on both sides. */
const DASH_SEPARATOR = /\s[-\u2013\u2014]\s/;

/** Where the last " by " (any case, whitespace on both sides) of a line starts and ends, or null. */
function lastBy(text: string): { start: number; end: number } | null {
  for (let index = text.length - 3; index >= 1; index--) {
    const b = text.charCodeAt(index) | 0x20;
    const y = text.charCodeAt(index + 1) | 0x20;
    if (b === 0x62 && y === 0x79 && /\s/.test(text.charAt(index - 1)) && /\s/.test(text.charAt(index + 2))) return { start: index - 1, end: index + 3 };
  }
  return null;
}

/** Longer lines hold more than a title and an artist the model allows: never scanned for " by ". */
const MAX_BY_LINE = formatKit.LIMITS.title + formatKit.LIMITS.artist + 100;

/** `Title by Artist` split at the last " by ", or null when a side would be empty. */
function splitTitleByArtist(text: string): { artist: string; title: string } | null {
  if (text.length > MAX_BY_LINE) return null;
  const line = text.trim();
  const by = lastBy(line);
  if (by === null) return null;
  const title = line.slice(0, by.start).replace(BY_LINE_NUMBERING, '').trim();
  const artist = line.slice(by.end).trim();
  return title === '' || artist === '' ? null : { artist, title };
}

/**
 * Whether the list names its songs `Title by Artist`: at least MIN_BY_LINES of its text lines (not
 * blank, comments or links) split so, they are at least four in five of its text lines (a page
 * title copied above the songs is allowed), and at most half of them also hold an `Artist - Title`
 * dash (a song's " - Remastered 2011" is allowed; an `Artist - Title` list whose titles hold " by "
 * is no such list).
 */
export function isTitleByArtistList(lines: Iterable<formatKit.TextLine>): boolean {
  let text = 0;
  let by = 0;
  let dashed = 0;
  for (const line of lines) {
    if (isSkippable(line.text) || lineLink(line.text) !== null) continue;
    text += 1;
    if (splitTitleByArtist(line.text) === null) continue;
    by += 1;
    if (DASH_SEPARATOR.test(line.text)) dashed += 1;
  }
  return by >= MIN_BY_LINES && by * 5 >= text * 4 && dashed * 2 <= by;
}

/** A provider's track URI: `<provider>:track:<id>`. */
const TRACK_URI = /^[a-z][a-z0-9_]*:track:\S+$/;

type LineLink =
  | { readonly kind: 'track'; readonly provider: string; readonly uri: string }
  /** A podcast episode: its URI kept, as every format keeps one, but not migrated. */
  | { readonly kind: 'episode'; readonly provider: string; readonly uri: string; readonly reason: string }
  /** A song page of another service: the song, by its link alone. */
  | { readonly kind: 'song_page'; readonly location: string }
  /** A link naming no song: kept as the entry's location, not migrated. */
  | { readonly kind: 'no_song'; readonly location: string; readonly reason: string };

/**
 * What a line that is a single link says (the SDK's one reading of locations, `classifyLocation`),
 * or null for any other line: a title, `Artist - Title`, or text with a colon that is no link.
 */
function lineLink(text: string): LineLink | null {
  const trimmed = text.trim();
  if (trimmed === '' || /\s/.test(trimmed)) return null;
  const location = formatKit.classifyLocation(trimmed);
  if (location.kind === 'provider') {
    const reason = formatKit.providerItemReason(location.item);
    if (reason === null) return TRACK_URI.test(location.uri) ? { kind: 'track', provider: location.provider, uri: location.uri } : null;
    return location.item === 'episode' ? { kind: 'episode', provider: location.provider, uri: location.uri, reason } : { kind: 'no_song', location: trimmed, reason };
  }
  // A remote location is a `scheme://` address (a web page, a stream): a song only when it is a
  // music service's song page, and then with no name of its own.
  if (location.kind === 'remote') {
    const reason = formatKit.remoteItemReason(location.url, { artist: '', title: '' });
    return reason === null ? { kind: 'song_page', location: trimmed } : { kind: 'no_song', location: trimmed, reason };
  }
  return null;
}

function bounded(value: string, max: number, field: string, line: formatKit.TextLine, issues: formatKit.IssueCollector): string {
  const result = formatKit.boundedText(value, max);
  if (result.truncated) issues.add(line.number, 'value_truncated', `the ${field} is longer than ${max} characters and was cut`, 'warning');
  return result.value;
}

export function readPlainList(lines: Iterable<formatKit.TextLine>, filename: string | null, issues: formatKit.IssueCollector, titleByArtist = false): PlaylistInput[] {
  const tracks: TrackInput[] = [];
  for (const line of lines) {
    if (isSkippable(line.text)) continue;
    const link = lineLink(line.text);
    if (link?.kind === 'track') {
      tracks.push({ title: '', artist: '', provider_uris: { [link.provider]: link.uri }, position: tracks.length });
      continue;
    }
    if (link?.kind === 'episode') {
      tracks.push({ title: '', artist: '', provider_uris: { [link.provider]: link.uri }, media_type: 'episode', is_migratable: false, unsupported_reason: link.reason, position: tracks.length });
      continue;
    }
    if (link?.kind === 'song_page') {
      tracks.push({ title: '', artist: '', metadata: { location: link.location }, position: tracks.length });
      continue;
    }
    if (link?.kind === 'no_song') {
      const location = bounded(link.location, formatKit.LIMITS.text, 'link', line, issues);
      tracks.push({ title: '', artist: '', metadata: { location }, media_type: 'unknown', is_migratable: false, unsupported_reason: link.reason, position: tracks.length });
      continue;
    }
    const { artist, title } = (titleByArtist ? splitTitleByArtist(line.text) : null) ?? formatKit.splitArtistTitle(line.text);
    tracks.push({
      title: bounded(title, formatKit.LIMITS.title, 'title', line, issues),
      artist: bounded(artist, formatKit.LIMITS.artist, 'artist', line, issues),
      position: tracks.length,
    });
  }
  if (tracks.length === 0) issues.add(null, 'no_tracks', 'the list has no track lines (only blank lines and # comments)', 'warning');
  return [{ name: formatKit.playlistNameFromFilename(filename), tracks }];
}
