import type { PlaylistWriter } from '../define-plugin.ts';
import type { Track } from '../model.schema.ts';
import { chunkUtf8, MAX_CHUNK_BYTES } from './utf8-chunker.ts';

/** A playlist writer's three steps as text pieces of any size (see `chunkedWriter`). */
export interface PlaylistPieces {
  begin(): Iterable<string>;
  write(tracks: readonly Track[]): Iterable<string>;
  end(late: Readonly<Record<string, unknown>>): Iterable<string>;
}

/**
 * A `PlaylistWriter` (the `serializePlaylist` operation) from a writer that yields text pieces:
 * each step's pieces are packed into chunks of at most `maxBytes` UTF-8 bytes, as `chunkUtf8`
 * packs a whole file's. Chunks never span two steps, so the chunks differ from one `serialize`
 * call's while the bytes are the same.
 */
export function chunkedWriter(pieces: PlaylistPieces, maxBytes: number = MAX_CHUNK_BYTES): PlaylistWriter {
  return {
    begin: () => chunkUtf8(pieces.begin(), maxBytes),
    write: (tracks) => chunkUtf8(pieces.write(tracks), maxBytes),
    end: (late) => chunkUtf8(pieces.end(late), maxBytes),
  };
}
