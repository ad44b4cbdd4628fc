import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { PluginError, type Manifest, type OperationResult } from '@opl/plugin-sdk';
import { readableFormats, readerFor, type FormatChoice } from '../../plugins/format-plugins.ts';
import { isTabularHeader, sniffFormat, SNIFF_BYTES } from './format-sniffer.ts';
import { MAX_STORED_ISSUES, type ImportIssue, type ImportKind, type ImportRecordContents, type ImportRecordService } from './import-record.service.ts';
import { spoolUpload, UploadAbortedError, UploadTooLargeError } from './upload-spool.ts';
import { classifyImportUrl, fetchRemoteJson, isSafeFetchError } from './url-import.ts';
import type { SafeFetchPolicy } from '../../net/index.ts';

/** Where remote Open Playlist JSON may come from; tests add fetch hooks (resolver, test-only CA). */
export interface UrlImportOptions {
  allowedHosts: SafeFetchPolicy['allowedHosts'];
  fetchOverrides?: Partial<SafeFetchPolicy>;
}

export interface ImportLimits {
  /** Bytes of one upload (and of pasted text, as UTF-8). */
  maxBytes: number;
  maxPlaylists: number;
  /** Tracks summed over every playlist of one import. */
  maxTracks: number;
  /** Bytes of an upload held in memory before it moves to a temporary file. */
  spoolMemoryBytes: number;
}

/** The plugin calls the preview needs: the sandbox host and the loaded manifests. */
export interface FormatPluginAccess {
  call(pluginId: string, op: 'parse', input: { bytes: Uint8Array<ArrayBuffer>; filename: string | null; media_type: string | null }): Promise<OperationResult<'parse'>>;
  manifests(): Manifest[];
}

export type ImportPreviewFailure =
  | 'too_large'
  | 'unprocessable'
  | 'unsupported_format'
  | 'invalid_request'
  | 'aborted'
  /** A URL refused by the import rules before any request (or its destination is not public). */
  | 'url_refused'
  /** A provider playlist link: it can only be read through that provider with a connected account. */
  | 'needs_connection'
  /** The remote server failed, timed out or answered something other than the playlist. */
  | 'upstream_failed';

/** A preview refused for a reason the client can act on; `extensions` carry the numbers. */
export class ImportPreviewError extends Error {
  readonly reason: ImportPreviewFailure;
  readonly extensions: Record<string, unknown>;
  constructor(reason: ImportPreviewFailure, message: string, extensions: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ImportPreviewError';
    this.reason = reason;
    this.extensions = extensions;
  }
}

export interface UploadDescription {
  fileName: string | null;
  mediaType: string | null;
  /** The Content-Length the client declared, if any: refused up front when over the limit. */
  declaredBytes: number | null;
}

const MAX_FILE_NAME = 255;
/** Longest plugin message passed on to the client. */
const MAX_PLUGIN_MESSAGE = 500;

/** The base name of a client-given file name, or null; refuses control characters and over-long names. */
export function cleanFileName(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(raw)) throw new ImportPreviewError('invalid_request', 'The file name contains control characters.');
  const base = raw.split(/[/\\]/).pop()!.trim();
  if (base === '' || base === '.' || base === '..') return null;
  if (base.length > MAX_FILE_NAME) throw new ImportPreviewError('invalid_request', `The file name is longer than ${MAX_FILE_NAME} characters.`);
  return base;
}

function mib(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(bytes % 1_048_576 === 0 ? 0 : 1)} MiB`;
}

/**
 * Comment lines (`#…`) of pasted CSV become blank lines, which the CSV reader skips; line numbers
 * of issues stay those of the pasted text. A `#` inside a quoted, multi-line cell is content.
 */
export function blankCommentLines(text: string): string {
  let inQuotes = false;
  return text
    .split(/(\r\n|\n|\r)/)
    .map((part, index) => {
      if (index % 2 === 1) return part;
      const blank = !inQuotes && part.trimStart().startsWith('#');
      for (const char of part) if (char === '"') inQuotes = !inQuotes;
      return blank ? '' : part;
    })
    .join('');
}

function firstMeaningfulLine(text: string): string | undefined {
  for (const line of text.split(/\r\n|\n|\r/)) {
    const trimmed = line.trim();
    if (trimmed !== '' && !trimmed.startsWith('#')) return line;
  }
  return undefined;
}

/**
 * Local-file and pasted-text previews: bytes are spooled (memory, then a private temporary file),
 * bounded, read by a format plugin in the sandbox and kept only as normalised playlists in an
 * import record. Temporary data is removed in every outcome.
 */
export class ImportPreviewService {
  readonly #records: ImportRecordService;
  readonly #plugins: FormatPluginAccess;
  readonly #limits: ImportLimits;
  readonly #spoolDirectory: string;

  readonly #url: UrlImportOptions;

