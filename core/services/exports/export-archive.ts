import { createReadStream } from 'node:fs';
import { rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { ZipArchive } from 'archiver';
import { EXPORT_MANIFEST_SCHEMA_PATH, exportManifestSchema, OPEN_PLAYLIST_SCHEMA_VERSION, type ExportFormat, type ExportManifestEntry, type ExportWarning } from '@opl/plugin-sdk/schemas';
import { exportFileNames, safeBaseName } from '../../domain/export-file-names.ts';
import { unicodeName } from './download-name.ts';
import { BUNDLE_FILE_NAME, EXPORT_CONTENT_TYPES, EXPORT_EXTENSIONS, MANIFEST_FILE_NAME, type BuiltExport } from './export-files.ts';
import { ExportError } from './export-error.ts';
import { clip, PlaylistUnavailableError, type ExportSource, type SourcePlaylist } from './export-source.ts';
import { JsonBundleAssembly } from './json-bundle-assembly.ts';
import { writePlaylistFile, type PlaylistFileWriter, type WrittenPlaylist } from './playlist-file-writer.ts';
import { onTemporaryStorage, temporaryStorageError } from './temporary-storage.ts';

/**
 * Several playlists' export: a ZIP64 archive of one file per playlist (or one JSON bundle) and
 * `manifest.json` (SPEC "Multi-playlist archive and manifest v1"). Each playlist's file goes into
 * the archive, and off the disk, as soon as it is written; a playlist that cannot be read is left
 * out with a warning, and an export where none can be read fails.
 */
export async function buildArchive(writer: PlaylistFileWriter, work: string, pluginId: string, format: ExportFormat, source: ExportSource, signal?: AbortSignal): Promise<BuiltExport> {
  const path = join(work, 'archive.zip');
  const output = (await onTemporaryStorage(() => writer.openFile(path))).createWriteStream();
  const archive = new ZipArchive({ forceZip64: true, zlib: { level: 6 } });
  // The archive's file or the archive itself failing (a full disk: an expected condition, SPEC
  // Limits rule 4) stops the build at once: the archive stops draining then, so anything that
  // waits on it would wait forever, and a rejection nobody awaits yet would end the engine.
  const broken = new AbortController();
  const fail = (error: Error) => broken.abort(error);
  output.on('error', fail);
  archive.on('error', fail);
  archive.on('warning', fail);
  // Stops the build: the client left, or the archive broke.
  const stop = signal ? AbortSignal.any([signal, broken.signal]) : broken.signal;
  const stopped = new Promise<never>((_resolve, reject) => {
    const onStop = () => reject(stop.reason as Error);
    if (stop.aborted) onStop();
    else stop.addEventListener('abort', onStop, { once: true });
  });
  stopped.catch(() => undefined); // observed through `unlessStopped` only
  const unlessStopped = <T>(step: Promise<T>): Promise<T> => Promise.race([step, stopped]);
  archive.pipe(output);
  const written = finished(output);
  written.catch(() => undefined); // its error is `broken`'s reason, handled there
  const appendFile = async (file: string, name: string) => {
    let onEntry: (data: { name: string }) => void = () => undefined;
    const entered = new Promise<void>((resolve) => {
      onEntry = (data) => {
        if (data.name === name) resolve();
      };
      archive.on('entry', onEntry);
    });
    archive.append(createReadStream(file), { name, date: new Date(0) });
    try {
      await unlessStopped(entered);
    } finally {
      archive.off('entry', onEntry);
    }
    // One playlist at a time: its file goes as soon as the archive has it.
    await rm(file, { force: true });
  };

  let bundle: { handle: FileHandle; assembly: JsonBundleAssembly; file: string } | null = null;
  try {
    const entries: ExportManifestEntry[] = [];
    const warnings: ExportWarning[] = [];
    const failures: { playlist_id: string; reason: string }[] = [];
    // File names follow the names as read, in playlist order (a failed playlist takes none).
    const named: { id: string; name: string }[] = [];
    if (format === 'json') {
      const file = join(work, 'bundle');
      const handle = await onTemporaryStorage(() => writer.openFile(file));
      bundle = { handle, file, assembly: await onTemporaryStorage(() => JsonBundleAssembly.start(handle, writer.schemaBaseUrl, source.sourceProvider)) };
    }
    for (const [index, wanted] of source.playlists.entries()) {
      // Nobody waits for the archive any more (the client left), or it broke: stop before the next playlist.
      stop.throwIfAborted();
      let item: SourcePlaylist;
      try {
        item = await source.read(wanted.id, stop);
      } catch (error) {
        if (!(error instanceof PlaylistUnavailableError)) throw error;
        const name = error.playlistName ?? wanted.name;
        const message = `"${clip(name, 200)}" could not be read (${error.reason === 'denied' ? 'access denied' : 'not found'}) and is left out: ${clip(error.message, 500)}`;
        warnings.push({ code: 'playlist_read_failed', playlist_id: wanted.id, message: clip(message, 2_000) });
        failures.push({ playlist_id: wanted.id, reason: error.reason });
        entries.push({ playlist_id: wanted.id, playlist_name: clip(name, 1_000), filename: '', status: 'error', track_count: 0, warning_codes: ['playlist_read_failed'] });
        continue;
      }
      const file = join(work, `playlist-${index}`);
      named.push({ id: item.id, name: item.playlist.name });
      const entryName = bundle ? BUNDLE_FILE_NAME : exportFileNames(named, EXPORT_EXTENSIONS[format]).at(-1)!;
      let written: WrittenPlaylist;
      if (bundle) {
        const { assembly } = bundle;
        written = await writePlaylistFile(writer, file, pluginId, format, item, source.sourceProvider, false, stop);
        await onTemporaryStorage(() => assembly.addFrom(file));
        await rm(file, { force: true });
      } else {
        written = await writePlaylistFile(writer, file, pluginId, format, item, source.sourceProvider, true, stop);
        await appendFile(file, entryName);
      }
      const own = written.warnings;
      warnings.push(...own);
      const codes = [...new Set(own.map((warning) => warning.code))];
      const common = { playlist_id: item.id, playlist_name: clip(item.playlist.name, 1_000), filename: entryName, track_count: written.tracks };
      entries.push(codes.length > 0 ? { ...common, status: 'warning', warning_codes: codes } : { ...common, status: 'ok', warning_codes: [] });
    }
    if (failures.length === entries.length) {
      // Every playlist failed: no archive at all (SPEC "HTTP conditions").
      const denied = failures.some((entry) => entry.reason === 'denied');
      throw new ExportError('all_playlists_failed', `None of the ${entries.length} playlists could be read (${denied ? 'access denied or not found' : 'not found'}), so there is nothing to download. Check the selection against the account's current playlists.`, {
        failures,
      });
    }
    if (bundle) {
      const { assembly, handle } = bundle;
      await onTemporaryStorage(async () => {
        await assembly.finish(warnings);
        await handle.close();
      });
      await appendFile(bundle.file, BUNDLE_FILE_NAME);
      bundle = null;
    }
    const manifest = exportManifestSchema.parse({
      $schema: `${writer.schemaBaseUrl}${EXPORT_MANIFEST_SCHEMA_PATH}`,
      schema_version: OPEN_PLAYLIST_SCHEMA_VERSION,
      format,
      source_provider: source.sourceProvider,
      playlist_count: entries.length,
      entries,
      warnings,
    });
    archive.append(`${JSON.stringify(manifest, null, 2)}\n`, { name: MANIFEST_FILE_NAME, date: new Date(0) });
    await unlessStopped(archive.finalize());
    await unlessStopped(written);
    // A failure after the last byte was handed over (e.g. when the file was closed).
    stop.throwIfAborted();
    const base = safeBaseName(source.archiveName) || 'open-playlist-export';
    return {
      path,
      contentType: EXPORT_CONTENT_TYPES.zip,
      fileName: `${base}.zip`,
      unicodeFileName: `${unicodeName(source.archiveName, base)}.zip`,
      manifest,
      warnings,
    };
  } catch (error) {
    await bundle?.handle.close().catch(() => undefined);
    archive.abort();
    output.destroy();
    await written.catch(() => undefined);
    // The client's leaving explains everything after it; else a broken archive file is the cause,
    // whatever step noticed it first.
    if (signal?.aborted) throw error;
    if (broken.signal.aborted) throw temporaryStorageError(broken.signal.reason);
    throw error;
  }
}
