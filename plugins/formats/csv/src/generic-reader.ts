import { formatKit, type PlaylistInput, type TrackInput } from '@opl/plugin-sdk';
import { CellReader } from './cell-values.ts';
import type { CsvRecord } from './csv-records.ts';
import type { HeaderIndex } from './header-index.ts';
import { acceptRow } from './row-shape.ts';

/**
 * The fallback for any other spreadsheet: a header with a recognizable title column (`title`,
 * `track`, `song`, `name`, …) and optionally artist, album, ISRC, duration and URI columns. Names
 * are matched case-insensitively; the file is one playlist named after the upload. The artist
 * cell is kept as written: separators between several artists differ from tool to tool.
 */

const TITLE = ['title', 'titel', 'titre', 'título', 'titolo', 'track', 'track name', 'track title', 'song', 'song name', 'song title', 'name'];
const ARTIST = ['artist', 'künstler', 'interpret', 'artiste', 'artista', 'artists', 'artist name', 'artist name(s)', 'artist names', 'performer', 'band'];
const ALBUM = ['album', 'album name', 'album title'];
const ISRC = ['isrc'];
const DURATION_MS = ['duration (ms)', 'duration_ms', 'duration ms', 'length (ms)', 'milliseconds'];
const DURATION = ['duration', 'duration (s)', 'duration_s', 'duration_seconds', 'length', 'time', 'seconds'];
const URI = ['uri', 'url', 'link', 'spotify uri', 'track uri', 'source_uri', 'location'];

export function isGenericHeader(header: HeaderIndex): boolean {
  return header.find(...TITLE) !== undefined;
}

export function readGeneric(header: HeaderIndex, records: Iterable<CsvRecord>, name: string, issues: formatKit.IssueCollector): PlaylistInput[] {
  const title = header.find(...TITLE);
  const artist = header.find(...ARTIST);
  const album = header.find(...ALBUM);
  const isrc = header.find(...ISRC);
  const durationMs = header.find(...DURATION_MS);
  const durationClock = durationMs === undefined ? header.find(...DURATION) : undefined;
  const uri = header.find(...URI);
  const tracks: TrackInput[] = [];
  for (const record of records) {
    if (!acceptRow(record, header.width, issues)) continue;
    const row = new CellReader(record.cells, record.line, issues);
    const track: TrackInput = {
      title: row.text(title, 'title', formatKit.LIMITS.title) ?? '',
      artist: row.text(artist, 'artist', formatKit.LIMITS.artist) ?? '',
      album: row.text(album, 'album'),
      isrc: row.isrc(isrc, 'isrc'),
      duration_s: durationMs !== undefined ? row.durationFromMs(durationMs, 'duration') : row.durationFromClock(durationClock, 'duration'),
      position: tracks.length,
    };
    const link = row.text(uri, 'uri', formatKit.LIMITS.providerUri);
    if (link !== null) {
      const provider = formatKit.providerOfUri(link);
      if (provider === null) track.metadata = { source_uri: link };
      else track.provider_uris = { [provider]: link };
    }
    if (track.title === '' && track.artist === '') {
      issues.add(record.line, 'empty_row', 'the row has neither a title nor an artist; the row was skipped', 'warning');
      continue;
    }
    tracks.push(track);
  }
  if (tracks.length === 0) issues.add(null, 'no_tracks', 'the file has a header but no track rows', 'warning');
  return [{ name, tracks }];
}
