import { findExcessiveNesting, formatKit, type PlaylistInput } from '@opl/plugin-sdk';
import { BUNDLE_SCHEMA_VERSION, MAX_NESTING_DEPTH } from './bundle-constants.ts';
import { isRecord } from './model-fields.ts';
import { ModelReader } from './model-reader.ts';
import { findSyntaxError } from './syntax-locator.ts';
import { lineColumn } from './text-position.ts';

export interface ParsedBundle {
  readonly playlists: PlaylistInput[];
  readonly issues: formatKit.ParseIssue[];
  /** The bundle's `source_provider`, when it names one: a converter writes it back (bundle → bundle keeps it). */
  readonly source_provider?: string;
}

/** A provider key as bundles write them (`spotify`, `import`). */
const PROVIDER_KEY = /^[a-z][a-z0-9_]{0,39}$/;

/** The bundle's `source_provider`: a provider key, or null (absent, null, or not a key: that one is said). */
function bundleSourceProvider(value: unknown, issues: formatKit.IssueCollector): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' && PROVIDER_KEY.test(value)) return value;
  issues.add(null, 'invalid_value', `/source_provider: ${(JSON.stringify(value) ?? typeof value).slice(0, 60)} is not a provider key (such as "spotify"); it was left out`, 'warning');
  return null;
}

/** `…/open-playlist-bundle-v2.json` → 2; null when `$schema` names no bundle version. */
function schemaUriVersion(uri: unknown): number | null {
  if (typeof uri !== 'string') return null;
  const match = /open-playlist-bundle-v(\d{1,6})\.json$/.exec(uri);
  return match ? Number(match[1]) : null;
}

function refused(issues: formatKit.IssueCollector, code: string, message: string, line: number | null = null, column: number | null = null): ParsedBundle {
  issues.add(line, code, message, 'error', column);
  return { playlists: [], issues: issues.issues() };
}

/** JSON.parse's complaint, placed by our own locator; V8's quote of the input is left out. */
function syntaxProblem(text: string, error: unknown): { message: string; line: number | null; column: number | null } {
  const raw = error instanceof Error ? error.message : String(error);
  const reason = raw.replace(/,? (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '').replace(/ in JSON at position \d+.*$/s, '').replace(/\p{Cc}/gu, '?').slice(0, 200);
  const at = findSyntaxError(text);
  if (at === -1) return { message: `the file is not valid JSON: ${reason}`, line: null, column: null };
  const { line, column } = lineColumn(text, at);
  return { message: `the file is not valid JSON at line ${line}, column ${column}: ${reason}`, line, column };
}

/**
 * JSON text → playlists. Accepts an Open Playlist bundle (schema_version 1 only), and leniently
 * a bare array of playlists or one playlist object. Nesting is checked before parsing, so a
 * JSON bomb is refused with its position instead of exhausting the sandbox.
 */
export function parseBundle(text: string): ParsedBundle {
  const issues = new formatKit.IssueCollector();
  if (!/\S/.test(text)) return refused(issues, 'invalid_json', 'the file is empty');
  const tooDeep = findExcessiveNesting(text, MAX_NESTING_DEPTH);
  if (tooDeep !== -1) {
    const { line, column } = lineColumn(text, tooDeep);
    return refused(issues, 'too_deeply_nested', `the JSON nests more than ${MAX_NESTING_DEPTH} levels deep (at line ${line}, column ${column}); a playlist bundle needs far fewer, so the file was refused`, line, column);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    const { message, line, column } = syntaxProblem(text, error);
    return refused(issues, 'invalid_json', message, line, column);
  }

  let rawPlaylists: unknown[];
  let sourceProvider: string | null = null;
  /** JSON Pointer of the playlists array; null when the document is one playlist (its pointer is the root). */
  let base: string | null;
  /** A plain export (no schema_version, no $schema): its generic track fields are read too. */
  let generic = true;
  if (Array.isArray(document)) {
    rawPlaylists = document;
    base = '';
  } else if (isRecord(document) && (Object.hasOwn(document, 'schema_version') || Object.hasOwn(document, 'playlists') || Object.hasOwn(document, '$schema'))) {
    if (typeof document.$schema === 'string' && document.$schema.includes('export-manifest')) {
      return refused(issues, 'not_a_playlist_bundle', 'this is the manifest.json of an export archive, not a bundle: import open-playlist-bundle.json from the archive instead');
    }
    const declared = Object.hasOwn(document, 'schema_version');
    const version = declared ? document.schema_version : schemaUriVersion(document.$schema);
    if ((declared || version !== null) && version !== BUNDLE_SCHEMA_VERSION) {
      const shown = JSON.stringify(version)?.slice(0, 40) ?? typeof version;
      return refused(issues, 'unsupported_schema_version', `unsupported schema_version ${shown}: this reader understands Open Playlist bundle schema_version ${BUNDLE_SCHEMA_VERSION} only`);
    }
    generic = !declared && version === null;
    if (generic) issues.add(null, 'missing_schema_version', `the bundle has no schema_version; it was read as version ${BUNDLE_SCHEMA_VERSION}`, 'warning');
    if (!Array.isArray(document.playlists)) return refused(issues, 'invalid_bundle', '/playlists: must be an array of playlists');
    rawPlaylists = document.playlists;
    base = '/playlists';
    sourceProvider = bundleSourceProvider(document.source_provider, issues);
    if (Array.isArray(document.warnings)) {
      for (const warning of document.warnings) {
        if (!isRecord(warning) || typeof warning.code !== 'string') continue;
        const about = typeof warning.playlist_id === 'string' ? ` (playlist ${warning.playlist_id.slice(0, 200)})` : '';
        const detail = typeof warning.message === 'string' ? `: ${warning.message}` : '';
        issues.add(null, 'export_warning', `the export recorded ${warning.code.slice(0, 100)}${about}${detail}`, 'warning');
      }
    }
  } else if (isRecord(document) && isRecord(document.playlist) && !Object.hasOwn(document, 'name')) {
    // JSPF (`{"playlist": {"title", "track": […]}}`) is often saved as .json (ListenBrainz's API
    // answers with it): read as a playlist of ours it would only say "name is required".
    return refused(issues, 'not_a_playlist_bundle', 'this is a JSPF playlist (XSPF written as JSON), not an Open Playlist bundle: read it with the XSPF / JSPF format (name the file .jspf, or choose the format xspf)');
  } else if (isRecord(document)) {
    rawPlaylists = [document];
    base = null;
  } else {
    return refused(issues, 'not_a_playlist_bundle', 'the JSON is neither an Open Playlist bundle, an array of playlists nor a playlist object');
  }

  const reader = new ModelReader(issues, { generic });
  const playlists: PlaylistInput[] = [];
  for (const [index, raw] of rawPlaylists.entries()) {
    if (playlists.length >= formatKit.LIMITS.playlists) {
      issues.add(null, 'too_many_playlists', `the file has ${rawPlaylists.length} playlists; only the first ${formatKit.LIMITS.playlists} valid ones were read`);
      break;
    }
    const playlist = reader.playlist(raw, base === null ? '' : `${base}/${index}`);
    if (playlist !== null) playlists.push(playlist);
  }
  return { playlists, issues: issues.issues(), ...(sourceProvider === null ? {} : { source_provider: sourceProvider }) };
}
