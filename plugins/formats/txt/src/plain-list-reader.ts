import type { PlaylistInput, TrackInput } from '@opl/plugin-sdk';
import { boundedText } from './field-values.ts';
import type { IssueCollector } from './issue-collector.ts';
import { LIMITS } from './model-limits.ts';
import { playlistNameFromFilename } from './playlist-name.ts';
import { isSkippable, type TextLine } from './text-lines.ts';

/**
 * Reads a hand-made list: one track per line as `Artist - Title` (hyphen, en dash or em dash with
 * spaces around it, so "AC-DC" or "Jay-Z" never split) or a bare `Title`; `#` comments and blank
 * lines are ignored. The first separator splits, so "Artist - Title - Live" keeps "Title - Live".
 * Duplicates stay, in file order. No formula-guard stripping here: a list typed by hand means its
 * leading apostrophes ("'Til Tuesday - Voices Carry").
 */

const SEPARATOR = /\s+[-\u2013\u2014]\s+/;

export function splitArtistTitle(line: string): { readonly artist: string; readonly title: string } {
  const text = line.trim();
  const match = SEPARATOR.exec(text);
  if (match === null) return { artist: '', title: text };
  // The text is trimmed and the separator needs whitespace on both sides, so neither part is empty.
  return { artist: text.slice(0, match.index).trim(), title: text.slice(match.index + match[0].length).trim() };
}

function bounded(value: string, max: number, field: string, line: TextLine, issues: IssueCollector): string {
  const result = boundedText(value, max);
  if (result.truncated) issues.add(line.number, 'value_truncated', `the ${field} is longer than ${max} characters and was cut`, 'warning');
  return result.value;
}

export function readPlainList(lines: readonly TextLine[], filename: string | null, issues: IssueCollector): PlaylistInput[] {
  const tracks: TrackInput[] = [];
  for (const line of lines) {
    if (isSkippable(line.text)) continue;
    const { artist, title } = splitArtistTitle(line.text);
    tracks.push({
      title: bounded(title, LIMITS.title, 'title', line, issues),
      artist: bounded(artist, LIMITS.artist, 'artist', line, issues),
      position: tracks.length,
    });
  }
  if (tracks.length === 0) issues.add(null, 'no_tracks', 'the list has no track lines (only blank lines and # comments)', 'warning');
  return [{ name: playlistNameFromFilename(filename), tracks }];
}
