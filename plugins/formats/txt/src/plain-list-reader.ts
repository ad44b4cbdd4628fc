import { formatKit, type PlaylistInput, type TrackInput } from '@opl/plugin-sdk';
import { isSkippable } from './text-lines.ts';

/**
 * Reads a hand-made list: one track per line as `Artist - Title` or a bare `Title` (split by the
 * SDK's `splitArtistTitle`: "AC-DC" or "Jay-Z" never split, "Artist - Title - Live" keeps
 * "Title - Live"); `#` comments and blank lines are ignored.
 * Duplicates stay, in file order. No formula-guard stripping here: a list typed by hand means its
 * leading apostrophes ("'Til Tuesday - Voices Carry").
 */

function bounded(value: string, max: number, field: string, line: formatKit.TextLine, issues: formatKit.IssueCollector): string {
  const result = formatKit.boundedText(value, max);
  if (result.truncated) issues.add(line.number, 'value_truncated', `the ${field} is longer than ${max} characters and was cut`, 'warning');
  return result.value;
}

export function readPlainList(lines: Iterable<formatKit.TextLine>, filename: string | null, issues: formatKit.IssueCollector): PlaylistInput[] {
  const tracks: TrackInput[] = [];
  for (const line of lines) {
    if (isSkippable(line.text)) continue;
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
