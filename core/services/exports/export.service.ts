import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { ZipArchive } from 'archiver';
import type { Manifest, OperationResult, Playlist } from '@opl/plugin-sdk';
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
import { exportWarnings, type SelectedPlaylist } from './export-warnings.ts';

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

const EXTENSIONS: Record<ExportFormat, string> = { csv: '.csv', txt: '.txt', m3u8: '.m3u8', xspf: '.xspf', json: '.json' };

/** One playlist of the source and, optionally, which of its tracks to export. */
export interface PlaylistSelection {
  /** 0-based index of the playlist in the source. */
  index?: number | undefined;
  /** The playlist's id in the source. */
  id?: string | undefined;
  /** 0-based positions of the tracks to export (list order is kept). */
  trackPositions?: readonly number[] | undefined;
  /** Ids of the tracks to export (list order is kept). */
  trackIds?: readonly string[] | undefined;
}

export interface ExportRequest {
  source: { type: string; id: string };
  format: string;
  /** Absent: every playlist of the source, whole. */
  playlists?: readonly PlaylistSelection[] | undefined;
}

export type ExportErrorReason = 'unsupported_source' | 'unknown_format' | 'too_many_playlists' | 'invalid_selection' | 'write_failed';

/** Why an export cannot be made; the HTTP layer maps each reason onto its status. */
export class ExportError extends Error {
  readonly reason: ExportErrorReason;
  readonly extensions: Record<string, unknown>;
  constructor(reason: ExportErrorReason, message: string, extensions: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ExportError';
    this.reason = reason;
    this.extensions = extensions;
  }
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
  serialize(pluginId: string, input: OperationCallInput<'serialize'>, onChunk: (chunk: Uint8Array) => void | Promise<void>): Promise<OperationResult<'serialize'>>;
}

export interface ExportServiceOptions {
  records: { get(ownerId: string, id: string): Promise<ImportRecordContents> };
  plugins: ExportPluginAccess;
  maxPlaylists: number;
  schemaBaseUrl: string;
  /** Parent of this service's private temporary directory; default the OS temporary directory. */
  tempRoot?: string;
}

/** A name for `filename*`: the original Unicode text without anything a file system would read as a path. */
function unicodeName(name: string, fallback: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_').replace(/\.{2,}/g, '.').replace(/^[.\s]+|[.\s]+$/g, '').slice(0, 150);
  return cleaned === '' ? fallback : cleaned;
}

function withoutExtension(name: string): string {
  return name.replace(/\.[A-Za-z0-9]{1,5}$/, '');
}

/**
 * Exports playlists as files (SPEC "Export endpoints", "Multi-playlist archive and manifest v1",
 * Limits rules 1–3): one playlist at a time is serialized by its format plugin into a private
 * temporary file; one playlist is the download itself, several always become a ZIP64 archive with
 * `manifest.json`. Every temporary file lives in a 0700 directory of this service and goes away
 * when the download completes, is cancelled, or fails.
 */
export class ExportService {
  readonly #records: ExportServiceOptions['records'];
  readonly #plugins: ExportPluginAccess;
  readonly #maxPlaylists: number;
  readonly #schemaBaseUrl: string;
  readonly #directory: string;

