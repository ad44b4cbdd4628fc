import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { PluginError, type Manifest, type OperationResult, type Playlist } from '@opl/plugin-sdk';
import { SandboxError } from '@opl/plugin-sdk/sandbox';
import { readableFormats, readerFor, type FormatChoice } from '../../plugins/format-plugins.ts';
import { estimateEntries } from './entry-estimate.ts';
import { isTabularHeader, SNIFF_BYTES } from './format-sniffer.ts';
import { chooseReader } from './reader-choice.ts';
import { ImportRecordTooLargeError, MAX_STORED_ISSUES, type ImportIssue, type ImportKind, type ImportRecordContents, type ImportRecordService } from './import-record.service.ts';
import { ParseGate, ParseGateFullError } from './parse-gate.ts';
import { spoolUpload, UploadAbortedError, UploadTooLargeError } from './upload-spool.ts';
import type { ProviderLinkReader } from './provider-link-reader.ts';
import { classifyImportUrl, fetchRemoteJson, isSafeFetchError, type UrlImportTarget } from './url-import.ts';
import type { SafeFetchPolicy } from '../../net/index.ts';
import { ImportPreviewError } from './import-preview-error.ts';

export { ImportPreviewError, type ImportPreviewFailure } from './import-preview-error.ts';

/** Where remote Open Playlist JSON may come from; tests add fetch hooks (resolver, test-only CA). */
export interface UrlImportOptions {
  allowedHosts: SafeFetchPolicy['allowedHosts'];
  fetchOverrides?: Partial<SafeFetchPolicy>;
  /** This engine's public base URL: its `/share/{token}` links are read from the database. */
  publicBaseUrl?: string;
  /** Provider playlist links are read through the owner's connected accounts. */
  providerLinks?: ProviderLinkReader;
  /** This engine's own shares, by token (null when unknown, revoked or expired). */
  shares?: { publicSnapshot(token: string): Promise<unknown> };
}

/** What a URL preview may say beyond the link itself. */
export interface UrlPreviewOptions {
  /** For a provider link: the connected account that should read it (else every one is tried). */
  accountId?: string | null;
  /** The origin the request came to, which also serves this engine's share links. */
  requestOrigin?: string | null;
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

export interface UploadDescription {
  fileName: string | null;
  mediaType: string | null;
  /** The Content-Length the client declared, if any: refused up front when over the limit. */
  declaredBytes: number | null;
}

const MAX_FILE_NAME = 255;
/** Longest plugin message passed on to the client. */
const MAX_PLUGIN_MESSAGE = 500;
/**
 * A file whose entry markers (entry-estimate.ts) number more than this many times
 * OPL_IMPORT_MAX_TRACKS is refused before a reader sees it. The margin keeps files with some
 * skipped rows clear of it; the exact count after reading still holds the limit itself.
 */
export const ENTRY_ESTIMATE_MARGIN = 2;
/** Parse calls of previews at once (one per reader), and how many more may wait for one: see parse-gate.ts. */
export const PARSE_CONCURRENCY = 2;
export const PARSE_QUEUE = 64;
/** Seconds a client is asked to wait when the parse queue is full. */
const BUSY_RETRY_AFTER_S = 10;
/**
 * Largest import record, as the JSON of its stored (compact) playlists, in characters: this many
 * times OPL_IMPORT_MAX_BYTES, and never more than MAX_STORED_CHARS. A file within the limits reads
 * into about its own size (1.1× for the 50 MiB files of every format); a file whose tracks are
 * repeated references to long entries (an iTunes library naming one song of long fields 16,000
 * times, 0.9 MB) read into 560 million characters, which were stored but could never be read back.
 */
export const STORED_SIZE_FACTOR = 4;
/** Absolute ceiling of a stored record: reading it back (with every field) stays well inside a V8 string. */
export const MAX_STORED_CHARS = 256 * 1_048_576;

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

/** The formats of the first-party readers by extension: to say which reader is missing when none is loaded for a file. */
const KNOWN_EXTENSIONS: ReadonlyArray<readonly [string, string]> = [
  ['.csv', 'csv'],
  ['.txt', 'txt'],
  ['.m3u8', 'm3u8'],
  ['.m3u', 'm3u8'],
  ['.pls', 'pls'],
  ['.wpl', 'wpl'],
  ['.zpl', 'wpl'],
  ['.xspf', 'xspf'],
  ['.jspf', 'xspf'],
  ['.json', 'json'],
];

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
  readonly #gate: ParseGate;

