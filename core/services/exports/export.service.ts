import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { ZipArchive } from 'archiver';
import type { Manifest, OperationResult, Track } from '@opl/plugin-sdk';
import { SandboxError, type SerializeSlice, type SliceSource } from '@opl/plugin-sdk/sandbox';
import {
  EXPORT_FORMATS,
  EXPORT_MANIFEST_SCHEMA_PATH,
  exportManifestSchema,
  OPEN_PLAYLIST_SCHEMA_VERSION,
  type ExportFormat,
  type ExportManifest,
  type ExportManifestEntry,
  type ExportWarning,
  type OperationCallInput,
} from '@opl/plugin-sdk/schemas';
import { exportFileNames, safeBaseName } from '../../domain/export-file-names.ts';
import { writableFormats } from '../../plugins/format-plugins.ts';
import type { ImportRecordContents } from '../imports/index.ts';
import { accountExportSource, type AccountExportDependencies } from './account-export-source.ts';
import { ExportError } from './export-error.ts';
import { clip, IMPORT_SOURCE_PROVIDER, PlaylistUnavailableError, selectedPlaylistIds, type ExportSelection, type ExportSource, type SourcePlaylist } from './export-source.ts';
import { unicodeName, withoutExtension } from './download-name.ts';
import { PlaylistWarningTally } from './export-warnings.ts';
import { historyExportSource, type HistoryExportDependencies } from './history-export-source.ts';
import { importExportSource } from './import-export-source.ts';
import { JsonBundleAssembly } from './json-bundle-assembly.ts';
import { onTemporaryStorage, openTemporaryFile, temporaryStorageError, type OpenTemporaryFile } from './temporary-storage.ts';

/** Response streaming chunk size (SPEC "Limits"). */
export const EXPORT_CHUNK_BYTES = 64 * 1024;
/** The bundle's file inside a multi-playlist JSON archive. */
export const BUNDLE_FILE_NAME = 'open-playlist-bundle.json';
export const MANIFEST_FILE_NAME = 'manifest.json';

export const EXPORT_CONTENT_TYPES: Record<ExportFormat | 'zip', string> = {
  csv: 'text/csv; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  m3u8: 'application/vnd.apple.mpegurl',
  xspf: 'application/xspf+xml',
  json: 'application/vnd.open-playlist+json',
  zip: 'application/zip',
};

// The unit tests of `filename*` names import it from here.
export { unicodeName } from './download-name.ts';

const EXTENSIONS: Record<ExportFormat, string> = { csv: '.csv', txt: '.txt', m3u8: '.m3u8', xspf: '.xspf', json: '.json' };

/**
 * The body of `POST /api/exports` (SPEC "Export endpoints"): a connected account
 * (`source_account_id` = its id, `source_provider` = its provider key) or an import record
 * (`source_provider` = `import`, `source_account_id` = the record id).
 */
export interface ExportRequest {
  source_provider: string;
  source_account_id: string;
  format: string;
  /** Absent: every playlist of the source, whole. */
  selection?: ExportSelection | undefined;
}

/** A finished export in a private temporary file; `open` streams it, `dispose` removes it. */
export interface ExportArtifact {
  readonly path: string;
  readonly bytes: number;
  readonly contentType: string;
  /** ASCII-safe download name. */
  readonly fileName: string;
  /** The same name keeping Unicode (for `filename*`); never holds separators or control characters. */
  readonly unicodeFileName: string;
  readonly warnings: readonly ExportWarning[];
  /** Present for multi-playlist archives. */
  readonly manifest: ExportManifest | null;
  /** A read stream of the file in 64 KiB chunks. */
  open(): NodeJS.ReadableStream & { destroy(error?: Error): void };
  /** Removes the temporary files; safe to call more than once. */
  dispose(): Promise<void>;
}

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

export interface ExportServiceOptions {
  records: { get(ownerId: string, id: string): Promise<ImportRecordContents> };
  /** Connected accounts' playlists; without them, account sources are refused (`unsupported_source`). */
  accounts?: AccountExportDependencies;
  /** Stored migrations; without them, history exports are refused (`unsupported_source`). */
  history?: HistoryExportDependencies;
  plugins: ExportPluginAccess;
  maxPlaylists: number;
  schemaBaseUrl: string;
  /** Parent of this service's private temporary directory; default the OS temporary directory. */
  tempRoot?: string;
  /** Creates each temporary file (default: exclusively, mode 0600); tests hand out files on a disk that fills up. */
  openFile?: OpenTemporaryFile;
}

interface Built {
  path: string;
  contentType: string;
  fileName: string;
  unicodeFileName: string;
  manifest: ExportManifest | null;
  warnings: ExportWarning[];
}

/** What writing one playlist gave: its tracks, and its warnings (the source's own first, e.g. historical, then the format's). */
interface Written {
  tracks: number;
  warnings: ExportWarning[];
}

