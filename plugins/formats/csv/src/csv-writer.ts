import { formatKit, type Playlist, type PlaylistWriter, type Track } from '@opl/plugin-sdk';

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

/**
 * One playlist's rows, its tracks given in as many slices as the caller likes: the running track
 * number is all it keeps between them.
 */
class PlaylistRows {
  // Formatted once per playlist: a 10,000-character description is not re-quoted per track.
  readonly #playlistCells: string;
  readonly #sourceProvider: string | null;
  #order = 0;

  constructor(playlist: Playlist, sourceProvider: string | null) {
    this.#playlistCells = formatKit.playlistValues(playlist).map(dataCell).join(',');
    this.#sourceProvider = sourceProvider;
  }

  *tracks(tracks: Iterable<Track>): Generator<string> {
    for (const track of tracks) {
      this.#order += 1;
      yield `${this.#playlistCells},${formatKit.trackValues(track, this.#order, this.#sourceProvider).map(dataCell).join(',')}${LINE_END}`;
    }
  }

  /** A playlist without tracks still has its row: the playlist columns, every track column empty. */
  *end(): Generator<string> {
    if (this.#order === 0) yield `${this.#playlistCells},${formatKit.EMPTY_TRACK_VALUES.map(dataCell).join(',')}${LINE_END}`;
  }
}

/** The file row by row, lazily: a 100,000-track playlist is never held as one string. */
export function* csvRows(playlists: Iterable<Playlist>, sourceProvider: string | null): Generator<string> {
  yield BOM + HEADER_ROW;
  for (const playlist of playlists) {
    const rows = new PlaylistRows(playlist, sourceProvider);
    yield* rows.tracks(playlist.tracks);
    yield* rows.end();
  }
}

/** The file in chunks of at most `maxChunkBytes` UTF-8 bytes (the host encodes strings as UTF-8). */
export function serializeCsv(playlists: Iterable<Playlist>, options: SerializeOptions): Generator<string> {
  return formatKit.chunkUtf8(csvRows(playlists, options.sourceProvider), options.maxChunkBytes);
}

/** One playlist's file written slice by slice (`serializePlaylist`): the bytes `serializeCsv` writes for it. */
export function csvPlaylistWriter(playlist: Playlist, options: SerializeOptions): PlaylistWriter {
  const rows = new PlaylistRows(playlist, options.sourceProvider);
  return formatKit.chunkedWriter({ begin: () => [BOM + HEADER_ROW], write: (tracks) => rows.tracks(tracks), end: () => rows.end() }, options.maxChunkBytes);
}
