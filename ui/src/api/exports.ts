/**
 * Exports (`POST /api/exports`, `POST /api/exports/migrations/{job_id}`): the request bodies, the
 * formats offered with one line each, and the words the Export page and History use for warnings
 * and refusals. Pure: no I/O. The engine decides warnings and refusals; this module only puts them
 * into words and names the next action.
 */

import type { MigrationSource, SelectionDraft } from './migrations.ts';
import { DOWNLOAD_INTERRUPTED_CODE, DOWNLOAD_TIMEOUT_CODE, type Problem } from './problem.ts';
import { isRecord, isString } from './answer-parsing.ts';

export const EXPORTS_PATH = '/api/exports';
/** The Import page leaves an import record id here before it sends the user to Export. */
export const EXPORT_HANDOVER_KEY = 'opl.export.import-id';
/** Several playlists come back as one archive; its manifest has this name (SPEC "Multi-playlist archive and manifest v1"). */
export const MANIFEST_FILE_NAME = 'manifest.json';
export const ZIP_CONTENT_TYPE = 'application/zip';

export function historyExportPath(jobId: string): string {
  return `${EXPORTS_PATH}/migrations/${encodeURIComponent(jobId)}`;
}

export const EXPORT_FORMAT_VALUES = ['csv', 'txt', 'm3u8', 'xspf', 'json'] as const;
export type ExportFormatValue = (typeof EXPORT_FORMAT_VALUES)[number];

export interface ExportFormatOption {
  readonly value: ExportFormatValue;
  readonly label: string;
  /** One line on what the file is good for. */
  readonly explanation: string;
}

/** The formats the engine writes, in the order offered (SPEC "Export formats"). */
export const EXPORT_FORMATS: readonly ExportFormatOption[] = [
  { value: 'csv', label: 'CSV', explanation: 'A table for spreadsheets: one row per track with every detail the engine knows (UTF-8 with a byte order mark, so Excel reads accents).' },
  { value: 'txt', label: 'TXT', explanation: 'The same columns as CSV, separated by tabs, for scripts and text editors.' },
  { value: 'm3u8', label: 'M3U8', explanation: 'A playlist media players open; tracks point to their pages on the streaming service.' },
  { value: 'xspf', label: 'XSPF', explanation: 'An XML playlist that players such as VLC and many tools read.' },
  { value: 'json', label: 'Open Playlist JSON', explanation: 'Lossless: everything the engine knows, which any Open Playlist engine can import again.' },
];

export function exportFormatOption(value: string): ExportFormatOption | undefined {
  return EXPORT_FORMATS.find((option) => option.value === value);
}

/** Which formats the engine can write now (a format's plugin may be refused or quarantined). */
export const EXPORT_FORMATS_PATH = `${EXPORTS_PATH}/formats`;

/** Said beside a format the engine cannot write now. */
export const FORMAT_UNAVAILABLE_TEXT = 'Not available now: its plugin is not loaded (an administrator can see why on the Plugins page).';

/**
 * The formats `GET /api/exports/formats` says are not available now, or null when the answer does
 * not have the documented shape (then every format stays offered and an export's refusal explains).
 */
export function unavailableFormats(data: unknown): ReadonlySet<ExportFormatValue> | null {
  if (!isRecord(data) || !Array.isArray(data['formats'])) return null;
  const unavailable = new Set<ExportFormatValue>();
  for (const entry of data['formats']) {
    if (!isRecord(entry) || !isString(entry['format']) || typeof entry['available'] !== 'boolean') return null;
    const option = exportFormatOption(entry['format']);
    if (option && !entry['available']) unavailable.add(option.value);
  }
  return unavailable;
}

/** The chosen format, or the first available one when the chosen one is not (the chosen one when none is). */
export function availableFormat(chosen: ExportFormatValue, unavailable: ReadonlySet<ExportFormatValue>): ExportFormatValue {
  if (!unavailable.has(chosen)) return chosen;
  return EXPORT_FORMATS.find((option) => !unavailable.has(option.value))?.value ?? chosen;
}

