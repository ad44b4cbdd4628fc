import type { Manifest, OperationResult, Track } from '@opl/plugin-sdk';
import { SandboxError, type SerializeSlice, type SliceSource } from '@opl/plugin-sdk/sandbox';
import type { ExportFormat, ExportWarning, OperationCallInput } from '@opl/plugin-sdk/schemas';
import { ExportError } from './export-error.ts';
import { clip, type SourcePlaylist } from './export-source.ts';
import { PlaylistWarningTally } from './export-warnings.ts';
import { onTemporaryStorage, temporaryStorageError, type OpenTemporaryFile } from './temporary-storage.ts';

export interface ExportPluginAccess {
  manifests(): readonly Manifest[];
  /** The format plugin's playlist writer (`PluginHost.serializePlaylist`): the details, then the tracks as `nextSlice` hands them over. */
  serializePlaylist(
    pluginId: string,
    input: OperationCallInput<'serializePlaylist'>,
    nextSlice: SliceSource,
    onChunk: (chunk: Uint8Array) => void | Promise<void>,
  ): Promise<OperationResult<'serializePlaylist'>>;
}

/** What writing a playlist's file needs: the format plugins, how temporary files are made, and the schema base of JSON files. */
export interface PlaylistFileWriter {
  readonly plugins: ExportPluginAccess;
  readonly openFile: OpenTemporaryFile;
  readonly schemaBaseUrl: string;
}

/** What writing one playlist gave: its tracks, and its warnings (the source's own first, e.g. historical, then the format's). */
export interface WrittenPlaylist {
  tracks: number;
  warnings: ExportWarning[];
}

/**
 * Writes one playlist through the format plugin's playlist writer into a new temporary file: its
 * details first, then its tracks as the plugin asks for them, a slice at a time from the source
 * (counted for the warnings on the way), so neither this process nor the sandbox holds more than
 * a slice of them. Once `stop` fires (the client left, or the archive's file failed), the next
 * chunk or slice is refused, which ends the plugin's call early. A refused chunk, or a source
 * that failed to read its tracks, is the reason the call failed: that reason is thrown, never a
 * message blaming the plugin. `withWarnings`: the file carries the playlist's warnings (a JSON
 * bundle writes them at its end; other formats ignore them).
 */
export async function writePlaylistFile(
writer: PlaylistFileWriter,
path: string,
pluginId: string,
format: ExportFormat,
item: SourcePlaylist,
sourceProvider: string,
withWarnings: boolean,
stop?: AbortSignal,
): Promise<WrittenPlaylist> {
  stop?.throwIfAborted();
  const handle = await onTemporaryStorage(() => writer.openFile(path));
  // Set in the callbacks (an object: the compiler does not follow assignments made in callbacks).
  const sink: { refused: Error | null; unclosed: Error | null } = { refused: null, unclosed: null };
  const tally = new PlaylistWarningTally(item.id, item.playlist.name, item.partial, format);
  const tracks = item.slices[Symbol.asyncIterator]();
  let warnings: ExportWarning[] | null = null;
  const nextSlice = async (): Promise<SerializeSlice> => {
    if (stop?.aborted) throw (sink.refused = stop.reason as Error);
    let next: IteratorResult<readonly Track[]>;
    try {
      next = await tracks.next();
    } catch (error) {
      throw (sink.refused = error instanceof Error ? error : new Error(String(error)));
    }
    if (!next.done) {
      tally.add(next.value);
      return { done: false, tracks: next.value };
    }
    warnings = [...item.warnings, ...tally.warnings()];
    return { done: true, late: { warnings: withWarnings ? warnings : [] } };
  };
  try {
    const input = { playlist: item.playlist, options: { source_provider: sourceProvider, schema_base: writer.schemaBaseUrl } };
    await writer.plugins.serializePlaylist(pluginId, input, nextSlice, async (chunk) => {
      if (sink.refused !== null) throw sink.refused;
      if (stop?.aborted) throw (sink.refused = stop.reason as Error);
      try {
        await handle.write(chunk);
      } catch (error) {
        throw (sink.refused = temporaryStorageError(error));
      }
    });
  } catch (error) {
    if (sink.refused !== null) throw sink.refused;
    const name = `"${clip(item.playlist.name, 80)}"`;
    if (error instanceof SandboxError) {
      // The sandbox or its process stopped (a limit, a crash, a quarantine): the engine's trouble, worth a retry.
      throw new ExportError(
        'format_unavailable',
        `The ${format} format plugin stopped while writing ${name} (${error.failure}). Try again; an admin can see the plugin's state on the Plugins page.`,
        { failure: error.failure },
      );
    }
    throw new ExportError('write_failed', `The ${format} format plugin could not write ${name}: ${error instanceof Error ? clip(error.message, 500) : clip(String(error), 500)}`);
  } finally {
    await tracks.return?.().catch(() => undefined);
    await handle.close().catch((error: unknown) => {
      sink.unclosed = temporaryStorageError(error);
    });
  }
  // A plugin that carried on after a refused chunk still wrote an incomplete file.
  if (sink.refused !== null) throw sink.refused;
  // Some filesystems report a failed write only when the file is closed.
  if (sink.unclosed !== null) throw sink.unclosed;
  // A plugin that returned before asking for every slice wrote a file without all the tracks.
  if (warnings === null) throw new ExportError('write_failed', `The ${format} format plugin stopped writing "${clip(item.playlist.name, 80)}" before its last track.`);
  return { tracks: tally.tracks, warnings };
}
