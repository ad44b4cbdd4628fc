import { formatKit, type Playlist, type PlaylistWriter, type Track } from '@opl/plugin-sdk';
import { EMPTY_TRACK_PART, playlistPart, row, trackPart } from './export-row.ts';
import { LINE_END, MAGIC_LINE, SCHEMA_LINE, TXT_V1_COLUMNS } from './txt-columns.ts';

export interface SerializeOptions {
  /** Provider whose URI fills `source_uri` when a track has several (see source-uri.ts). */
  readonly sourceProvider: string | null;
  readonly maxChunkBytes: number;
}

/** Reads the options the engine may pass (`source_provider`); anything else is ignored. */
export function serializeOptions(options: Readonly<Record<string, unknown>>): SerializeOptions {
  const provider = options.source_provider;
  return {
    sourceProvider: typeof provider === 'string' && provider !== '' ? provider : null,
    maxChunkBytes: formatKit.MAX_CHUNK_BYTES,
  };
}

/** The lines before the first playlist's rows. */
function* fileHead(): Generator<string> {
  yield MAGIC_LINE + LINE_END;
  yield SCHEMA_LINE + LINE_END;
  yield TXT_V1_COLUMNS.join('\t') + LINE_END;
}

/** One playlist's rows, its tracks given in as many slices as the caller likes (the running track number is all it keeps). */
class PlaylistRows {
  readonly #playlistCells: string;
  readonly #sourceProvider: string | null;
  #order = 0;

  constructor(playlist: Playlist, sourceProvider: string | null) {
    this.#playlistCells = playlistPart(playlist);
    this.#sourceProvider = sourceProvider;
  }

  *tracks(tracks: Iterable<Track>): Generator<string> {
    for (const track of tracks) {
      this.#order += 1;
      yield row(this.#playlistCells, trackPart(track, this.#order, this.#sourceProvider));
    }
  }

  /** A playlist without tracks still has its row, every track column empty. */
  *end(): Generator<string> {
    if (this.#order === 0) yield row(this.#playlistCells, EMPTY_TRACK_PART);
  }
}

/** The file line by line, lazily: a 100,000-track playlist is never held as one string. */
export function* txtLines(playlists: Iterable<Playlist>, sourceProvider: string | null): Generator<string> {
  yield* fileHead();
  for (const playlist of playlists) {
    const rows = new PlaylistRows(playlist, sourceProvider);
    yield* rows.tracks(playlist.tracks);
    yield* rows.end();
  }
}

/** One playlist's file written slice by slice (`serializePlaylist`): the bytes `serializeTxt` writes for it. */
export function txtPlaylistWriter(playlist: Playlist, options: SerializeOptions): PlaylistWriter {
  const rows = new PlaylistRows(playlist, options.sourceProvider);
  return formatKit.chunkedWriter({ begin: fileHead, write: (tracks) => rows.tracks(tracks), end: () => rows.end() }, options.maxChunkBytes);
}

/** UTF-8 text (no BOM, LF line ends) in chunks of at most `maxChunkBytes` encoded bytes. */
export function serializeTxt(playlists: Iterable<Playlist>, options: SerializeOptions): Generator<string> {
  return formatKit.chunkUtf8(txtLines(playlists, options.sourceProvider), options.maxChunkBytes);
}
