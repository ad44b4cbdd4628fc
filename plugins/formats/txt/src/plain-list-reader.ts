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
 */

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

export function readPlainList(lines: Iterable<formatKit.TextLine>, filename: string | null, issues: formatKit.IssueCollector): PlaylistInput[] {
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
    const { artist, title } = formatKit.splitArtistTitle(line.text);
    tracks.push({
      title: bounded(title, formatKit.LIMITS.title, 'title', line, issues),
      artist: bounded(artist, formatKit.LIMITS.artist, 'artist', line, issues),
      position: tracks.length,
    });
  }
  if (tracks.length === 0) issues.add(null, 'no_tracks', 'the list has no track lines (only blank lines and # comments)', 'warning');
  return [{ name: formatKit.playlistNameFromFilename(filename), tracks }];
}
