/**
 * The import endpoints (`/api/imports/*`): a preview of a file, pasted text or a link, parsed into
 * camelCase, plus the words the Import page uses for durations, issues and refusals. Pure: no I/O.
 */

import type { Problem } from './problem.ts';
import { isRecord, isString, listOf, nullableString } from './answer-parsing.ts';

export const FILE_PREVIEW_PATH = '/api/imports/preview';
export const TEXT_PREVIEW_PATH = '/api/imports/text-preview';
export const URL_PREVIEW_PATH = '/api/imports/url-preview';

export function importPath(id: string): string {
  return `/api/imports/${encodeURIComponent(id)}`;
}

/** The headers of a raw file upload: the name percent-encoded, so any Unicode name survives. */
export function uploadHeaders(fileName: string, mediaType: string): Record<string, string> {
  return { 'x-filename': encodeURIComponent(fileName), 'content-type': mediaType || 'application/octet-stream' };
}

export type ImportSource = 'file' | 'text' | 'url';

export interface ImportIssue {
  readonly line: number | null;
  readonly column: number | null;
  readonly code: string;
  readonly message: string;
  /** `error`: the row was skipped; `warning`: it was kept. Unknown severities count as warnings. */
  readonly severity: string;
}

export interface PreviewTrack {
  readonly title: string;
  readonly artist: string;
  readonly album: string | null;
  readonly durationS: number | null;
  readonly isrc: string | null;
  /** The link the entry names the song by (a provider URI, else a web link the file kept), or null. */
  readonly link: string | null;
}