  constructor(options: ExportServiceOptions) {
    this.#records = options.records;
    this.#plugins = options.plugins;
    this.#maxPlaylists = options.maxPlaylists;
    this.#schemaBaseUrl = options.schemaBaseUrl.replace(/\/+$/, '');
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

  /** Builds the export into a temporary file. Throws `ExportError`, or `ImportRecordError` for the source. */
  async export(ownerId: string, request: ExportRequest, options: { signal?: AbortSignal } = {}): Promise<ExportArtifact> {
    if (request.source.type !== 'import') {
      throw new ExportError('unsupported_source', `Source type "${request.source.type.slice(0, 50)}" is not supported yet; export from an import record with source {"type": "import", "id": …}.`, {
        supported_source_types: ['import'],
      });
    }
    const { format, pluginId } = this.#formatFor(request.format);
    // Limits the request before reading anything.
    if (request.playlists && request.playlists.length > this.#maxPlaylists) this.#tooMany(request.playlists.length);
    const record = await this.#records.get(ownerId, request.source.id);
    const selected = select(record, request.playlists);
    if (selected.length > this.#maxPlaylists) this.#tooMany(selected.length);

    const warnings = exportWarnings(selected, format);
    await mkdir(this.#directory, { recursive: true, mode: 0o700 });
    const work = await mkdtemp(join(this.#directory, 'export-'));
    const dispose = once(() => rm(work, { recursive: true, force: true }));
    try {
      const built =
        selected.length === 1
          ? await this.#single(work, pluginId, format, selected[0]!, warnings)
          : await this.#archive(work, pluginId, format, selected, warnings, withoutExtension(record.name ?? ''), options.signal);
      const bytes = (await stat(built.path)).size;
      return {
        ...built,
        bytes,
        warnings,
        open: () => createReadStream(built.path, { highWaterMark: EXPORT_CHUNK_BYTES }),
        dispose,
      };
    } catch (error) {
      await dispose();
      throw error;
    }
  }

  #tooMany(count: number): never {
    throw new ExportError('too_many_playlists', `The export asks for ${count} playlists; at most ${this.#maxPlaylists} are allowed per export (OPL_EXPORT_MAX_PLAYLISTS). Select fewer playlists and export them in several parts.`, {
      max_playlists: this.#maxPlaylists,
      playlist_count: count,
    });
  }

  #formatFor(name: string): { format: ExportFormat; pluginId: string } {
    const writers = writableFormats(this.#plugins.manifests());
    const writer = writers.find((candidate) => candidate.name === name);
    if (!writer || !(EXPORT_FORMATS as readonly string[]).includes(name)) {
      const writable = this.writableFormats();
      throw new ExportError('unknown_format', `No loaded format plugin writes "${name.slice(0, 50)}". Writable formats: ${writable.join(', ') || 'none (no export format plugin is loaded)'}.`, {
        writable_formats: writable,
      });
    }
    return { format: name as ExportFormat, pluginId: writer.pluginId };
  }

  async #serializeTo(path: string, pluginId: string, format: ExportFormat, playlists: Playlist[], warnings: readonly ExportWarning[]): Promise<void> {
    const handle = await open(path, 'wx', 0o600);
    try {
      await this.#plugins.serialize(pluginId, { playlists, options: { source_provider: null, schema_base: this.#schemaBaseUrl, warnings: [...warnings] } }, async (chunk) => {
        await handle.write(chunk);
      });
    } catch (error) {
      const names = playlists.map((playlist) => `"${playlist.name.slice(0, 80)}"`).join(', ');
      throw new ExportError('write_failed', `The ${format} format plugin could not write ${names}: ${error instanceof Error ? error.message.slice(0, 500) : String(error)}`);
    } finally {
      await handle.close();
    }
  }

  async #single(work: string, pluginId: string, format: ExportFormat, playlist: SelectedPlaylist, warnings: readonly ExportWarning[]) {
    const [fileName] = exportFileNames([{ id: playlist.id, name: playlist.playlist.name }], EXTENSIONS[format]);
    const path = join(work, 'playlist');
    await this.#serializeTo(path, pluginId, format, [playlist.playlist], warnings);
    return {
      path,
      contentType: EXPORT_CONTENT_TYPES[format],
      fileName: fileName!,
      unicodeFileName: unicodeName(playlist.playlist.name, withoutExtension(fileName!)) + EXTENSIONS[format],
      manifest: null,
    };
  }

  async #archive(work: string, pluginId: string, format: ExportFormat, selected: SelectedPlaylist[], warnings: readonly ExportWarning[], sourceName: string, signal?: AbortSignal) {
    const path = join(work, 'archive.zip');
    const output = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    const archive = new ZipArchive({ forceZip64: true, zlib: { level: 6 } });
    let failure: Error | null = null;
    archive.on('error', (error: Error) => {
      failure ??= error;
    });
    archive.on('warning', (error: Error) => {
      failure ??= error;
    });
    archive.pipe(output);
    const written = finished(output);
    const appendFile = async (file: string, name: string) => {
      const entered = new Promise<void>((resolve, reject) => {
        const onEntry = (data: { name: string }) => {
          if (data.name !== name) return;
          archive.off('entry', onEntry);
          archive.off('error', reject);
          resolve();
        };
        archive.on('entry', onEntry);
        archive.once('error', reject);
      });
      archive.append(createReadStream(file), { name, date: new Date(0) });
      await entered;
      // One playlist at a time: its file goes as soon as the archive has it.
      await rm(file, { force: true });
    };

    try {
      const entries: ExportManifestEntry[] = [];
      const entryOf = (item: SelectedPlaylist, file: string): ExportManifestEntry => ({
        playlist_id: item.id,
        name: item.playlist.name.slice(0, 1_000),
        file,
        status: item.playlist.tracks.length === 0 ? 'empty' : 'ok',
        track_count: item.playlist.tracks.length,
        warning_codes: [...new Set(warnings.filter((warning) => warning.playlist_id === item.id).map((warning) => warning.code))],
      });
      if (format === 'json') {
        const file = join(work, 'bundle');
        await this.#serializeTo(file, pluginId, format, selected.map((item) => item.playlist), warnings);
        await appendFile(file, BUNDLE_FILE_NAME);
        for (const item of selected) entries.push(entryOf(item, BUNDLE_FILE_NAME));
      } else {
        const names = exportFileNames(selected.map((item) => ({ id: item.id, name: item.playlist.name })), EXTENSIONS[format]);
        for (const [index, item] of selected.entries()) {
          // Nobody waits for the archive any more (the client left): stop before the next playlist.
          signal?.throwIfAborted();
          const file = join(work, `playlist-${index}`);
          await this.#serializeTo(file, pluginId, format, [item.playlist], warnings.filter((warning) => warning.playlist_id === item.id));
          await appendFile(file, names[index]!);
          entries.push(entryOf(item, names[index]!));
        }
      }
      const manifest = exportManifestSchema.parse({
        $schema: `${this.#schemaBaseUrl}${EXPORT_MANIFEST_SCHEMA_PATH}`,
        schema_version: OPEN_PLAYLIST_SCHEMA_VERSION,
        format,
        source_provider: null,
        playlist_count: entries.length,
        entries,
        warnings,
      });
      archive.append(`${JSON.stringify(manifest, null, 2)}\n`, { name: MANIFEST_FILE_NAME, date: new Date(0) });
      await archive.finalize();
      await written;
      // Set by the archive's event handlers while the awaits above ran.
      const failed = failure as Error | null;
      if (failed) throw failed;
      const base = safeBaseName(sourceName) || 'open-playlist-export';
      return {
        path,
        contentType: EXPORT_CONTENT_TYPES.zip,
        fileName: `${base}.zip`,
        unicodeFileName: `${unicodeName(sourceName, base)}.zip`,
        manifest,
      };
    } catch (error) {
      archive.abort();
      output.destroy();
      await written.catch(() => undefined);
      throw error;
    }
  }
}