/**
 * The body of `POST /api/exports` in the API's snake_case. Every chosen playlist is in
 * `playlist_ids` (their order is the archive's order); those with only some tracks chosen are
 * also in `tracks`, which makes the engine raise `partial_selection` for them.
 */
export function exportBody(source: MigrationSource, format: string, selection: Pick<SelectionDraft, 'collectionIds' | 'tracks'>): Record<string, unknown> {
  const tracks = Object.fromEntries(Object.entries(selection.tracks).filter(([, keys]) => keys.length > 0));
  const ids = [...new Set([...selection.collectionIds, ...Object.keys(tracks)])];
  return {
    source_provider: source.kind === 'import' ? 'import' : source.provider,
    source_account_id: source.kind === 'import' ? source.importId : source.accountId,
    format,
    selection: { playlist_ids: ids, ...(Object.keys(tracks).length > 0 ? { tracks } : {}) },
  };
}

// --- warnings -------------------------------------------------------------------------------

export interface ExportWarning {
  readonly code: string;
  /** The engine's own sentence about this warning, when it sent one. */
  readonly message: string | null;
  readonly playlistId: string | null;
  readonly count: number | null;
}

const WARNING_SENTENCES: Readonly<Record<string, string>> = {
  partial_selection: 'Only the tracks you picked were exported, not the whole playlist.',
  empty_playlist: 'The playlist, or the part of it you picked, has no tracks: the file holds the playlist’s details only.',
  unsupported_items: 'It holds podcast episodes, videos, local files or other entries streaming services cannot play; they were exported as they are.',
  missing_source_uri: 'Some tracks have no link a player can open (a Spotify or TIDAL track, or a web address), so this file cannot play them.',
  playlist_read_failed: 'A playlist could not be read (it was unavailable, or the service refused access); the archive lists it without a file.',
  historical_playlist_metadata_partial: 'This migration was recorded before playlist details were kept, so some playlist fields (description, owner, artwork) are missing.',
  historical_track_metadata_partial: 'Some track details of this migration could not be read back and were rebuilt from the migration record; they may be incomplete.',
};

/** One sentence per warning code of the spec; an unknown code still gets words. */
export function warningSentence(code: string): string {
  return WARNING_SENTENCES[code] ?? `The engine reported “${code}” about this export.`;
}

export const WARNING_CODES: readonly string[] = Object.keys(WARNING_SENTENCES);

const WARNING_LABELS: Readonly<Record<string, string>> = {
  partial_selection: 'Some tracks only',
  empty_playlist: 'No tracks',
  unsupported_items: 'Unplayable entries',
  missing_source_uri: 'Tracks without links',
  playlist_read_failed: 'Not readable',
  historical_playlist_metadata_partial: 'Playlist details incomplete',
  historical_track_metadata_partial: 'Track details rebuilt',
};

/** A few words per warning code, for tables. */
export function warningLabel(code: string): string {
  return WARNING_LABELS[code] ?? code;
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

export function parseExportWarnings(value: unknown): ExportWarning[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).flatMap((warning) => {
    if (!isString(warning['code']) || warning['code'] === '') return [];
    return [
      {
        code: warning['code'],
        message: isString(warning['message']) && warning['message'].trim() !== '' ? warning['message'] : null,
        playlistId: isString(warning['playlist_id']) ? warning['playlist_id'] : null,
        count: isCount(warning['count']) ? warning['count'] : null,
      },
    ];
  });
}

export interface ManifestEntry {
  readonly playlistId: string;
  readonly name: string;
  /** The playlist's file in the archive; null for an entry whose playlist could not be read. */
  readonly file: string | null;
  /** `ok`, `warning` or `error` (export manifest v1). */
  readonly status: string;
  readonly trackCount: number;
  readonly warningCodes: readonly string[];
}

