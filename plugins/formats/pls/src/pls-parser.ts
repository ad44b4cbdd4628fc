import { formatKit, type OperationReturn, type TrackInput } from '@opl/plugin-sdk';
import { applyLocation, remoteItem } from './pls-location.ts';

/**
 * PLS (`[playlist]`, `FileN=`, `TitleN=`, `LengthN=`, `NumberOfEntries=`, `Version=2`): one
 * playlist named after the uploaded file, entries ordered by their number N. Deterministic and
 * linear; problems are line-level issues that never cost the other entries. A file with content
 * but no PLS line at all (an M3U playlist or a web page saved as .pls) is refused with one
 * `not_pls` error.
 */

type ParseResult = OperationReturn<'parse'>;

export const FALLBACK_PLAYLIST_NAME = 'Imported playlist';
const TEXT_MAX = 2_000;
const KEY = /^(file|title|length)(\d+)$/;
/**
 * The SHOUTcast directory titles the stations of the PLS files it serves `(#1 - 15/2000) Station`
 * (the stream's number, its listeners and slots): no artist, and not part of the name.
 */
const SHOUTCAST_PREFIX = /^\(#\d+ - \d+\/\d+\)\s*/;
// eslint-disable-next-line no-control-regex -- control characters are what is refused here
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

interface Entry {
  readonly number: number;
  readonly line: number;
  file?: { value: string; line: number };
  title?: { value: string; line: number };
  length?: { value: string; line: number };
}

const shown = (value: string): string => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);

function cut(value: string, what: string, line: number, issues: formatKit.IssueCollector): string {
  const bounded = formatKit.boundedText(value, TEXT_MAX);
  if (bounded.truncated) issues.warn(line, 'value_truncated', `the ${what} is longer than ${TEXT_MAX} characters and was cut`);
  return bounded.value;
}

function toTrack(entry: Entry & { file: { value: string; line: number } }, issues: formatKit.IssueCollector): TrackInput {
  const track: TrackInput = { title: '', artist: '' };
  const kind = applyLocation(entry.file.value, track);
  const fromFile = kind.kind === 'local' ? kind.path : kind.kind === 'remote' ? kind.url : null;
  const named = entry.title === undefined ? '' : entry.title.value.replace(SHOUTCAST_PREFIX, '') || entry.title.value;
  const source = entry.title !== undefined && named !== '' ? { value: named, line: entry.title.line, fileName: false } : fromFile === null ? null : { value: formatKit.fileStem(fromFile), line: entry.file.line, fileName: true };
  if (source !== null) {
    const { artist, title, trackNumber } = formatKit.splitArtistTitle(source.value, { fileName: source.fileName });
    track.artist = cut(artist, 'artist', source.line, issues);
    track.title = cut(title, 'title', source.line, issues);
    if (trackNumber !== null) track.track_number = trackNumber;
  }
  let lengthUnknown = false;
  if (entry.length !== undefined) {
    const text = entry.length.value;
    if (!/^-?\d{1,15}(?:\.\d{1,9})?$/.test(text) || Number(text) > 1_000_000) issues.warn(entry.length.line, 'invalid_value', `Length${entry.number} ${shown(text)} is not a number of seconds; left empty`);
    else {
      lengthUnknown = Number(text) < 0;
      track.duration_s = lengthUnknown ? null : Number(text);
    }
  }
  formatKit.fillFromLocalFile(kind, track);
  remoteItem(kind, track, lengthUnknown);
  return track;
}