  readonly #url: UrlImportOptions;
  readonly #admitBytes: ((ownerId: string, bytes: number) => Promise<void>) | undefined;

  /** `admitBytes`: hosted mode's per-user import allowance (`UserLimits.admitImport`), asked before a reader runs; it throws to refuse. */
  constructor(options: { records: ImportRecordService; plugins: FormatPluginAccess; limits: ImportLimits; spoolRoot?: string; url?: UrlImportOptions; admitBytes?: (ownerId: string, bytes: number) => Promise<void> }) {
    this.#admitBytes = options.admitBytes;
    this.#gate = new ParseGate({ maxRunning: PARSE_CONCURRENCY, maxWaiting: PARSE_QUEUE });
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
      // The head tells the format; the whole file is read only when its reader is free (parse-gate.ts).
      const reader = this.#readerForUpload(upload.fileName, upload.mediaType, await spool.head(SNIFF_BYTES));
      const name = upload.fileName ?? `Imported ${reader.name}`;
      return await this.#parseAndStore(ownerId, 'file', reader, async () => ({ bytes: await spool.bytes(), filename: upload.fileName, media_type: upload.mediaType }), name, false);
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
    return this.#parseAndStore(ownerId, 'text', reader, async () => ({ bytes, filename, media_type: null }), name, true);
  }

  /**
   * A public link. A share link of this engine is read from its share snapshot (no network); a
   * provider playlist link through a connected account of that provider (never its web page); a
   * share link of another engine on an allowed host fetches only that engine's public snapshot
   * JSON; remote Open Playlist JSON on an allowed host is fetched as is. Fetches use the SSRF-safe
   * fetcher, and what comes back is read by the JSON format plugin like an uploaded bundle.
   */
  async previewUrl(ownerId: string, raw: string, options: UrlPreviewOptions = {}): Promise<ImportRecordContents> {
    const manifests = this.#plugins.manifests();
    const origins = [this.#url.publicBaseUrl, options.requestOrigin].flatMap((origin) => {
      try {
        return origin ? [new URL(origin).origin] : [];
      } catch {
        return [];
      }
    });
    const target = classifyImportUrl(raw, manifests, this.#url.allowedHosts, { origins });
    switch (target.kind) {
      case 'refused':
        throw new ImportPreviewError('url_refused', `This URL cannot be imported: ${target.detail}`, { reason: target.reason });
      case 'provider_playlist':
        return this.#previewProviderLink(ownerId, target, options.accountId ?? null);
      case 'local_share':
        return this.#previewLocalShare(ownerId, target.token);
      case 'remote_share':
        return this.#previewRemote(ownerId, target.url, [{ host: target.host, pathPrefixes: [`/api/public/shares/${target.token}`] }], 'Shared playlist');
      case 'remote_json':
        return this.#previewRemote(ownerId, target.url, this.#url.allowedHosts, null);
    }
  }