  constructor(options: { records: ImportRecordService; plugins: FormatPluginAccess; limits: ImportLimits; spoolRoot?: string; url?: UrlImportOptions }) {
    this.#url = options.url ?? { allowedHosts: [] };
    this.#records = options.records;
    this.#plugins = options.plugins;
    this.#limits = options.limits;
    // One private directory per engine process, so a process only ever cleans its own files.
    this.#spoolDirectory = join(options.spoolRoot ?? join(tmpdir(), 'opl-imports'), randomUUID());
  }

  get limits(): Readonly<ImportLimits> {
    return this.#limits;
  }

  /** Where this process spools uploads beyond the memory threshold. */
  get spoolDirectory(): string {
    return this.#spoolDirectory;
  }

  async close(): Promise<void> {
    await rm(this.#spoolDirectory, { recursive: true, force: true });
  }

  async previewUpload(ownerId: string, source: Readable, upload: UploadDescription): Promise<ImportRecordContents> {
    const { maxBytes } = this.#limits;
    if (upload.declaredBytes !== null && upload.declaredBytes > maxBytes) throw this.#tooLarge(upload.declaredBytes);
    let spool;
    try {
      spool = await spoolUpload(source, { memoryBytes: this.#limits.spoolMemoryBytes, maxBytes, directory: this.#spoolDirectory });
    } catch (error) {
      if (error instanceof UploadTooLargeError) throw this.#tooLarge(null);
      if (error instanceof UploadAbortedError) throw new ImportPreviewError('aborted', 'The upload ended before it was complete.');
      throw error;
    }
    try {
      if (spool.size === 0) throw new ImportPreviewError('unprocessable', 'The upload is empty: send the playlist file as the request body.');
      const bytes = await spool.bytes();
      const reader = this.#readerForUpload(upload.fileName, upload.mediaType, bytes);
      const name = upload.fileName ?? `Imported ${reader.name}`;
      return await this.#parseAndStore(ownerId, 'file', reader, { bytes, filename: upload.fileName, media_type: upload.mediaType }, name, false);
    } finally {
      await spool.dispose();
    }
  }

  /**
   * Pasted text: a spreadsheet-style paste (a `,`/`;`/tab header naming a title-like column) goes
   * to the CSV reader; anything else to the TXT reader (TXT v1, or an "Artist - Title" list).
   */
  async previewText(ownerId: string, text: string, name: string | null): Promise<ImportRecordContents> {
    const size = Buffer.byteLength(text, 'utf8');
    if (size > this.#limits.maxBytes) throw this.#tooLarge(size);
    const first = firstMeaningfulLine(text);
    const tabular = first !== undefined && !(first.includes('\t') && first.toLowerCase().includes('schema_version')) && isTabularHeader(first);
    const formatName = tabular ? 'csv' : 'txt';
    const reader = readerFor(this.#plugins.manifests(), '', formatName);
    if (!reader) {
      throw new ImportPreviewError('unsupported_format', `No ${formatName.toUpperCase()} format plugin is loaded, so pasted text cannot be read. Run \`opl plugin setup\` or check \`opl plugin list\`.`);
    }
    const content = tabular ? blankCommentLines(text) : text;
    const bytes = new TextEncoder().encode(content);
    const filename = name ? `${name}${reader.extensions[0] ?? ''}` : null;
    return this.#parseAndStore(ownerId, 'text', reader, { bytes, filename, media_type: null }, name, true);
  }

  /**
   * A public link: a provider playlist link answers with the action to connect that provider (it is
   * read only through the provider's API, never by fetching its web page); remote Open Playlist
   * JSON on an allowed host is fetched with the SSRF-safe fetcher and read by the JSON plugin.
   */
  async previewUrl(ownerId: string, raw: string): Promise<ImportRecordContents> {
    const manifests = this.#plugins.manifests();
    const target = classifyImportUrl(raw, manifests, this.#url.allowedHosts);
    if (target.kind === 'refused') throw new ImportPreviewError('url_refused', `This URL cannot be imported: ${target.detail}`, { reason: target.reason });
    if (target.kind === 'provider_playlist') {
      throw new ImportPreviewError(
        'needs_connection',
        `This is a ${target.displayName} playlist link. It is read through ${target.displayName} with one of your connected accounts, and no connected ${target.displayName} account can read it yet: connect a ${target.displayName} account, then import the playlist from it.`,
        { action: { type: 'connect_source_account', provider: target.provider, display_name: target.displayName } },
      );
    }
    const reader = readerFor(manifests, '', 'json');
    if (!reader) throw new ImportPreviewError('unsupported_format', 'No Open Playlist JSON format plugin is loaded, so remote playlists cannot be read. Run `opl plugin setup` or check `opl plugin list`.');
    let response;
    try {
      response = await fetchRemoteJson(target.url, { allowedHosts: this.#url.allowedHosts, maxBytes: this.#limits.maxBytes, ...(this.#url.fetchOverrides ? { overrides: this.#url.fetchOverrides } : {}) });
    } catch (error) {
      if (!isSafeFetchError(error)) throw error;
      if (error.code === 'url_not_allowed' || error.code === 'destination_not_public' || error.code === 'invalid_redirect' || error.code === 'too_many_redirects') {
        throw new ImportPreviewError('url_refused', `This URL cannot be imported: ${error.detail}`, { reason: error.reason ?? error.code });
      }
      if (error.code === 'response_too_large') throw this.#tooLarge(null);
      throw new ImportPreviewError('upstream_failed', `The remote playlist could not be fetched: ${error.detail}`, { reason: error.code });
    }
    if (response.status !== 200) {
      throw new ImportPreviewError('upstream_failed', `The remote server answered HTTP ${response.status} instead of the playlist.`, { upstream_status: response.status });
    }
    const fileName = cleanFileName(decodeURIComponent(response.url.pathname.split('/').pop() ?? '') || null);
    const bytes = new Uint8Array(response.body.byteLength);
    bytes.set(response.body);
    return this.#parseAndStore(ownerId, 'url', reader, { bytes, filename: fileName, media_type: response.headers['content-type'] ?? null }, fileName, false);
  }

  #tooLarge(received: number | null): ImportPreviewError {
    const { maxBytes } = this.#limits;
    return new ImportPreviewError(
      'too_large',
      `The upload is larger than the import limit of ${mib(maxBytes)} (${maxBytes} bytes, OPL_IMPORT_MAX_BYTES); it was not read further. Split the playlist file or ask the administrator to raise the limit.`,
      { max_bytes: maxBytes, ...(received === null ? {} : { received_bytes: received }) },
    );
  }

  #readerForUpload(fileName: string | null, mediaType: string | null, bytes: Uint8Array): FormatChoice {
    const manifests = this.#plugins.manifests();
    const readers = readableFormats(manifests);
    const byName = fileName ? readerFor(manifests, fileName) : undefined;
    if (byName) return byName;
    const type = mediaType?.split(';')[0]?.trim().toLowerCase();
    const byType = type ? readers.find((format) => format.mediaTypes.includes(type)) : undefined;
    if (byType) return byType;
    const sniffed = sniffFormat(bytes.subarray(0, SNIFF_BYTES));
    const bySniff = sniffed ? readerFor(manifests, '', sniffed) : undefined;
    if (bySniff) return bySniff;
    const known = readers.map((format) => `${format.name} (${format.extensions.join(', ')})`).join('; ');
    throw new ImportPreviewError(
      'unsupported_format',
      `No format plugin reads ${fileName ? `"${fileName}"` : 'this upload'}: neither its name nor its content matches a readable format. Readable formats: ${known || 'none — the format plugins are not loaded (run `opl plugin setup`)'}.`,
      { readable_formats: readers.map((format) => format.name) },
    );
  }

  async #parseAndStore(
    ownerId: string,
    kind: ImportKind,
    reader: FormatChoice,
    input: { bytes: Uint8Array<ArrayBuffer>; filename: string | null; media_type: string | null },
    name: string | null,
    requireTracks: boolean,
  ): Promise<ImportRecordContents> {
    let result: OperationResult<'parse'>;
    try {
      result = await this.#plugins.call(reader.pluginId, 'parse', input);
    } catch (error) {
      if (error instanceof PluginError) {
        throw new ImportPreviewError('unprocessable', `The ${reader.name} reader refused the content: ${error.message.slice(0, MAX_PLUGIN_MESSAGE)}`, { format: reader.name });
      }
      throw error;
    }
    const issues: ImportIssue[] = result.issues.slice(0, MAX_STORED_ISSUES);
    if (result.issues.length > MAX_STORED_ISSUES) {
      issues[MAX_STORED_ISSUES - 1] = { line: null, column: null, code: 'too_many_issues', message: `${result.issues.length} issues were found; the first ${MAX_STORED_ISSUES - 1} are listed.`, severity: 'warning' };
    }
    const playlists = result.playlists;
    const trackCount = playlists.reduce((sum, playlist) => sum + playlist.tracks.length, 0);
    const counts = { format: reader.name, playlist_count: playlists.length, track_count: trackCount };
    if (playlists.length === 0 || (requireTracks && trackCount === 0)) {
      throw new ImportPreviewError('unprocessable', `No ${playlists.length === 0 ? 'playlist' : 'track'} could be read from the ${reader.name} content; see the issues.`, { ...counts, issues });
    }
    if (playlists.length > this.#limits.maxPlaylists) {
      throw new ImportPreviewError('unprocessable', `The import holds ${playlists.length} playlists; at most ${this.#limits.maxPlaylists} are accepted (OPL_IMPORT_MAX_PLAYLISTS).`, {
        ...counts,
        max_playlists: this.#limits.maxPlaylists,
      });
    }
    if (trackCount > this.#limits.maxTracks) {
      throw new ImportPreviewError('unprocessable', `The import holds ${trackCount} tracks; at most ${this.#limits.maxTracks} are accepted (OPL_IMPORT_MAX_TRACKS).`, {
        ...counts,
        max_tracks: this.#limits.maxTracks,
      });
    }
    return this.#records.create({ ownerId, kind, name: name ?? playlists[0]?.name ?? null, format: reader.name, playlists, issues });
  }
}
