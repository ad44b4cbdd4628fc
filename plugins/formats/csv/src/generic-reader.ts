import { formatKit, type PlaylistInput } from '@opl/plugin-sdk';
import type { CsvRecord } from './csv-records.ts';
import { normalizeName } from './header-index.ts';
import { acceptRow } from './row-shape.ts';

/**
 * The fallback for any other spreadsheet: a header with a recognizable title column (`title`,
 * `track`, `song`, `name`, …) and optionally artist, album, ISRC, duration and link columns. The
 * column mapping and the row reading are the SDK's track tables (`formatKit.trackTableColumns`,
 * `formatKit.TrackTableReader`), shared with the tabular form of TXT: names matched
 * case-insensitively, the artist cell kept as written, durations in seconds, clock form or
 * milliseconds, Spotify/TIDAL links as provider URIs. The file is one playlist named after the upload,
 * unless it names each row's playlist.
 *
 * Library exports put several playlists into one file, each row naming its playlist: TuneMyMusic
 * (`Track name, Artist name, Album, Playlist name, Type, ISRC, Spotify - id`) and other tools
 * (`playlist, title, …`). With a `Playlist name` or `Playlist` column, every name is one playlist,
 * in the order the names first appear, its rows in file order (a row without a name goes to the
 * playlist named after the upload).
 *
 * Some exports name the track by a bare ID instead of a link (`ID_COLUMNS`): TuneMyMusic's
 * `Spotify - id` / `YouTube - id`, Google Takeout's `Video ID` (a YouTube playlist: that one
 * column, no title). Without a link column, the first of them is the link column, each row's
 * link made from the first of its ID cells that holds an ID (`spotify:track:<id>`, a YouTube
 * watch link — a song page the YouTube and YouTube Music plugins take at migration time).
 */

const PLAYLIST_COLUMNS = ['playlist name', 'playlist'];

interface IdColumn {
  readonly names: readonly string[];
  readonly id: RegExp;
  link(id: string): string;
}

/** A Spotify ID is 22 base-62 characters; a YouTube video ID 11 of letters, digits, `-` and `_`. */
const ID_COLUMNS: readonly IdColumn[] = [
  { names: ['spotify - id', 'spotify id', 'spotify track id'], id: /^[0-9A-Za-z]{22}$/, link: (id) => `spotify:track:${id}` },
  { names: ['youtube - id', 'youtube id', 'video id'], id: /^[A-Za-z0-9_-]{11}$/, link: (id) => `https://www.youtube.com/watch?v=${id}` },
];

function position(names: readonly string[], candidates: readonly string[]): number | undefined {
  for (const candidate of candidates) {
    const found = names.findIndex((name) => normalizeName(name) === candidate);
    if (found !== -1) return found;
  }
  return undefined;
}

interface Mapping {
  readonly columns: formatKit.TrackTableColumns;
  /** The ID columns present, in `ID_COLUMNS` order, when they stand in for the missing link column (the first one's cell holds the link). */
  readonly ids: ReadonlyArray<{ readonly position: number; readonly name: string; readonly column: IdColumn }>;
}

function mappingOf(names: readonly string[]): Mapping | null {
  const columns = formatKit.trackTableColumns(names);
  if (columns?.link !== undefined) return { columns, ids: [] };
  const ids = ID_COLUMNS.flatMap((column) => {
    const found = position(names, column.names);
    return found === undefined ? [] : [{ position: found, name: (names[found] as string).trim(), column }];
  });
  if (ids.length === 0) return columns === null ? null : { columns, ids };
  const linkAt = ids[0]!.position;
  const linked = formatKit.trackTableColumns(names.map((name, index) => (index === linkAt ? 'url' : name)));
  return linked === null ? null : { columns: linked, ids };
}

export function isGenericHeader(names: readonly string[]): boolean {
  return mappingOf(names) !== null;
}

/**
 * The row's cells with its link made from its ID cells, when the mapping reads IDs: the first ID
 * found; a cell holding something else is an `invalid_value` warning and no link.
 */
function withLink(record: CsvRecord, ids: Mapping['ids'], issues: formatKit.IssueCollector): readonly string[] {
  if (ids.length === 0) return record.cells;
  let link = '';
  for (const { position, name, column } of ids) {
    const id = (record.cells[position] ?? '').trim();
    if (id === '') continue;
    if (!column.id.test(id)) issues.warn(record.line, 'invalid_value', `${name} "${id.slice(0, 40)}" is not an ID; the row has no link from it`, position + 1);
    else if (link === '') link = column.link(id);
  }
  return record.cells.map((cell, index) => (index === ids[0]!.position ? link : cell));
}

export function readGeneric(names: readonly string[], records: Iterable<CsvRecord>, name: string, issues: formatKit.IssueCollector): PlaylistInput[] {
  const mapping = mappingOf(names);
  if (mapping === null) return [];
  const { columns, ids } = mapping;
  const playlistColumn = position(names, PLAYLIST_COLUMNS);
  const tables = new Map<string, formatKit.TrackTableReader>();
  let overflowReported = false;
  for (const record of records) {
    if (!acceptRow(record, columns.width, issues)) continue;
    const playlist = playlistColumn === undefined ? '' : (record.cells[playlistColumn] ?? '').trim();
    let table = tables.get(playlist);
    if (table === undefined) {
      // A parse result holds at most LIMITS.playlists playlists: the rows of any further one are not read.
      if (tables.size === formatKit.LIMITS.playlists) {
        if (!overflowReported) issues.add(record.line, 'too_many_playlists', `the file names more than ${formatKit.LIMITS.playlists} playlists; the rows of the playlists after them were skipped`);
        overflowReported = true;
        continue;
      }
      table = new formatKit.TrackTableReader(columns, issues);
      tables.set(playlist, table);
    }
    table.add(record.line, withLink(record, ids, issues));
  }
  const playlists = [...tables].map(([playlist, table]): PlaylistInput => {
    const tracks = table.finish();
    formatKit.markLocalFiles(tracks);
    return { name: formatKit.boundedText(playlist === '' ? name : playlist, formatKit.LIMITS.playlistName).value, tracks };
  });
  if (playlists.every((playlist) => playlist.tracks?.length === 0)) issues.add(null, 'no_tracks', 'the file has a header but no track rows', 'warning');
  return playlists.length === 0 ? [{ name, tracks: [] }] : playlists;
}