export interface ExportManifest {
  readonly format: string;
  readonly sourceProvider: string | null;
  readonly playlistCount: number;
  readonly entries: readonly ManifestEntry[];
  readonly warnings: readonly ExportWarning[];
}

/** An archive's `manifest.json` (export manifest v1); undefined when it is not one. */
export function parseExportManifest(body: unknown): ExportManifest | undefined {
  if (!isRecord(body) || body['schema_version'] !== 1 || !isString(body['format']) || !Array.isArray(body['entries'])) return undefined;
  const entries = body['entries'].filter(isRecord).map((entry) => ({
    playlistId: isString(entry['playlist_id']) ? entry['playlist_id'] : '',
    name: isString(entry['playlist_name']) ? entry['playlist_name'] : '',
    // An `error` entry's filename is "": the archive has no file for it.
    file: isString(entry['filename']) && entry['filename'] !== '' ? entry['filename'] : null,
    status: isString(entry['status']) ? entry['status'] : 'ok',
    trackCount: isCount(entry['track_count']) ? entry['track_count'] : 0,
    warningCodes: Array.isArray(entry['warning_codes']) ? entry['warning_codes'].filter(isString) : [],
  }));
  return {
    format: body['format'],
    sourceProvider: isString(body['source_provider']) ? body['source_provider'] : null,
    playlistCount: isCount(body['playlist_count']) ? body['playlist_count'] : entries.length,
    entries,
    warnings: parseExportWarnings(body['warnings']),
  };
}

/** The warnings of an Open Playlist JSON bundle (a single-playlist `json` export). */
export function parseBundleWarnings(body: unknown): ExportWarning[] | undefined {
  if (!isRecord(body) || body['schema_version'] !== 1 || !Array.isArray(body['playlists'])) return undefined;
  return parseExportWarnings(body['warnings']);
}

/** `partial_selection,empty_playlist` (a header listing codes) → the codes, once each. */
export function parseWarningCodes(header: string | null): string[] {
  if (!header) return [];
  return [...new Set(header.split(',').map((code) => code.trim()).filter((code) => /^[a-z0-9_]{1,100}$/.test(code)))];
}

/** An archive entry's result in words: its status, and for a warning the most telling one. */
export function entryResultLabel(entry: Pick<ManifestEntry, 'status' | 'trackCount'>): string {
  switch (entry.status) {
    case 'ok':
      return 'Exported';
    case 'warning':
      return entry.trackCount === 0 ? 'Exported, no tracks' : 'Exported, with warnings';
    case 'error':
      return 'Could not be read';
    default:
      return entry.status;
  }
}

/** `1536` → `1.5 KiB`; bytes below 1 KiB as bytes. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${rounded.toLocaleString('en')} ${units[unit]}`;
}

// --- refusals -------------------------------------------------------------------------------

/** What the page offers beside the words: reconnect on Connections, sign in, retry, or nothing. */
export type ExportAction =
  | { readonly kind: 'reconnect' }
  | { readonly kind: 'sign-in' }
  | { readonly kind: 'retry'; readonly afterSeconds: number | null }
  | { readonly kind: 'import-again' }
  | { readonly kind: 'none' };

export interface ExportFailure {
  readonly problem: Problem;
  readonly nextSteps: readonly string[];
  readonly action: ExportAction;
  /** The engine's `reason` for a 422 (`too_many_playlists`, `unknown_format`, …). */
  readonly reason: string | null;
}

export type ExportKind = 'live' | 'history';

function retryAfterSeconds(body: Record<string, unknown>, header: string | null): number | null {
  const fromBody = body['retry_after_s'];
  if (typeof fromBody === 'number' && Number.isFinite(fromBody) && fromBody >= 0) return Math.ceil(fromBody);
  if (header && /^\d+$/.test(header.trim())) return Number(header.trim());
  return null;
}

