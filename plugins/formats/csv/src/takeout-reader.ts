import { formatKit, type PlaylistInput } from '@opl/plugin-sdk';
import type { CsvRecord } from './csv-records.ts';
import { HeaderIndex } from './header-index.ts';
import { acceptRow } from './row-shape.ts';

/**
 * A YouTube (and YouTube Music) playlist from Google Takeout in the layout it had until 2023:
 * a header naming the playlist's columns (`Playlist Id, Channel Id, Time Created, Time Updated,
 * Title, Description, Visibility`) and the playlist's one row, a blank line, then `Video Id,
 * Time Added` and one row per video. (The generic layout would read the playlist's row as a track
 * named after the playlist and skip every video.) The playlist takes its name and description from
 * its row (the file name when empty); each video is a track by its link,
 * `https://www.youtube.com/watch?v=<id>` — title and artist unknown, as a row holding only such a
 * song page reads in the generic layout, where the current Takeout layout (one `Video ID` column
 * per file) is read. Duplicates stay, in file order.
 */

/** A YouTube video ID: 11 letters, digits, `-` and `_`. */
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

export function isTakeoutPlaylistHeader(header: HeaderIndex): boolean {
  return header.has('playlist id') && header.has('channel id') && header.has('title');
}

export function readTakeoutPlaylist(header: HeaderIndex, records: Iterable<CsvRecord>, name: string, issues: formatKit.IssueCollector): PlaylistInput[] {
  const playlist: PlaylistInput = { name, tracks: [] };
  const table = new formatKit.TrackTableReader(formatKit.trackTableColumns(['url'])!, issues);
  let infoRead = false;
  /** Where the video ID is, once the `Video Id` header was read. */
  let videos: { readonly id: number; readonly width: number } | null = null;
  for (const record of records) {
    if (videos === null) {
      const id = new HeaderIndex(record.cells).find('video id');
      if (id !== undefined) {
        videos = { id, width: record.cells.length };
      } else if (!infoRead) {
        infoRead = true;
        const cell = (column: string): string => (record.cells[header.find(column) ?? -1] ?? '').trim();
        if (cell('title') !== '') playlist.name = formatKit.boundedText(cell('title'), formatKit.LIMITS.playlistName).value;
        if (cell('description') !== '') playlist.description = formatKit.boundedText(cell('description'), formatKit.LIMITS.text).value;
      } else {
        issues.warn(record.line, 'unexpected_row', 'a second playlist row before the "Video Id" header; it was ignored');
      }
      continue;
    }
    if (!acceptRow(record, videos.width, issues)) continue;
    const id = (record.cells[videos.id] ?? '').trim();
    if (!VIDEO_ID.test(id)) {
      issues.warn(record.line, 'invalid_value', `Video Id "${id.slice(0, 40)}" is not a YouTube video ID; the row was skipped`, videos.id + 1);
      continue;
    }
    table.add(record.line, [`https://www.youtube.com/watch?v=${id}`]);
  }
  playlist.tracks = table.finish();
  if (playlist.tracks.length === 0) issues.warn(null, 'no_tracks', videos === null ? 'the Google Takeout playlist has no "Video Id" rows' : 'the Google Takeout playlist has no videos');
  return [playlist];
}
