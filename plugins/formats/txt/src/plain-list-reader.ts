import { formatKit, type PlaylistInput, type TrackInput } from '@opl/plugin-sdk';
import { isSkippable } from './text-lines.ts';

/**
 * Reads a hand-made list: one track per line as `Artist - Title` or a bare `Title` (split by the
 * SDK's `splitArtistTitle`: "AC-DC" or "Jay-Z" never split, "Artist - Title - Live" keeps
 * "Title - Live"); `#` comments and blank lines are ignored. A line that is just a track link — a
 * Spotify or TIDAL track web link, or a provider track URI such as `spotify:track:…` (read by the
 * SDK's `sourceReference`, as every format reads them) — is that track: its provider URI, title
 * and artist unknown (empty), for matching to find.
 * Duplicates stay, in file order. No formula-guard stripping here: a list typed by hand means its
 * leading apostrophes ("'Til Tuesday - Voices Carry").
 */

/** A provider's track URI: `<provider>:track:<id>`. */
const TRACK_URI = /^[a-z][a-z0-9_]*:track:\S+$/;

/** The provider URI of a line that is just a track link, or null. */
function trackLink(text: string): { readonly provider: string; readonly uri: string } | null {
  const trimmed = text.trim();
  if (/\s/.test(trimmed)) return null;
  const reference = formatKit.sourceReference(trimmed);
  return reference.kind === 'provider' && TRACK_URI.test(reference.uri) ? reference : null;
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
    const link = trackLink(line.text);
    if (link !== null) {
      tracks.push({ title: '', artist: '', provider_uris: { [link.provider]: link.uri }, position: tracks.length });
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
