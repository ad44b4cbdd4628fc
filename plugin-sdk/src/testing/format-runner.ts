import type { FormatContext } from '../context.ts';
import type { FormatPluginDefinition } from '../define-plugin.ts';
import { MAX_CHUNK_BYTES } from '../format-kit/utf8-chunker.ts';
import type { PlaylistInput } from '../model.schema.ts';
import { FORMAT_OPERATIONS, type OperationResult } from '../operations.schema.ts';
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
  const maxChunkBytes = run.maxChunkBytes ?? MAX_CHUNK_BYTES;
  const input = FORMAT_OPERATIONS.serialize.input.parse({ playlists, options });
  const bytesDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const chunks: string[] = [];
  for await (const chunk of serialize(input, run.context ?? formatTestContext())) {
    let text: string;
    let size: number;
    if (typeof chunk === 'string') {
      text = chunk;
      size = utf8.encode(chunk).byteLength;
    } else if (chunk instanceof Uint8Array) {
      text = bytesDecoder.decode(chunk, { stream: true });
      size = chunk.byteLength;
    } else {
      throw new Error(`serialize yielded chunk ${chunks.length} as ${typeof chunk}, not a string or Uint8Array`);
    }
    if (size > maxChunkBytes) throw new Error(`serialize yielded chunk ${chunks.length} of ${size} bytes, more than the ${maxChunkBytes}-byte limit`);
    chunks.push(text);
  }
  const rest = bytesDecoder.decode();
  if (rest !== '') throw new Error('serialize yielded byte chunks that end inside a UTF-8 character');
  return { text: chunks.join(''), chunks };
}