/**
 * Exports playlists as files (SPEC "Export endpoints", "Multi-playlist archive and manifest v1",
 * Limits rules 1–3). A source (import record, connected account, migration history) hands over
 * one playlist at a time; its format plugin serializes it into a private temporary file at once.
 * One playlist is the download itself, several always become a ZIP64 archive with
 * `manifest.json`. Every temporary file lives in a 0700 directory of this service and goes away
 * when the download completes, is cancelled, or fails.
 */
export class ExportService {
  readonly #records: ExportServiceOptions['records'];
  readonly #accounts: AccountExportDependencies | undefined;
  readonly #history: HistoryExportDependencies | undefined;
  readonly #plugins: ExportPluginAccess;
  readonly #maxPlaylists: number;
  readonly #schemaBaseUrl: string;
  readonly #directory: string;
  readonly #openFile: OpenTemporaryFile;

  constructor(options: ExportServiceOptions) {
    this.#records = options.records;
    this.#accounts = options.accounts;
    this.#history = options.history;
    this.#plugins = options.plugins;
    this.#maxPlaylists = options.maxPlaylists;
    this.#schemaBaseUrl = options.schemaBaseUrl.replace(/\/+$/, '');
    this.#directory = join(options.tempRoot ?? join(tmpdir(), 'opl-exports'), randomUUID());
    this.#openFile = options.openFile ?? openTemporaryFile;
  }

  /** Where this service keeps its temporary files (empty between exports). */
  get temporaryDirectory(): string {
    return this.#directory;
  }

  get maxPlaylists(): number {
    return this.#maxPlaylists;
  }