function once(action: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => (done ??= action());
}

/** The requested playlists (default: all), each with its selected tracks. Throws `invalid_selection`. */
export function select(record: ImportRecordContents, selections: readonly PlaylistSelection[] | undefined): SelectedPlaylist[] {
  const idOf = (playlist: Playlist, index: number) => playlist.id ?? `${record.id}#${index}`;
  if (!selections) return record.playlists.map((playlist, index) => ({ id: idOf(playlist, index), playlist, partial: null }));
  const seen = new Set<number>();
  return selections.map((selection, at) => {
    let index: number;
    if (selection.index !== undefined) {
      index = selection.index;
      if (index >= record.playlists.length) {
        throw new ExportError('invalid_selection', `playlists[${at}]: import ${record.id} has ${record.playlists.length} playlist(s); index ${index} does not exist (indexes start at 0).`);
      }
    } else {
      index = record.playlists.findIndex((playlist, candidate) => idOf(playlist, candidate) === selection.id);
      if (index < 0) throw new ExportError('invalid_selection', `playlists[${at}]: import ${record.id} has no playlist with id "${String(selection.id).slice(0, 100)}".`);
    }
    if (seen.has(index)) throw new ExportError('invalid_selection', `playlists[${at}]: playlist ${index} is selected twice.`);
    seen.add(index);
    const playlist = record.playlists[index]!;
    const id = idOf(playlist, index);
    if (selection.trackPositions === undefined && selection.trackIds === undefined) return { id, playlist, partial: null };
    let keep: Set<number>;
    if (selection.trackPositions !== undefined) {
      keep = new Set(selection.trackPositions);
      const outside = selection.trackPositions.find((position) => position >= playlist.tracks.length);
      if (outside !== undefined) {
        throw new ExportError('invalid_selection', `playlists[${at}]: playlist "${playlist.name.slice(0, 80)}" has ${playlist.tracks.length} track(s); position ${outside} does not exist (positions start at 0).`);
      }
    } else {
      const wanted = new Set(selection.trackIds);
      keep = new Set(playlist.tracks.flatMap((track, position) => (track.id !== null && wanted.has(track.id) ? [position] : [])));
      const known = new Set(playlist.tracks.map((track) => track.id));
      const missing = [...wanted].find((trackId) => !known.has(trackId));
      if (missing !== undefined) throw new ExportError('invalid_selection', `playlists[${at}]: playlist "${playlist.name.slice(0, 80)}" has no track with id "${missing.slice(0, 100)}".`);
    }
    const tracks = playlist.tracks.filter((_track, position) => keep.has(position));
    return { id, playlist: { ...playlist, tracks, track_count: tracks.length }, partial: { selected: tracks.length, total: playlist.tracks.length } };
  });
}