/** Why a file with content but no PLS line is refused, from its first line (radio sites serve M3U and PLS under either name). */
function notPlsMessage(firstLine: string): string {
  if (/^#EXT(?:M3U|INF)/i.test(firstLine)) return 'the file is an M3U playlist (#EXTM3U), not PLS; nothing was imported: read it as M3U (a .m3u file)';
  if (firstLine.startsWith('<')) return 'the file is an HTML or XML document (a web page, or an XSPF, WPL or ASX playlist), not a PLS playlist; nothing was imported';
  return 'the file has no [playlist] section and no File1=… entries, so it is not a PLS playlist; nothing was imported (a plain list of paths or addresses is an M3U playlist: read it as a .m3u file)';
}

export function parsePls(text: string, filename: string | null, decoding: formatKit.Decoding = formatKit.PLAIN_UTF8): ParseResult {
  const issues = new formatKit.IssueCollector();
  // One NUL decides (no PLS writer puts one in a file); read as windows-1252, C1 controls count too.
  if (formatKit.looksBinary(text, { nulIsBinary: true, legacyDecoded: decoding.encoding === 'windows-1252' })) {
    issues.error(null, 'binary_content', 'the file is not a text playlist (it contains binary data; UTF-16 files need a byte order mark)');
    return { playlists: [], issues: issues.issues() };
  }
  // Bytes read as windows-1252 because they are not UTF-8: said, as a file in another code page would be misread.
  const decodingWarning = formatKit.decodingWarning(decoding);
  if (decodingWarning !== null) issues.warn(decodingWarning.line, decodingWarning.code, decodingWarning.message);
  const entries = new Map<number, Entry>();
  let section: 'none' | 'playlist' | 'other' = 'none';
  let declaredCount: { value: number; line: number } | null = null;
  // The first line that is not blank, and whether any line was PLS: a file with content but no PLS line is no PLS file.
  let firstContent: string | null = null;
  let plsSeen = false;
  // Lines too long to read are reported and skipped: a file left with no entry is refused, not read as empty.
  const lines = new formatKit.ReadableLines(text, issues);
  for (const { number, text: raw } of lines) {
    const line = raw.trim();
    if (line !== '') firstContent ??= line.slice(0, 20);
    if (line === '' || line.startsWith(';') || line.startsWith('#')) continue;
    if (line.startsWith('[') && line.endsWith(']')) {
      section = line.toLowerCase() === '[playlist]' ? 'playlist' : 'other';
      if (section === 'playlist') plsSeen = true;
      if (section === 'other') issues.warn(number, 'unknown_section', `the section ${shown(line)} is not [playlist]; its lines were ignored`);
      continue;
    }
    if (section === 'other') continue;
    if (section === 'none') {
      issues.warn(number, 'missing_header', 'the file does not start with a [playlist] section; read as if it did');
      section = 'playlist';
    }
    const equals = line.indexOf('=');
    if (equals === -1) {
      issues.warn(number, 'invalid_line', `the line ${shown(line)} is not key=value; ignored`);
      continue;
    }
    const key = line.slice(0, equals).trim().toLowerCase();
    const value = line.slice(equals + 1).trim();
    const match = KEY.exec(key);
    if (match !== null || key === 'numberofentries' || key === 'version') plsSeen = true;
    if (match !== null) {
      const field = match[1] as 'file' | 'title' | 'length';
      const digits = match[2] as string;
      const n = Number(digits);
      if (digits.length > 9 || n < 1) {
        issues.warn(number, 'invalid_line', `the entry number in ${shown(line.slice(0, equals))} is not between 1 and 999999999; ignored`);
        continue;
      }
      if (field === 'file' && CONTROL.test(value)) {
        issues.error(number, 'invalid_location', `File${n} ${shown(value)} contains control characters; the entry was skipped`);
        continue;
      }
      const entry = entries.get(n) ?? { number: n, line: number };
      entries.set(n, entry);
      if (entry[field] !== undefined) issues.warn(number, 'duplicate_key', `${line.slice(0, equals).trim()} appears again (first on line ${entry[field].line}); the first one is kept`);
      else entry[field] = { value, line: number };
    } else if (key === 'numberofentries') {
      if (/^\d{1,9}$/.test(value)) declaredCount = { value: Number(value), line: number };
      else issues.warn(number, 'invalid_value', `NumberOfEntries ${shown(value)} is not a count; ignored`);
    } else if (key === 'version' && value !== '2') {
      issues.warn(number, 'unsupported_version', `Version ${shown(value)} is not 2; read as version 2`);
    }
  }
  if (lines.skipped > 0 && [...entries.values()].every((entry) => entry.file === undefined || entry.file.value === '')) {
    formatKit.refuseLongLinesOnly(issues, lines.skipped);
    return { playlists: [], issues: issues.issues() };
  }
  if (!plsSeen && firstContent !== null) {
    // Its lines' warnings would only say, line by line, that it is something else.
    const refused = new formatKit.IssueCollector();
    refused.error(null, 'not_pls', notPlsMessage(firstContent));
    return { playlists: [], issues: refused.issues() };
  }
  const ordered = [...entries.values()].sort((a, b) => a.number - b.number);
  const tracks: TrackInput[] = [];
  let previous = 0;
  for (const entry of ordered) {
    if (entry.number > previous + 1) {
      const gap = entry.number - 1 === previous + 1 ? `entry ${previous + 1} is` : `entries ${previous + 1}–${entry.number - 1} are`;
      issues.warn(null, 'missing_entry', `${gap} missing (numbers are expected to run 1, 2, 3, …)`);
    }
    previous = entry.number;
    const file = entry.file;
    if (file === undefined || file.value === '') {
      issues.error(entry.line, 'missing_file', `entry ${entry.number} has no File${entry.number}; skipped`);
      continue;
    }
    const track = toTrack({ ...entry, file }, issues);
    track.position = tracks.length;
    tracks.push(track);
  }
  if (declaredCount !== null && declaredCount.value !== ordered.length) {
    issues.warn(declaredCount.line, 'entry_count_mismatch', `NumberOfEntries says ${declaredCount.value} but the file has ${ordered.length} entries; all entries found were read`);
  }
  if (tracks.length === 0) issues.warn(null, 'no_tracks', 'the file holds no playlist entries');
  return { playlists: [{ name: formatKit.playlistNameFromFilename(filename, FALLBACK_PLAYLIST_NAME), tracks }], issues: issues.issues() };
}