function seconds(value: number): string {
  if (value < 90) return `${value} ${value === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(value / 60);
  return `${minutes} minutes`;
}

/**
 * Puts a refused export into words with the next action. `body` is the problem document as
 * received (its extensions carry `reason`, `max_playlists`, `writable_formats`, `retry_after_s`,
 * `action`); `retryAfter` is the Retry-After header when there was one.
 */
export function describeExportFailure(kind: ExportKind, status: number, problem: Problem, body: unknown, retryAfter: string | null = null): ExportFailure {
  const extensions = isRecord(body) ? body : {};
  const reason = isString(extensions['reason']) ? extensions['reason'] : null;
  const action = isRecord(extensions['action']) ? extensions['action'] : {};
  const fail = (title: string | null, nextSteps: readonly string[], next: ExportAction = { kind: 'none' }): ExportFailure => ({
    problem: title ? { ...problem, title } : problem,
    nextSteps,
    action: next,
    reason,
  });

  if (status === 0) {
    const retry: ExportAction = { kind: 'retry', afterSeconds: null };
    if (problem.code === DOWNLOAD_TIMEOUT_CODE) return fail(null, ['Try again, or export fewer playlists at a time: each one is read from its service before the file is built.'], retry);
    if (problem.code === DOWNLOAD_INTERRUPTED_CODE) return fail(null, ['Try again. If it keeps happening, something between the browser and the engine (a proxy) may be cutting long downloads.'], retry);
    return fail(null, ['Check that the engine is running, then try again.'], retry);
  }

  if (problem.code === 'provider_auth_expired' || action['type'] === 'reconnect_account') {
    return fail('The music service no longer accepts this connection', ['Reconnect the account on Connections, then export again. Nothing was downloaded.'], { kind: 'reconnect' });
  }

  // The engine's reason names the cause whatever status it maps onto.
  switch (reason) {
    case 'playlist_not_found':
      return fail('The playlist was not found', ['It may have been deleted or made private on the service. Reload the playlists, choose again, then export.']);
    case 'playlist_access_denied':
      return fail('The service refused access to the playlist', ['Only playlists this account may read can be exported. Choose another playlist, or reconnect the account on Connections if its access changed.'], { kind: 'reconnect' });
    case 'all_playlists_failed':
      return fail('None of the playlists could be read', ['Nothing was downloaded. Reload the playlists (they may have been deleted or made private), choose again, then export.']);
    case 'no_playlist_portion':
      return fail('This migration has no playlists to export', ['It moved albums or artists only; download its report instead.']);
    case 'migration_not_finished':
      return fail('This migration has not ended yet', ['Only a completed or failed migration can be exported. Wait until it ends, then try again.']);
    case 'format_unavailable': {
      // Two causes: the format's plugin is not loaded now (the engine lists what it can write), or
      // its sandbox stopped while writing (`failure`), which a retry may get past.
      if (isString(extensions['failure'])) {
        return fail('The format plugin stopped while writing the file', ['Nothing was downloaded. Try again; if it keeps failing, choose another format, and an administrator can check the plugin on the Plugins page.'], {
          kind: 'retry',
          afterSeconds: null,
        });
      }
      const formats = Array.isArray(extensions['writable_formats']) ? extensions['writable_formats'].filter(isString) : [];
      return fail('This format is not available on this engine right now', [
        formats.length > 0 ? `Choose one of: ${formats.join(', ')}.` : 'No export format plugin is loaded at the moment.',
        'Its plugin was refused or quarantined; an administrator can see why on the Plugins page.',
      ]);
    }
    case 'temporary_storage_full': {
      const wait = retryAfterSeconds(extensions, retryAfter);
      return fail('The engine has no room to build the file', [
        `${wait !== null ? `Try again in ${seconds(wait)}` : 'Try again later'}, or export fewer playlists at a time: the engine builds the whole file before sending it. Nothing was downloaded.`,
        'If it keeps happening, the engine’s administrator needs to free space on its temporary filesystem (TMPDIR).',
      ], { kind: 'retry', afterSeconds: wait });
    }
    case 'temporary_storage_failed':
      return fail('The engine could not write the file', ['Try again; nothing was downloaded. If it keeps failing, the engine’s administrator needs to check its temporary filesystem (TMPDIR).'], {
        kind: 'retry',
        afterSeconds: retryAfterSeconds(extensions, retryAfter),
      });
    default:
      break;
  }

  if (status === 413) {
    return fail('The selection is too large to send', ['Tick whole playlists instead of thousands of their tracks, or split the tracks over several downloads.']);
  }

  if (status === 401) return fail(null, ['Sign in with the owner secret on Settings, then export again.'], { kind: 'sign-in' });
  if (status === 403) return fail(null, ['Check how you are signed in on Settings, or ask the administrator of this engine.'], { kind: 'sign-in' });

  if (status === 429) {
    const wait = retryAfterSeconds(extensions, retryAfter);
    const title = problem.code === 'provider_rate_limited' ? 'The music service asks to slow down' : 'Too many requests';
    return fail(title, [wait !== null ? `Try again in ${seconds(wait)}. The export stopped at once; nothing was downloaded.` : 'Try again in a few minutes. The export stopped at once; nothing was downloaded.'], { kind: 'retry', afterSeconds: wait });
  }

  if (status === 404) {
    if (kind === 'history') return fail('This migration was not found', ['Refresh History: the migration may have been deleted.']);
    return fail('The source was not found', ['The import may have been deleted, or the account disconnected. Refresh the page and choose the source again; imports are made on the Import page.'], { kind: 'import-again' });
  }

  if (status === 410) {
    if (kind === 'history') {
      return fail('The track details of this migration were deleted', [
        'The engine keeps the details of each migrated track for a limited time (OPL_MIGRATION_HISTORY_RETENTION_DAYS). The migration report’s summary is still available; export the playlists from the source account instead.',
      ]);
    }
    return fail('The import has expired', ['Import the file or link again on the Import page, then export it.'], { kind: 'import-again' });
  }

  if (status === 422 || status === 409) {
    if (reason === 'too_many_playlists') {
      const max = extensions['max_playlists'];
      const limit = isCount(max) ? `at most ${max.toLocaleString('en')} playlists` : 'fewer playlists';
      return fail('Too many playlists for one export', [`Select ${limit} and export the rest in another download. The administrator can raise OPL_EXPORT_MAX_PLAYLISTS.`]);
    }
    if (reason === 'unknown_format') {
      const formats = Array.isArray(extensions['writable_formats']) ? extensions['writable_formats'].filter(isString) : [];
      return fail('This engine cannot write that format', [formats.length > 0 ? `Choose one of: ${formats.join(', ')}.` : 'No export format plugin is loaded; an administrator can check the Plugins page.']);
    }
    if (reason === 'invalid_selection' || problem.code === 'invalid_selection') {
      return fail('The selection does not match the source any more', ['Reload the playlists (the source may have changed), select again, then export.']);
    }
    if (reason === 'write_failed') return fail('The file could not be written', ['Try another format; if it keeps failing, an administrator can check the format plugins on the Plugins page.']);
    if (reason === 'unsupported_source') return fail('This source cannot be exported', ['Choose a connected account or an import as the source.']);
    return fail(null, ['Change what the message names, then export again.']);
  }

  if (status === 400) return fail(null, ['Correct what the message names, then try again.']);
  if (status === 502 || status === 503 || status === 504) {
    const wait = retryAfterSeconds(extensions, retryAfter);
    return fail(null, [`The music service or the engine is not available right now. ${wait !== null ? `Try again in ${seconds(wait)}.` : 'Try again later.'}`], { kind: 'retry', afterSeconds: wait });
  }
  if (status >= 500) return fail(null, ['Try again later. If it keeps failing, the engine’s log says why.'], { kind: 'retry', afterSeconds: null });
  return fail(null, []);
}