  /** The export formats a loaded plugin can write. */
  writableFormats(): ExportFormat[] {
    const names = new Set(writableFormats(this.#plugins.manifests()).map((format) => format.name));
    return EXPORT_FORMATS.filter((format) => names.has(format));
  }

  async close(): Promise<void> {
    await rm(this.#directory, { recursive: true, force: true });
  }

  /**
   * A live export from an import record or a connected account. Throws `ExportError`,
   * `ImportRecordError` (the record), or the account's connection and provider errors (missing
   * account, expired connection, rate limit) — those abort the export at once.
   */
  async export(ownerId: string, request: ExportRequest, options: { signal?: AbortSignal } = {}): Promise<ExportArtifact> {
    const { format, pluginId } = this.#formatFor(request.format);
    // Limits the request before reading anything.
    if (request.selection) {
      const count = selectedPlaylistIds(request.selection).length;
      if (count > this.#maxPlaylists) this.#tooMany(count);
      if (count === 0) throw new ExportError('invalid_selection', 'selection.playlist_ids is empty: name at least one playlist, or leave out `selection` to export every playlist.');
      const twice = request.selection.playlist_ids.find((id, index) => request.selection!.playlist_ids.indexOf(id) !== index);
      if (twice !== undefined) throw new ExportError('invalid_selection', `selection.playlist_ids names ${JSON.stringify(twice.slice(0, 100))} twice; name each playlist once.`);
    }
    let source: ExportSource;
    if (request.source_provider === IMPORT_SOURCE_PROVIDER) {
      source = importExportSource(await this.#records.get(ownerId, request.source_account_id), request.selection);
    } else {
      if (!this.#accounts) throw new ExportError('unsupported_source', 'Exports from connected accounts are not available in this server.');
      source = await accountExportSource(this.#accounts, { ownerId, provider: request.source_provider, accountId: request.source_account_id, selection: request.selection });
    }
    return this.#build(source, format, pluginId, options.signal);
  }

  /**
   * The playlist portion of a finished migration, from stored data only (SPEC "Export endpoints"
   * rule 4): no provider is called and no account needs to be connected.
   */
  async exportMigration(ownerId: string, jobId: string, formatName: string, options: { signal?: AbortSignal } = {}): Promise<ExportArtifact> {
    const { format, pluginId } = this.#formatFor(formatName);
    if (!this.#history) throw new ExportError('unsupported_source', 'History exports are not available in this server.');
    const source = await historyExportSource(this.#history, ownerId, jobId);
    // This route takes no selection, so "export them in several parts" is no way out here.
    if (source.playlists.length > this.#maxPlaylists) {
      this.#tooMany(
        source.playlists.length,
        `A migration's playlists are exported all together, so this one cannot be: download its report instead (GET /api/migrations/${jobId}/report), or ask the server's admin to raise OPL_EXPORT_MAX_PLAYLISTS.`,
      );
    }
    return this.#build(source, format, pluginId, options.signal);
  }

  async #build(source: ExportSource, format: ExportFormat, pluginId: string, signal?: AbortSignal): Promise<ExportArtifact> {
    if (source.playlists.length > this.#maxPlaylists) this.#tooMany(source.playlists.length);
    if (source.playlists.length === 0) throw new ExportError('invalid_selection', 'The source has no playlists to export.');
    const work = await onTemporaryStorage(async () => {
      await mkdir(this.#directory, { recursive: true, mode: 0o700 });
      return mkdtemp(join(this.#directory, 'export-'));
    });
    const dispose = once(() => rm(work, { recursive: true, force: true }));
    try {
      const built = source.playlists.length === 1 ? await this.#single(work, pluginId, format, source, signal) : await this.#archive(work, pluginId, format, source, signal);
      const bytes = await onTemporaryStorage(async () => (await stat(built.path)).size);
      return {
        ...built,
        bytes,
        open: () => createReadStream(built.path, { highWaterMark: EXPORT_CHUNK_BYTES }),
        dispose,
      };
    } catch (error) {
      await dispose();
      throw error;
    }
  }

  #tooMany(count: number, remedy = 'Select fewer playlists and export them in several parts.'): never {
    throw new ExportError('too_many_playlists', `The export asks for ${count} playlists; at most ${this.#maxPlaylists} are allowed per export (OPL_EXPORT_MAX_PLAYLISTS). ${remedy}`, {
      max_playlists: this.#maxPlaylists,
      playlist_count: count,
    });
  }

  #formatFor(name: string): { format: ExportFormat; pluginId: string } {
    const writers = writableFormats(this.#plugins.manifests());
    const writer = writers.find((candidate) => candidate.name === name);
    if (!writer || !(EXPORT_FORMATS as readonly string[]).includes(name)) {
      const writable = this.writableFormats();
      if ((EXPORT_FORMATS as readonly string[]).includes(name)) {
        // A format the engine knows whose plugin is not loaded now (refused, quarantined, removed): not the request's fault.
        throw new ExportError(
          'format_unavailable',
          `No loaded format plugin writes "${name}" at the moment: its plugin was refused or quarantined (the Plugins page says why). Writable formats now: ${writable.join(', ') || 'none'}.`,
          { writable_formats: writable },
        );
      }
      throw new ExportError('unknown_format', `No loaded format plugin writes "${clip(name, 50)}". Writable formats: ${writable.join(', ') || 'none (no export format plugin is loaded)'}.`, {
        writable_formats: writable,
      });
    }
    return { format: name as ExportFormat, pluginId: writer.pluginId };
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
  async #serializeTo(path: string, pluginId: string, format: ExportFormat, item: SourcePlaylist, sourceProvider: string, withWarnings: boolean, stop?: AbortSignal): Promise<Written> {
    stop?.throwIfAborted();
    const handle = await onTemporaryStorage(() => this.#openFile(path));
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
      const input = { playlist: item.playlist, options: { source_provider: sourceProvider, schema_base: this.#schemaBaseUrl } };
      await this.#plugins.serializePlaylist(pluginId, input, nextSlice, async (chunk) => {
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

  async #single(work: string, pluginId: string, format: ExportFormat, source: ExportSource, signal?: AbortSignal): Promise<Built> {
    const wanted = source.playlists[0]!;
    let item: SourcePlaylist;
    try {
      item = await source.read(wanted.id, signal);
    } catch (error) {
      // One playlist asked for and it cannot be read: an explicit error, never an empty file.
      if (error instanceof PlaylistUnavailableError) {
        throw new ExportError(error.reason === 'denied' ? 'playlist_access_denied' : 'playlist_not_found', error.message, { playlist_id: wanted.id });
      }
      throw error;
    }
    const [fileName] = exportFileNames([{ id: item.id, name: item.playlist.name }], EXTENSIONS[format]);
    const path = join(work, 'playlist');
    // Nobody waits for the file any more (the client left): the plugin stops at its next chunk.
    const { warnings } = await this.#serializeTo(path, pluginId, format, item, source.sourceProvider, true, signal);
    return {
      path,
      contentType: EXPORT_CONTENT_TYPES[format],
      fileName: fileName!,
      unicodeFileName: unicodeName(item.playlist.name, withoutExtension(fileName!)) + EXTENSIONS[format],
      manifest: null,
      warnings,
    };
  }

  async #archive(work: string, pluginId: string, format: ExportFormat, source: ExportSource, signal?: AbortSignal): Promise<Built> {
    const path = join(work, 'archive.zip');
    const output = (await onTemporaryStorage(() => this.#openFile(path))).createWriteStream();
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
        const handle = await onTemporaryStorage(() => this.#openFile(file));
        bundle = { handle, file, assembly: await onTemporaryStorage(() => JsonBundleAssembly.start(handle, this.#schemaBaseUrl, source.sourceProvider)) };
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
        const entryName = bundle ? BUNDLE_FILE_NAME : exportFileNames(named, EXTENSIONS[format]).at(-1)!;
        let written: Written;
        if (bundle) {
          const { assembly } = bundle;
          written = await this.#serializeTo(file, pluginId, format, item, source.sourceProvider, false, stop);
          await onTemporaryStorage(() => assembly.addFrom(file));
          await rm(file, { force: true });
        } else {
          written = await this.#serializeTo(file, pluginId, format, item, source.sourceProvider, true, stop);
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
        $schema: `${this.#schemaBaseUrl}${EXPORT_MANIFEST_SCHEMA_PATH}`,
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
}

function once(action: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => (done ??= action());
}
