import { formatKit, type Playlist } from '@opl/plugin-sdk';
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

/** The file line by line, lazily: a 100,000-track playlist is never held as one string. */
export function* txtLines(playlists: Iterable<Playlist>, sourceProvider: string | null): Generator<string> {
  yield MAGIC_LINE + LINE_END;
  yield SCHEMA_LINE + LINE_END;
  yield TXT_V1_COLUMNS.join('\t') + LINE_END;
  for (const playlist of playlists) {
    const playlistCells = playlistPart(playlist);
    if (playlist.tracks.length === 0) {
      yield row(playlistCells, EMPTY_TRACK_PART);
      continue;
    }
    let order = 0;
    for (const track of playlist.tracks) {
      order += 1;
      yield row(playlistCells, trackPart(track, order, sourceProvider));
    }
  }
}

/** UTF-8 text (no BOM, LF line ends) in chunks of at most `maxChunkBytes` encoded bytes. */
export function serializeTxt(playlists: Iterable<Playlist>, options: SerializeOptions): Generator<string> {
  return formatKit.chunkUtf8(txtLines(playlists, options.sourceProvider), options.maxChunkBytes);
}
