import { formatKit, type Playlist } from '@opl/plugin-sdk';

/**
 * CSV v1 (SPEC "Export formats"): UTF-8 with a byte order mark, a header row naming the 23 v1
 * columns, then one row per track in playlist order (a playlist without tracks: one row with the
 * playlist columns filled and every track column empty), playlists one after the other.
 *
 * Every field is quoted (RFC 4180: `"` around the value, a `"` inside doubled), the header too, so
 * no spreadsheet guesses a type from a bare value (a leading zero, a date-like title) and line
 * breaks inside values survive: they are written as they are, inside the quotes, and read back.
 *
 * Line ends are CRLF: RFC 4180 defines records as ending in CRLF, Excel on Windows expects it,
 * and every other reader (LibreOffice, Numbers, Google Sheets, Python's csv, this plugin) accepts
 * it, while a bare LF is the one variant some Windows tools show as a single line.
 */

export const BOM = '\uFEFF';
export const LINE_END = '\r\n';

export interface SerializeOptions {
  /** Provider whose URI fills `source_uri` when a track has several. */
  readonly sourceProvider: string | null;
  readonly maxChunkBytes: number;
}

/** Reads the options the engine may pass (`source_provider`); anything else is ignored. */
export function serializeOptions(options: Readonly<Record<string, unknown>>): SerializeOptions {
  const provider = options.source_provider;
  return { sourceProvider: typeof provider === 'string' && provider !== '' ? provider : null, maxChunkBytes: formatKit.MAX_CHUNK_BYTES };
}

/** One quoted field; the formula guard applies to the value before quoting. */
export function quoteField(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}

function dataCell(value: formatKit.CellValue): string {
  return value === null ? '""' : quoteField(formatKit.guardFormula(String(value)));
}

export const HEADER_ROW = formatKit.V1_COLUMNS.map(quoteField).join(',') + LINE_END;

/** The file row by row, lazily: a 100,000-track playlist is never held as one string. */
export function* csvRows(playlists: Iterable<Playlist>, sourceProvider: string | null): Generator<string> {
  yield BOM + HEADER_ROW;
  for (const playlist of playlists) {
    // Formatted once per playlist: a 10,000-character description is not re-quoted per track.
    const playlistCells = formatKit.playlistValues(playlist).map(dataCell).join(',');
    if (playlist.tracks.length === 0) {
      yield `${playlistCells},${formatKit.EMPTY_TRACK_VALUES.map(dataCell).join(',')}${LINE_END}`;
      continue;
    }
    let order = 0;
    for (const track of playlist.tracks) {
      order += 1;
      yield `${playlistCells},${formatKit.trackValues(track, order, sourceProvider).map(dataCell).join(',')}${LINE_END}`;
    }
  }
}

/** The file in chunks of at most `maxChunkBytes` UTF-8 bytes (the host encodes strings as UTF-8). */
export function serializeCsv(playlists: Iterable<Playlist>, options: SerializeOptions): Generator<string> {
  return formatKit.chunkUtf8(csvRows(playlists, options.sourceProvider), options.maxChunkBytes);
}