/** The first provider URI (keys in code-unit order), else the web link a file kept (`source_uri`, `location`). */
function linkOf(value: Record<string, unknown>): string | null {
  const uris = value['provider_uris'];
  if (isRecord(uris)) {
    for (const key of Object.keys(uris).sort()) {
      const uri = uris[key];
      if (isString(uri) && uri !== '') return uri;
    }
  }
  const metadata = value['metadata'];
  if (!isRecord(metadata)) return null;
  for (const key of ['source_uri', 'location']) {
    const kept = metadata[key];
    if (isString(kept) && /^https?:\/\//i.test(kept)) return kept;
  }
  return null;
}

export interface PreviewPlaylist {
  /**
   * The playlist's collection id: what shares, exports and migrations name it by. The engine's
   * `collection_ids` (unique within the import), never recomputed here.
   */
  readonly key: string;
  readonly name: string;
  readonly description: string | null;
  readonly trackCount: number;
  /** The first tracks only (the engine sends up to 25). */
  readonly tracks: readonly PreviewTrack[];
}

export interface ImportPreview {
  readonly id: string;
  readonly kind: string;
  readonly name: string | null;
  readonly format: string | null;
  readonly state: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly playlistCount: number;
  readonly trackCount: number;
  readonly playlists: readonly PreviewPlaylist[];
  readonly issues: readonly ImportIssue[];
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const nullableNumber = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const nullableInt = (value: unknown): number | null | undefined =>
  value === undefined || value === null ? null : typeof value === 'number' && Number.isInteger(value) ? value : undefined;

export function parseIssue(value: unknown): ImportIssue | undefined {
  if (!isRecord(value)) return undefined;
  const { code, message, severity } = value;
  const line = nullableInt(value['line']);
  const column = nullableInt(value['column']);
  if (!isString(code) || !isString(message) || !isString(severity) || line === undefined || column === undefined) return undefined;
  return { line, column, code, message, severity };
}

function parseTrack(value: unknown): PreviewTrack | undefined {
  if (!isRecord(value)) return undefined;
  const { title, artist } = value;
  const album = nullableString(value['album']);
  const isrc = nullableString(value['isrc']);
  if (!isString(title) || !isString(artist) || album === undefined || isrc === undefined) return undefined;
  return { title, artist, album, durationS: nullableNumber(value['duration_s']), isrc, link: linkOf(value) };
}

function parsePlaylist(value: unknown, key: string): PreviewPlaylist | undefined {
  if (!isRecord(value)) return undefined;
  const { name } = value;
  const description = nullableString(value['description']);
  const tracks = listOf(value['tracks'], parseTrack);
  if (!isString(name) || description === undefined || !tracks) return undefined;
  const trackCount = isCount(value['track_count']) ? value['track_count'] : tracks.length;
  return { key, name, description, trackCount, tracks };
}

/**
 * An import's `collection_ids`: one string per playlist, in the order of `playlists`. Undefined
 * when it is missing, not all strings, or of another length than the playlists.
 */
export function parseCollectionIds(value: unknown, playlistCount: number): string[] | undefined {
  const ids = listOf(value, (item) => (isString(item) ? item : undefined));
  return ids && ids.length === playlistCount ? ids : undefined;
}

/** Returns undefined when the body does not have the documented ImportPreview shape. */
export function parseImportPreview(body: unknown): ImportPreview | undefined {
  if (!isRecord(body)) return undefined;
  const { id, kind, state, created_at: createdAt, expires_at: expiresAt, playlist_count: playlistCount, track_count: trackCount } = body;
  const name = nullableString(body['name']);
  const format = nullableString(body['format']);
  const rawPlaylists = body['playlists'];
  const collectionIds = parseCollectionIds(body['collection_ids'], Array.isArray(rawPlaylists) ? rawPlaylists.length : 0);
  const playlists = collectionIds ? listOf(rawPlaylists, (item, index) => parsePlaylist(item, collectionIds[index]!)) : undefined;
  const issues = listOf(body['issues'], parseIssue);
  if (!isString(id) || !isString(kind) || !isString(state) || !isString(createdAt) || !isString(expiresAt)) return undefined;
  if (!isCount(playlistCount) || !isCount(trackCount) || name === undefined || format === undefined || !playlists || !issues) return undefined;
  return { id, kind, name, format, state, createdAt, expiresAt, playlistCount, trackCount, playlists, issues };
}

/** `215` → `3:35`, `3725` → `1:02:05`; an unknown or impossible duration is an empty string. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '';
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${secs}` : `${minutes}:${secs}`;
}

export interface IssueGroups {
  readonly errors: readonly ImportIssue[];
  readonly warnings: readonly ImportIssue[];
}

function byPosition(a: ImportIssue, b: ImportIssue): number {
  // Issues without a line (about the whole file) come first: they explain the rest.
  const lineA = a.line ?? -1;
  const lineB = b.line ?? -1;
  if (lineA !== lineB) return lineA - lineB;
  return (a.column ?? -1) - (b.column ?? -1);
}

/** Errors (rows that were skipped) apart from warnings (rows kept), each in line order. */
export function groupIssues(issues: readonly ImportIssue[]): IssueGroups {
  const errors = issues.filter((issue) => issue.severity === 'error').sort(byPosition);
  const warnings = issues.filter((issue) => issue.severity !== 'error').sort(byPosition);
  return { errors, warnings };
}

/** `Line 4, column 2`, `Line 4`, or `Whole file` for an issue without a line. */
export function issueLocation(issue: ImportIssue): string {
  if (issue.line === null) return 'Whole file';
  return issue.column === null ? `Line ${issue.line}` : `Line ${issue.line}, column ${issue.column}`;
}

const FORMAT_LABELS: Readonly<Record<string, string>> = {
  csv: 'CSV',
  txt: 'TXT',
  m3u: 'M3U',
  m3u8: 'M3U8',
  pls: 'PLS',
  wpl: 'WPL',
  xspf: 'XSPF',
  jspf: 'JSPF',
  xml: 'XML',
  'itunes-library': 'iTunes / Apple Music library',
  json: 'Open Playlist JSON',
};

export function formatLabel(format: string | null): string {
  if (format === null || format === '') return 'Unknown';
  // Short names are file formats (`wpl` → WPL); longer ones are providers a link was read through (`spotify` → Spotify).
  return FORMAT_LABELS[format.toLowerCase()] ?? (format.length <= 4 ? format.toUpperCase() : `${format.charAt(0).toUpperCase()}${format.slice(1)}`);
}

export function sourceLabel(kind: string): string {
  if (kind === 'file') return 'Uploaded file';
  if (kind === 'text') return 'Pasted text';
  if (kind === 'url') return 'Link';
  return kind;
}

/** `10485760` → `10 MiB`, `1572864` → `1.5 MiB`. */
export function formatMiB(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  const rounded = mib >= 10 ? Math.round(mib) : Math.round(mib * 10) / 10;
  return `${rounded.toLocaleString('en')} MiB`;
}

/** The provider a URL preview asks to connect before its playlist can be read. */
export interface ConnectAction {
  readonly provider: string;
  readonly displayName: string;
}

/** A refused preview in words: the problem, what to do next, and the details that help. */
export interface ImportFailure {
  readonly problem: Problem;
  readonly nextSteps: readonly string[];
  readonly connect?: ConnectAction;
  /** A connected account that must be reconnected before it can read the link. */
  readonly reconnect?: ConnectAction & { readonly accountId: string | null };
  readonly issues?: IssueGroups;
  readonly readableFormats?: readonly string[];
  /** Why a URL was refused (`host_not_allowed`, `destination_not_public`, …). */
  readonly reason?: string;
}

function reconnectAction(body: Record<string, unknown>): (ConnectAction & { accountId: string | null }) | undefined {
  const action = body['action'];
  if (!isRecord(action) || action['type'] !== 'reconnect_account' || !isString(action['provider'])) return undefined;
  const displayName = isString(action['display_name']) && action['display_name'] !== '' ? action['display_name'] : action['provider'];
  return { provider: action['provider'], displayName, accountId: isString(action['account_id']) ? action['account_id'] : null };
}

function connectAction(body: Record<string, unknown>): ConnectAction | undefined {
  const action = body['action'];
  if (!isRecord(action) || action['type'] !== 'connect_source_account' || !isString(action['provider'])) return undefined;
  const displayName = isString(action['display_name']) && action['display_name'] !== '' ? action['display_name'] : action['provider'];
  return { provider: action['provider'], displayName };
}

const URL_REASON_STEPS: Readonly<Record<string, string>> = {
  host_not_allowed: 'Links are read only from hosts the administrator allows (OPL_IMPORT_URL_ALLOWED_HOSTS). Ask them to add this host, or download the playlist and upload the file.',
  url_not_allowed: 'Links are read only from hosts the administrator allows (OPL_IMPORT_URL_ALLOWED_HOSTS). Ask them to add this host, or download the playlist and upload the file.',
  destination_not_public: 'The link points to a private or local address, which the engine never fetches. Download the playlist and upload the file instead.',
};

/**
 * Puts a refused preview into words with next steps. `body` is the problem document as received
 * (its extensions carry `max_bytes`, `readable_formats`, `issues`, `action`, `reason`).
 */
export function describeImportFailure(source: ImportSource, status: number, problem: Problem, body: unknown): ImportFailure {
  const extensions = isRecord(body) ? body : {};
  const thing = source === 'file' ? 'file' : source === 'text' ? 'text' : 'linked playlist';
  const serverDetail = problem.detail;

  if (status === 413) {
    const maxBytes = extensions['max_bytes'];
    const maxChars = extensions['max_chars'];
    let limit: string;
    if (isCount(maxBytes)) limit = `Imports accept at most ${formatMiB(maxBytes)}.`;
    else if (isCount(maxChars)) limit = `Pasted text may have at most ${maxChars.toLocaleString('en')} characters.`;
    else limit = 'It is larger than this engine accepts.';
    const steps =
      source === 'text'
        ? ['Paste a shorter list, or save it as a file and split it into smaller files.']
        : ['Split the playlist into smaller files and import them one by one.', 'Or ask the administrator to raise OPL_IMPORT_MAX_BYTES.'];
    return { problem: { ...problem, title: `The ${thing} is too large`, detail: limit }, nextSteps: steps };
  }

  if (status === 415) {
    const formats = Array.isArray(extensions['readable_formats']) ? extensions['readable_formats'].filter(isString) : [];
    const detail =
      formats.length > 0
        ? `This engine reads ${formats.map(formatLabel).join(', ')}.`
        : (serverDetail ?? 'No format plugin of this engine reads it.');
    const steps =
      formats.length > 0
        ? ['Save or export the playlist in one of these formats, then import it again.']
        : ['Check the format plugins on the Plugins page (run `opl plugin setup` on the server if none are loaded).'];
    const failure: ImportFailure = { problem: { ...problem, title: `This ${thing === 'linked playlist' ? 'playlist' : thing} cannot be read`, detail }, nextSteps: steps };
    return formats.length > 0 ? { ...failure, readableFormats: formats } : failure;
  }

  if (status === 422) {
    const connect = connectAction(extensions);
    if (connect) {
      return {
        problem: { ...problem, title: `Connect a ${connect.displayName} account first` },
        nextSteps: [`Connect the ${connect.displayName} account that can see this playlist on Connections, then paste the link here again.`],
        connect,
      };
    }
    const reason = isString(extensions['reason']) ? extensions['reason'] : undefined;
    if (source === 'url' && reason) {
      return {
        problem: { ...problem, title: 'This link cannot be imported' },
        nextSteps: [URL_REASON_STEPS[reason] ?? 'Check the link, or download the playlist and upload the file instead.'],
        reason,
      };
    }
    const issues = listOf(extensions['issues'], parseIssue);
    if (issues && issues.length > 0) {
      return {
        problem: { ...problem, title: `Nothing could be read from this ${thing}` },
        nextSteps: ['Fix what the issues above name, then import it again.'],
        issues: groupIssues(issues),
      };
    }
    const steps = isCount(extensions['max_playlists']) || isCount(extensions['max_tracks'])
      ? ['Split the import into smaller parts, or ask the administrator to raise the limit named above.']
      : ['Check that the content is a playlist, then import it again.'];
    return { problem: { ...problem, title: `This ${thing} cannot be imported` }, nextSteps: steps };
  }

  if (status === 409) {
    const reconnect = reconnectAction(extensions);
    if (reconnect) {
      return {
        problem: { ...problem, title: `Reconnect your ${reconnect.displayName} account` },
        nextSteps: [`Reconnect the ${reconnect.displayName} account on Connections, then paste the link here again.`],
        reconnect,
      };
    }
  }

  if (status === 429) {
    const wait = extensions['retry_after_s'];
    return {
      problem: { ...problem, title: 'The provider asks to slow down' },
      nextSteps: [isCount(wait) ? `Try again in ${wait.toLocaleString('en')} seconds.` : 'Try again in a minute.'],
    };
  }

  if (status === 404 && source === 'url') {
    return {
      problem: { ...problem, title: 'This shared playlist is not available' },
      nextSteps: ['The share was revoked, has expired, or the link is mistyped. Ask the person who shared it for a new link.'],
    };
  }

  if (status === 502 || status === 504) {
    return {
      problem: { ...problem, title: 'The remote server did not deliver the playlist' },
      nextSteps: ['Try again later. If it keeps failing, download the playlist and upload the file instead.'],
    };
  }

  if (status === 0) return { problem, nextSteps: ['Check that the engine is running, then try again.'] };
  if (status === 400) return { problem, nextSteps: ['Correct what the message names, then try again.'] };
  // 401/403 get the sign-in hint from the page; anything else: the problem's own words.
  return { problem, nextSteps: status >= 500 ? ['Try again later.'] : [] };
}