  async #previewProviderLink(ownerId: string, target: Extract<UrlImportTarget, { kind: 'provider_playlist' }>, accountId: string | null): Promise<ImportRecordContents> {
    const reader = this.#url.providerLinks;
    if (!reader) {
      throw new ImportPreviewError('needs_connection', `This is a ${target.displayName} playlist link; it is read only through ${target.displayName} with a connected account, which this server cannot do.`, {
        action: { type: 'connect_source_account', provider: target.provider, display_name: target.displayName },
      });
    }
    const { playlist } = await reader.read(ownerId, target, accountId);
    const tracks = playlist.tracks.map((track, index) => ({ ...track, position: track.position ?? index }));
    return this.#store(ownerId, 'url', target.provider, [{ ...playlist, tracks, track_count: tracks.length }], [], playlist.name, false);
  }

  async #previewLocalShare(ownerId: string, token: string): Promise<ImportRecordContents> {
    const snapshot = this.#url.shares ? await this.#url.shares.publicSnapshot(token) : null;
    if (snapshot === null || snapshot === undefined) throw this.#shareGone();
    const reader = this.#jsonReader();
    const bytes = new TextEncoder().encode(JSON.stringify(snapshot));
    if (bytes.byteLength > this.#limits.maxBytes) throw this.#tooLarge(bytes.byteLength);
    return this.#parseAndStore(ownerId, 'url', reader, async () => ({ bytes, filename: null, media_type: 'application/vnd.open-playlist+json' }), null, false);
  }

  async #previewRemote(ownerId: string, url: URL, allowedHosts: SafeFetchPolicy['allowedHosts'], fallbackName: string | null): Promise<ImportRecordContents> {
    const reader = this.#jsonReader();
    let response;
    try {
      response = await fetchRemoteJson(url, { allowedHosts, maxBytes: this.#limits.maxBytes, ...(this.#url.fetchOverrides ? { overrides: this.#url.fetchOverrides } : {}) });
    } catch (error) {
      if (!isSafeFetchError(error)) throw error;
      if (error.code === 'url_not_allowed' || error.code === 'destination_not_public' || error.code === 'invalid_redirect' || error.code === 'too_many_redirects') {
        throw new ImportPreviewError('url_refused', `This URL cannot be imported: ${error.detail}`, { reason: error.reason ?? error.code });
      }
      if (error.code === 'response_too_large') throw this.#tooLarge(null);
      throw new ImportPreviewError('upstream_failed', `The remote playlist could not be fetched: ${error.detail}`, { reason: error.code });
    }
    if (fallbackName !== null && (response.status === 404 || response.status === 410)) throw this.#shareGone(response.status);
    if (response.status !== 200) {
      throw new ImportPreviewError('upstream_failed', `The remote server answered HTTP ${response.status} instead of the playlist.`, { upstream_status: response.status });
    }
    const fileName = fallbackName === null ? cleanFileName(decodeURIComponent(response.url.pathname.split('/').pop() ?? '') || null) : null;
    const bytes = new Uint8Array(response.body.byteLength);
    bytes.set(response.body);
    return this.#parseAndStore(ownerId, 'url', reader, async () => ({ bytes, filename: fileName, media_type: response.headers['content-type'] ?? null }), fileName, false);
  }

  #jsonReader(): FormatChoice {
    const reader = readerFor(this.#plugins.manifests(), '', 'json');
    if (!reader) throw new ImportPreviewError('unsupported_format', 'No Open Playlist JSON format plugin is loaded, so linked playlists cannot be read. Run `opl plugin setup` or check `opl plugin list`.');
    return reader;
  }

  #shareGone(upstreamStatus?: number): ImportPreviewError {
    return new ImportPreviewError('not_found', 'This share link leads to no playlist: the share was revoked, has expired, or the link is mistyped. Ask the person who shared it for a new link.', {
      ...(upstreamStatus === undefined ? {} : { upstream_status: upstreamStatus }),
    });
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
    const { reader, sniffed } = chooseReader(manifests, { fileName, mediaType, head: bytes.subarray(0, SNIFF_BYTES) });
    if (reader) return reader;
    const known = readers.map((format) => `${format.name} (${format.extensions.join(', ')})`).join('; ');
    // A format this engine knows whose reader is not loaded: switched off (quarantined, not allowed) or missing.
    const lower = fileName?.toLowerCase() ?? '';
    const missing = KNOWN_EXTENSIONS.find(([extension]) => lower.endsWith(extension))?.[1] ?? sniffed;
    if (missing !== undefined) {
      throw new ImportPreviewError(
        'unsupported_format',
        `${fileName ? `"${fileName}"` : 'This upload'} looks like ${missing}, but no ${missing} reader is loaded on this server right now: an administrator may have switched it off (a quarantine after it broke its sandbox limits, or the plugin allow-list) — see the Plugins page. Readable formats: ${known || 'none'}.`,
        { readable_formats: readers.map((format) => format.name), unavailable_format: missing },
      );
    }
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
    load: () => Promise<{ bytes: Uint8Array<ArrayBuffer>; filename: string | null; media_type: string | null }>,
    name: string | null,
    requireTracks: boolean,
  ): Promise<ImportRecordContents> {
    const admitted = async () => {
      const input = await load();
      await this.#admitBytes?.(ownerId, input.bytes.byteLength);
      return input;
    };
    const result = await this.#parse(reader, admitted);
    const issues: ImportIssue[] = result.issues.slice(0, MAX_STORED_ISSUES);
    if (result.issues.length > MAX_STORED_ISSUES) {
      issues[MAX_STORED_ISSUES - 1] = { line: null, column: null, code: 'too_many_issues', message: `${result.issues.length} issues were found; the first ${MAX_STORED_ISSUES - 1} are listed.`, severity: 'warning' };
    }
    // A reader that stops at its own playlist cap (10,000) says so; the count below is then a floor.
    const playlistsCut = result.issues.some((issue) => issue.code === 'too_many_playlists');
    return this.#store(ownerId, kind, reader.name, result.playlists, issues, name, requireTracks, playlistsCut);
  }

  /**
   * Reads the content with its format plugin, one call per reader at a time (parse-gate.ts), after
   * refusing content that declares far more tracks than the limit (entry-estimate.ts).
   */
  async #parse(reader: FormatChoice, load: () => Promise<{ bytes: Uint8Array<ArrayBuffer>; filename: string | null; media_type: string | null }>): Promise<OperationResult<'parse'>> {
    try {
      return await this.#gate.run(reader.pluginId, async () => {
        const input = await load();
        this.#checkEstimate(reader, input.bytes);
        return await this.#plugins.call(reader.pluginId, 'parse', input);
      });
    } catch (error) {
      if (error instanceof ParseGateFullError) {
        throw new ImportPreviewError('busy', `The server is reading ${error.waiting} other playlist files already; try again in ${BUSY_RETRY_AFTER_S} seconds.`, { retry_after_s: BUSY_RETRY_AFTER_S });
      }
      if (error instanceof SandboxError) throw this.#readerFailed(reader, error);
      if (error instanceof PluginError) {
        throw new ImportPreviewError('unprocessable', `The ${reader.name} reader refused the content: ${error.message.slice(0, MAX_PLUGIN_MESSAGE)}`, { format: reader.name });
      }
      throw error;
    }
  }

  #checkEstimate(reader: FormatChoice, bytes: Uint8Array): void {
    const { maxTracks } = this.#limits;
    const entries = estimateEntries(reader.name, bytes);
    if (entries === null || entries <= maxTracks * ENTRY_ESTIMATE_MARGIN) return;
    throw new ImportPreviewError(
      'unprocessable',
      `The ${reader.name} content declares about ${entries} tracks; at most ${maxTracks} are accepted (OPL_IMPORT_MAX_TRACKS), so it was not read. Split the file or ask the administrator to raise the limit.`,
      { format: reader.name, estimated_track_count: entries, max_tracks: maxTracks },
    );
  }

  /**
   * The reader's sandbox failed. Memory and time limits are about this content (the same file
   * breaks them again): 422 naming the variable that bounds them. A quarantined, unloaded or
   * restarting reader is the server's state, not the content's: 503.
   */
  #readerFailed(reader: FormatChoice, error: SandboxError): ImportPreviewError {
    const extensions = { format: reader.name, reader_failure: error.failure };
    switch (error.failure) {
      case 'memory':
        return new ImportPreviewError(
          'unprocessable',
          `The ${reader.name} reader ran out of memory reading this content (${error.message.slice(0, MAX_PLUGIN_MESSAGE)}): it holds more than one reader can take. Split the file, or ask the administrator to raise OPL_PLUGIN_MEMORY_MB.`,
          { ...extensions, limit: 'OPL_PLUGIN_MEMORY_MB' },
        );
      case 'cpu_timeout':
      case 'wall_timeout':
        return new ImportPreviewError(
          'unprocessable',
          `The ${reader.name} reader did not finish reading this content within its time limit (${error.message.slice(0, MAX_PLUGIN_MESSAGE)}). Split the file, or ask the administrator to raise OPL_PLUGIN_CALL_TIMEOUT_MS.`,
          { ...extensions, limit: 'OPL_PLUGIN_CALL_TIMEOUT_MS' },
        );
      case 'quarantined':
        return new ImportPreviewError(
          'reader_unavailable',
          `The ${reader.name} reader is switched off on this server: it broke its sandbox limits too often and is quarantined until an administrator releases it (Plugins page, or \`opl plugin release ${reader.pluginId}\`).`,
          { ...extensions, plugin_id: reader.pluginId },
        );
      default:
        return new ImportPreviewError('reader_unavailable', `The ${reader.name} reader could not run (${error.failure}); try again in a moment.`, { ...extensions, retry_after_s: 5 });
    }
  }

  /** Applies the playlist and track limits, then keeps the normalised playlists as an import record. */
  async #store(
    ownerId: string,
    kind: ImportKind,
    format: string,
    playlists: Playlist[],
    issues: ImportIssue[],
    name: string | null,
    requireTracks: boolean,
    playlistsCut = false,
  ): Promise<ImportRecordContents> {
    const trackCount = playlists.reduce((sum, playlist) => sum + playlist.tracks.length, 0);
    const counts = { format, playlist_count: playlists.length, track_count: trackCount };
    if (playlists.length === 0 || (requireTracks && trackCount === 0)) {
      throw new ImportPreviewError('unprocessable', `No ${playlists.length === 0 ? 'playlist' : 'track'} could be read from the ${format} content; see the issues.`, { ...counts, issues });
    }
    if (playlists.length > this.#limits.maxPlaylists) {
      const held = playlistsCut ? `more than ${playlists.length} playlists (the reader stopped there)` : `${playlists.length} playlists`;
      throw new ImportPreviewError('unprocessable', `The import holds ${held}; at most ${this.#limits.maxPlaylists} are accepted (OPL_IMPORT_MAX_PLAYLISTS).`, {
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
    const maxStoredChars = Math.min(this.#limits.maxBytes * STORED_SIZE_FACTOR, MAX_STORED_CHARS);
    try {
      return await this.#records.create({ ownerId, kind, name: name ?? playlists[0]?.name ?? null, format, playlists, issues }, { maxStoredChars });
    } catch (error) {
      if (!(error instanceof ImportRecordTooLargeError)) throw error;
      const size = error.storedChars === null ? `more than ${MAX_STORED_CHARS}` : String(error.storedChars);
      throw new ImportPreviewError(
        'unprocessable',
        `The ${trackCount} tracks read from the ${format} content take ${size} characters to keep, more than an import record may hold (${maxStoredChars}: ${STORED_SIZE_FACTOR} × OPL_IMPORT_MAX_BYTES, at most ${MAX_STORED_CHARS}). Its entries are unusually long or repeated; split the file.`,
        { ...counts, stored_chars: error.storedChars, max_stored_chars: maxStoredChars },
      );
    }
  }
}
