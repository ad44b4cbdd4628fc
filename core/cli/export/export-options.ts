import { engineUrlOption, parseCommandLine, UUID } from '../engine-command/index.ts';

/**
 * The command line of `opl export`, parsed into a live export (from an account or an import record)
 * or a history export (from a finished migration). Usage errors are thrown as ExportUsageError
 * (exit 64, as for `opl migrate`) with a sentence saying what to type instead.
 */

export const EXPORT_FORMATS = ['csv', 'txt', 'm3u8', 'xspf', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_USAGE = `Usage:
  opl export --source <provider>:<account-id> | --source <account-id> | --source import:<import-id>
             [--playlist <id>]… [--tracks <playlist-id>=<track-id>,<track-id>,…]…
             --format csv|txt|m3u8|xspf|json [-o <file> | -o <dir>/] [--force] [--url <engine-url>]
  opl export --migration <job-id> --format csv|txt|m3u8|xspf|json [-o <file> | -o <dir>/] [--force] [--url <engine-url>]

Downloads playlists from a running engine as a file: one playlist gives the file itself, several
a ZIP archive with one file per playlist and manifest.json. Without --playlist, every playlist
of the source (liked songs: --playlist liked; an import's playlists: their id or index 0, 1, …).
--tracks keeps only those tracks of a playlist (track id, entry id, or pos:<n>).
  -o <file>   write there (an archive's name must end in .zip, a single file's must not);
  -o <dir>    write into the directory under the engine's file name
  (no -o)     write into the current directory under the engine's file name
  --force     replace an existing file (otherwise an existing file is never overwritten)

Talks to the engine over HTTP (default http://OPL_HOST:OPL_PORT; OPL_OWNER_SECRET logs in when
the instance has the owner-session gate on, and the command logs out when it ends).

Exit codes: 0 written (warnings are printed), 1 refused or failed (nothing is left behind),
64 usage error, 130 interrupted.
`;

export class ExportUsageError extends Error {}

const PROVIDER_KEY = /^[a-z][a-z0-9_]{1,39}$/;

export type ExportSource =
  | { kind: 'import'; importId: string }
  | { kind: 'account'; provider: string | null; accountId: string };

interface Common {
  url: string | null;
  format: ExportFormat;
  out: string | null;
  force: boolean;
}

export type ExportOptions = Common &
  (
    | { mode: 'live'; source: ExportSource; playlistIds: string[]; tracks: Record<string, string[]> }
    | { mode: 'migration'; jobId: string }
  );

export function parseSource(value: string): ExportSource {
  if (value.startsWith('import:')) {
    const importId = value.slice('import:'.length);
    if (!UUID.test(importId)) throw new ExportUsageError(`--source import:<import-id> takes the import's id (a UUID), not ${JSON.stringify(importId)}.`);
    return { kind: 'import', importId };
  }
  if (UUID.test(value)) return { kind: 'account', provider: null, accountId: value };
  const colon = value.indexOf(':');
  const provider = value.slice(0, colon);
  const accountId = value.slice(colon + 1);
  if (colon < 0 || !PROVIDER_KEY.test(provider) || !UUID.test(accountId)) {
    throw new ExportUsageError(`--source takes <provider>:<account-id> (e.g. spotify:<uuid>), a connected account id, or import:<import-id>; not ${JSON.stringify(value)}.`);
  }
  return { kind: 'account', provider, accountId };
}

/** `--tracks <playlist>=<id>,<id>`: the playlist id may itself contain `=` only before the last one. */
function parseTracks(values: readonly string[]): Record<string, string[]> {
  // No prototype: a playlist id such as `constructor` or `__proto__` is a key like any other.
  const tracks: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const value of values) {
    const equals = value.lastIndexOf('=');
    const playlist = value.slice(0, equals).trim();
    const ids = value
      .slice(equals + 1)
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '');
    if (equals <= 0 || playlist === '' || ids.length === 0) throw new ExportUsageError(`--tracks takes <playlist-id>=<track-id>,<track-id>,…; not ${JSON.stringify(value)}.`);
    tracks[playlist] = [...(tracks[playlist] ?? []), ...ids];
  }
  return tracks;
}

export function parseExportOptions(args: readonly string[]): ExportOptions {
  const usageError = (message: string) => new ExportUsageError(message);
  const values = parseCommandLine(
    args,
    {
      url: { type: 'string' },
      source: { type: 'string' },
      migration: { type: 'string' },
      playlist: { type: 'string', multiple: true },
      tracks: { type: 'string', multiple: true },
      format: { type: 'string', short: 'f' },
      out: { type: 'string', short: 'o' },
      force: { type: 'boolean' },
    },
    usageError,
  );
  if (!values.format) throw new ExportUsageError(`--format is required: one of ${EXPORT_FORMATS.join(', ')}.`);
  if (!(EXPORT_FORMATS as readonly string[]).includes(values.format)) throw new ExportUsageError(`--format takes one of ${EXPORT_FORMATS.join(', ')}; not ${JSON.stringify(values.format)}.`);
  const common: Common = { url: engineUrlOption(values.url, usageError), format: values.format as ExportFormat, out: values.out ?? null, force: values.force ?? false };
  if (values.migration !== undefined) {
    if (values.source !== undefined || values.playlist || values.tracks) throw new ExportUsageError('--migration exports a finished migration as it was; it takes no --source, --playlist or --tracks.');
    if (!UUID.test(values.migration)) throw new ExportUsageError(`--migration takes a migration id (a UUID, see \`opl migrate --list\`), not ${JSON.stringify(values.migration)}.`);
    return { ...common, mode: 'migration', jobId: values.migration };
  }
  if (values.source === undefined) throw new ExportUsageError('Say what to export: --source <provider>:<account-id>, --source import:<import-id>, or --migration <job-id>.');
  return { ...common, mode: 'live', source: parseSource(values.source), playlistIds: [...new Set(values.playlist ?? [])], tracks: parseTracks(values.tracks ?? []) };
}
