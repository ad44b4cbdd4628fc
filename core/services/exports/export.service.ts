import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPORT_FORMATS, type ExportFormat, type ExportManifest, type ExportWarning } from '@opl/plugin-sdk/schemas';
import { exportFileNames } from '../../domain/export-file-names.ts';
import { writableFormats } from '../../plugins/format-plugins.ts';
import type { ImportRecordContents } from '../imports/index.ts';
import { accountExportSource, type AccountExportDependencies } from './account-export-source.ts';
import { unicodeName, withoutExtension } from './download-name.ts';
import { buildArchive } from './export-archive.ts';
import { EXPORT_CHUNK_BYTES, EXPORT_CONTENT_TYPES, EXPORT_EXTENSIONS, type BuiltExport } from './export-files.ts';
import { ExportError } from './export-error.ts';
import { clip, IMPORT_SOURCE_PROVIDER, PlaylistUnavailableError, selectedPlaylistIds, type ExportSelection, type ExportSource, type SourcePlaylist } from './export-source.ts';
import { historyExportSource, type HistoryExportDependencies } from './history-export-source.ts';
import { importExportSource } from './import-export-source.ts';
import { writePlaylistFile, type ExportPluginAccess, type PlaylistFileWriter } from './playlist-file-writer.ts';
import { onTemporaryStorage, openTemporaryFile, type OpenTemporaryFile } from './temporary-storage.ts';

export { BUNDLE_FILE_NAME, EXPORT_CHUNK_BYTES, EXPORT_CONTENT_TYPES, MANIFEST_FILE_NAME } from './export-files.ts';
export type { ExportPluginAccess } from './playlist-file-writer.ts';
// The unit tests of `filename*` names import it from here.
export { unicodeName } from './download-name.ts';

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
  readonly #writer: PlaylistFileWriter;
  readonly #directory: string;

  constructor(options: ExportServiceOptions) {
    this.#records = options.records;
    this.#accounts = options.accounts;
    this.#history = options.history;
    this.#plugins = options.plugins;
    this.#maxPlaylists = options.maxPlaylists;
    this.#writer = { plugins: options.plugins, openFile: options.openFile ?? openTemporaryFile, schemaBaseUrl: options.schemaBaseUrl.replace(/\/+$/, '') };
    this.#directory = join(options.tempRoot ?? join(tmpdir(), 'opl-exports'), randomUUID());
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
      const built = source.playlists.length === 1 ? await this.#single(work, pluginId, format, source, signal) : await buildArchive(this.#writer, work, pluginId, format, source, signal);
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

  async #single(work: string, pluginId: string, format: ExportFormat, source: ExportSource, signal?: AbortSignal): Promise<BuiltExport> {
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
    const [fileName] = exportFileNames([{ id: item.id, name: item.playlist.name }], EXPORT_EXTENSIONS[format]);
    const path = join(work, 'playlist');
    // Nobody waits for the file any more (the client left): the plugin stops at its next chunk.
    const { warnings } = await writePlaylistFile(this.#writer, path, pluginId, format, item, source.sourceProvider, true, signal);
    return {
      path,
      contentType: EXPORT_CONTENT_TYPES[format],
      fileName: fileName!,
      unicodeFileName: unicodeName(item.playlist.name, withoutExtension(fileName!)) + EXPORT_EXTENSIONS[format],
      manifest: null,
      warnings,
    };
  }

}

function once(action: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => (done ??= action());
}
