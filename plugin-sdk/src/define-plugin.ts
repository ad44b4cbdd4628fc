import type { FormatContext, ProviderContext } from './context.ts';
import type { Track } from './model.schema.ts';
import type {
  OperationInput,
  OperationReturn,
  ProviderOperationName,
} from './operations.schema.ts';

/**
 * `definePlugin` helpers. They only tag and type the plugin object: all checking happens in the
 * host against the manifest and the operation schemas, so this file carries no runtime weight
 * (no zod) into a plugin bundle.
 */

type MaybePromise<T> = T | Promise<T>;

export type ProviderOperations = {
  [N in ProviderOperationName]?: (input: OperationInput<N>, ctx: ProviderContext) => MaybePromise<OperationReturn<N>>;
};

export type SerializeChunk = string | Uint8Array;

export type SerializeChunks = Iterable<SerializeChunk> | AsyncIterable<SerializeChunk>;

/**
 * One playlist's file, written as the host hands over its tracks a slice at a time (the
 * `serializePlaylist` operation): `begin` once, `write` once per slice in playlist order (any
 * sizes, possibly none at all for an empty playlist), `end` once. Each returns the next chunks of
 * the file; the chunks of all three together must be the bytes `serialize` writes for the same
 * playlist, whatever the slices. The writer keeps what it needs between calls (a running track
 * number, whether a track was written), never the tracks themselves.
 */
export interface PlaylistWriter {
  /** Everything before the first track. */
  begin(): SerializeChunks;
  /** The next tracks of the playlist. */
  write(tracks: readonly Track[]): SerializeChunks;
  /** Everything after the last track; `late` holds the options known only now (the export's `warnings`). */
  end(late: Readonly<Record<string, unknown>>): SerializeChunks;
}

export interface FormatOperations {
  parse?: (input: OperationInput<'parse'>, ctx: FormatContext) => MaybePromise<OperationReturn<'parse'>>;
  /** Yields the file in chunks; the host streams each one out as it arrives. */
  serialize?: (input: OperationInput<'serialize'>, ctx: FormatContext) => SerializeChunks;
  /**
   * A writer for one playlist's file, fed in slices (`input.playlist` has its details, no tracks).
   * Engines that know it export large playlists through it with flat memory; keep `serialize` too,
   * for files of several playlists and for engines that predate it.
   */
  serializePlaylist?: (input: OperationInput<'serializePlaylist'>, ctx: FormatContext) => PlaylistWriter;
}

export const PLUGIN_DEFINITION_MARK = 'opl.plugin/v1';

export interface ProviderPluginDefinition {
  readonly mark: typeof PLUGIN_DEFINITION_MARK;
  readonly kind: 'provider';
  readonly operations: ProviderOperations;
}

export interface FormatPluginDefinition {
  readonly mark: typeof PLUGIN_DEFINITION_MARK;
  readonly kind: 'format';
  readonly operations: FormatOperations;
}

export type PluginDefinition = ProviderPluginDefinition | FormatPluginDefinition;

/** A provider plugin: implement the adapter operations your manifest declares. */
export function defineProviderPlugin(operations: ProviderOperations): ProviderPluginDefinition {
  return { mark: PLUGIN_DEFINITION_MARK, kind: 'provider', operations };
}

/** A format plugin: `parse` for imports, `serialize` for exports. */
export function defineFormatPlugin(operations: FormatOperations): FormatPluginDefinition {
  return { mark: PLUGIN_DEFINITION_MARK, kind: 'format', operations };
}

/** One entry point for both kinds: `definePlugin({ kind: 'provider', operations: { … } })`. */
export function definePlugin(definition: { kind: 'provider'; operations: ProviderOperations }): ProviderPluginDefinition;
export function definePlugin(definition: { kind: 'format'; operations: FormatOperations }): FormatPluginDefinition;
export function definePlugin(
  definition: { kind: 'provider'; operations: ProviderOperations } | { kind: 'format'; operations: FormatOperations },
): PluginDefinition {
  return definition.kind === 'provider' ? defineProviderPlugin(definition.operations) : defineFormatPlugin(definition.operations);
}
