import type { FormatContext } from '../context.ts';
import type { FormatPluginDefinition, SerializeChunks } from '../define-plugin.ts';
import { MAX_CHUNK_BYTES } from '../format-kit/utf8-chunker.ts';
import type { PlaylistInput } from '../model.schema.ts';
import { FORMAT_OPERATIONS, serializeLateOptionsSchema, serializeSliceSchema, type OperationResult } from '../operations.schema.ts';
import { formatTestContext } from './format-context.ts';

/**
 * Runs a format plugin's operations the way the host does: the input is validated and defaulted by
 * the operation's schema before the plugin sees it, and what the plugin returns is validated by the
 * output schema (a result the host would refuse makes the call throw here too).
 */

export interface RunParseOptions {
  /** The file's name as the user picked it (default `null`). */
  filename?: string | null;
  /** The file's media type (default `null`). */
  mediaType?: string | null;
  /** Default: a fresh {@link formatTestContext}. */
  context?: FormatContext;
}

export interface RunSerializeOptions {
  /** Default: a fresh {@link formatTestContext}. */
  context?: FormatContext;
  /** The largest chunk accepted, in bytes (UTF-8 for string chunks); default 64 KiB. */
  maxChunkBytes?: number;
}

export interface SerializeRun {
  /** The whole file. */
  text: string;
  /** The chunks in the order they were yielded; a byte chunk appears as the UTF-8 text it decodes to. */
  chunks: string[];
}

const utf8 = new TextEncoder();

function requireOperation<T>(operation: T | undefined, name: string): T {
  if (!operation) throw new Error(`the plugin has no ${name}`);
  return operation;
}

/** Runs `parse` on bytes, or on a string encoded as UTF-8, and returns the validated result. */
export async function runParse(definition: FormatPluginDefinition, file: Uint8Array | string, options: RunParseOptions = {}): Promise<OperationResult<'parse'>> {
  const parse = requireOperation(definition.operations.parse, 'parse');
  const bytes = typeof file === 'string' ? utf8.encode(file) : file;
  const input = FORMAT_OPERATIONS.parse.input.parse({ bytes, filename: options.filename ?? null, media_type: options.mediaType ?? null });
  return FORMAT_OPERATIONS.parse.output.parse(await parse(input, options.context ?? formatTestContext()));
}

/**
 * Runs `serialize` and collects its chunks in order. Throws when a chunk is larger than
 * `maxChunkBytes` (64 KiB, the SPEC's chunk limit: use `formatKit.chunkUtf8`), is neither a string
 * nor a Uint8Array, or when byte chunks are not valid UTF-8.
 */
export async function runSerialize(
  definition: FormatPluginDefinition,
  playlists: readonly PlaylistInput[],
  options: Record<string, unknown> = {},
  run: RunSerializeOptions = {},
): Promise<SerializeRun> {
  const serialize = requireOperation(definition.operations.serialize, 'serialize');
  const input = FORMAT_OPERATIONS.serialize.input.parse({ playlists, options });
  const collector = new ChunkCollector(run.maxChunkBytes ?? MAX_CHUNK_BYTES, 'serialize');
  await collector.take(serialize(input, run.context ?? formatTestContext()));
  return collector.finish();
}

export interface RunSerializePlaylistOptions extends RunSerializeOptions {
  /** The options known only after the last track, as the engine passes them to `end` (`warnings`). */
  late?: Record<string, unknown>;
}

/**
 * Runs `serializePlaylist` as the host drives it: the playlist's details (its tracks left out)
 * open a writer, its tracks go to `write` in slices of the given sizes (the last size repeats
 * until every track is written; no slice at all for a playlist without tracks), then `end` gets
 * `late`. Chunks are checked as `runSerialize` checks them; chunks of one step never span two.
 */
export async function runSerializePlaylist(
  definition: FormatPluginDefinition,
  playlist: PlaylistInput,
  sliceSizes: readonly number[],
  options: Record<string, unknown> = {},
  run: RunSerializePlaylistOptions = {},
): Promise<SerializeRun> {
  const open = requireOperation(definition.operations.serializePlaylist, 'serializePlaylist');
  if (sliceSizes.length === 0 || sliceSizes.some((size) => !Number.isInteger(size) || size < 1)) throw new Error('slice sizes must be whole numbers of at least 1');
  const { tracks = [], ...details } = playlist;
  const input = FORMAT_OPERATIONS.serializePlaylist.input.parse({ playlist: { ...details, tracks: [] }, options });
  const all = serializeSliceSchema.max(Number.MAX_SAFE_INTEGER).parse(tracks);
  const collector = new ChunkCollector(run.maxChunkBytes ?? MAX_CHUNK_BYTES, 'serializePlaylist');
  const writer = open(input, run.context ?? formatTestContext());
  await collector.take(writer.begin());
  for (let start = 0, step = 0; start < all.length; step++) {
    const size = sliceSizes[Math.min(step, sliceSizes.length - 1)]!;
    await collector.take(writer.write(all.slice(start, start + size)));
    start += size;
  }
  await collector.take(writer.end(serializeLateOptionsSchema.parse(run.late ?? {})));
  return collector.finish();
}

/** Collects a serializer's chunks in order, checking each as the host does. */
class ChunkCollector {
  readonly #maxChunkBytes: number;
  readonly #operation: string;
  readonly #decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  readonly #chunks: string[] = [];

  constructor(maxChunkBytes: number, operation: string) {
    this.#maxChunkBytes = maxChunkBytes;
    this.#operation = operation;
  }

  async take(produced: SerializeChunks): Promise<void> {
    for await (const chunk of produced) {
      let text: string;
      let size: number;
      if (typeof chunk === 'string') {
        text = chunk;
        size = utf8.encode(chunk).byteLength;
      } else if (chunk instanceof Uint8Array) {
        text = this.#decoder.decode(chunk, { stream: true });
        size = chunk.byteLength;
      } else {
        throw new Error(`${this.#operation} yielded chunk ${this.#chunks.length} as ${typeof chunk}, not a string or Uint8Array`);
      }
      if (size > this.#maxChunkBytes) throw new Error(`${this.#operation} yielded chunk ${this.#chunks.length} of ${size} bytes, more than the ${this.#maxChunkBytes}-byte limit`);
      this.#chunks.push(text);
    }
  }

  finish(): SerializeRun {
    const rest = this.#decoder.decode();
    if (rest !== '') throw new Error(`${this.#operation} yielded byte chunks that end inside a UTF-8 character`);
    return { text: this.#chunks.join(''), chunks: this.#chunks };
  }
}
