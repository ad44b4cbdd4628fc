import { engineUrlOption, parseCommandLine, UUID } from '../engine-command/index.ts';

/**
 * The command line of `opl migrate`, parsed into one of its modes. Usage errors are thrown as
 * UsageError (exit 64) with a sentence saying what to type instead.
 */

export const MIGRATE_USAGE = `Usage:
  opl migrate --from <account-id | import:<import-id>> --to <account-id>
              [--playlist <id>]… [--liked] [--tracks [<playlist-id>=]pos:0,pos:3,…]…
              [--album <id>]… [--artist <id>]… [--strictness exact_release|same_recording|best_effort]
              [--yes] [--interactive] [--url <engine-url>]
  opl migrate --follow <job-id>      follow a running migration (and review it in a terminal)
  opl migrate --list [--limit N]     migration history, newest first
  opl migrate --report <job-id> [--format csv|json] [--problems] [--out <file>]

Talks to a running engine over its HTTP API (default http://OPL_HOST:OPL_PORT; OPL_OWNER_SECRET
logs in when the instance has the owner-session gate on, and the command logs out when it ends).
Database migrations: \`opl db migrate\`.

Exit codes: 0 completed (songs you skipped in review count as done), 2 partial, 1 failed (or
refused, or the engine answered an error),
3 not finished (waiting for review or paused: follow it later), 64 usage error,
130 interrupted (a started migration goes on in the engine).
`;

export class UsageError extends Error {}

const STRICTNESS = ['exact_release', 'same_recording', 'best_effort'] as const;
export type Strictness = (typeof STRICTNESS)[number];

export interface StartOptions {
  mode: 'start';
  from: { provider: 'import' | null; id: string };
  to: string;
  selection: { playlist_ids: string[]; tracks: Record<string, string[]>; saved_album_ids: string[]; followed_artist_ids: string[] };
  strictness: Strictness | null;
  yes: boolean;
}

export type MigrateOptions = { url: string | null; interactive: boolean } & (
  | StartOptions
  | { mode: 'follow'; jobId: string }
  | { mode: 'list'; limit: number }
  | { mode: 'report'; jobId: string; format: 'csv' | 'json'; problems: boolean; out: string | null }
);

/** Flags of the old `opl migrate` (database migrations) and their look-alikes. */
const DATABASE_FLAGS = new Set(['--db', '--database', '--database-url', '--schema', '--check', '--dry-run']);

function jobIdOf(value: string, flag: string): string {
  if (!UUID.test(value)) throw new UsageError(`${flag} takes a migration id (a UUID, see \`opl migrate --list\`), not ${JSON.stringify(value)}.`);
  return value;
}

export function parseMigrateOptions(args: readonly string[]): MigrateOptions {
  const old = args.find((arg) => DATABASE_FLAGS.has(arg.split('=')[0]!));
  if (old) throw new UsageError(`\`opl migrate\` now migrates playlists between services; ${old} belongs to database migrations, which moved to \`opl db migrate\`.`);
  if (args.length === 0) throw new UsageError('`opl migrate` migrates playlists between services and needs --from and --to (or --list, --report, --follow). To apply database migrations, run `opl db migrate`.');
  const usageError = (message: string) => new UsageError(message);
  const values = parseCommandLine(
    args,
    {
      url: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      playlist: { type: 'string', multiple: true },
      liked: { type: 'boolean' },
      tracks: { type: 'string', multiple: true },
      album: { type: 'string', multiple: true },
      artist: { type: 'string', multiple: true },
      strictness: { type: 'string' },
      yes: { type: 'boolean', short: 'y' },
      interactive: { type: 'boolean' },
      follow: { type: 'string' },
      list: { type: 'boolean' },
      limit: { type: 'string' },
      report: { type: 'string' },
      format: { type: 'string' },
      problems: { type: 'boolean' },
      out: { type: 'string', short: 'o' },
    },
    usageError,
  );
  const common = { url: engineUrlOption(values.url, usageError), interactive: values.interactive === true };
  const modes = [values.list, values.report, values.follow, values.from ?? values.to].filter((value) => value !== undefined && value !== false);
  if (modes.length > 1) throw new UsageError('Choose one of: a new migration (--from/--to), --follow, --list or --report.');

  if (values.list) {
    const limit = values.limit === undefined ? 20 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new UsageError('--limit takes a whole number from 1 to 200.');
    return { ...common, mode: 'list', limit };
  }
  if (values.report !== undefined) {
    const format = values.format ?? 'csv';
    if (format !== 'csv' && format !== 'json') throw new UsageError('--format is csv or json.');
    return { ...common, mode: 'report', jobId: jobIdOf(values.report, '--report'), format, problems: values.problems === true, out: values.out ?? null };
  }
  if (values.follow !== undefined) return { ...common, mode: 'follow', jobId: jobIdOf(values.follow, '--follow') };

  if (!values.from || !values.to) throw new UsageError('A migration needs both --from (a connected account id, or import:<id>) and --to (a connected account id); see `opl migrate --help`.');
  const from = values.from.startsWith('import:') ? { provider: 'import' as const, id: values.from.slice('import:'.length) } : { provider: null, id: values.from };
  if (from.id === '') throw new UsageError('--from import: needs the import id after the colon.');
  if (!UUID.test(values.to)) throw new UsageError(`--to takes the id of a connected account (a UUID; GET /api/auth/accounts lists them), not ${JSON.stringify(values.to)}.`);
  const strictness = values.strictness ?? null;
  if (strictness !== null && !STRICTNESS.includes(strictness as Strictness)) throw new UsageError(`--strictness is one of ${STRICTNESS.join(', ')}.`);

  const playlists = [...(values.playlist ?? []), ...(values.liked ? ['liked'] : [])];
  // No prototype: a collection id such as `constructor` or `__proto__` is a key like any other.
  const tracks: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const spec of values.tracks ?? []) {
    const cut = spec.indexOf('=');
    const keys = (cut >= 0 ? spec.slice(cut + 1) : spec).split(',').map((key) => key.trim()).filter(Boolean);
    let collection = cut >= 0 ? spec.slice(0, cut) : null;
    if (collection === null) {
      // Without a playlist id the tracks belong to the only collection named on the line.
      if (playlists.length !== 1) throw new UsageError('--tracks without <playlist-id>= needs exactly one --playlist (or --liked); otherwise write --tracks <playlist-id>=pos:0,pos:3.');
      collection = playlists[0]!;
    }
    if (keys.length === 0) throw new UsageError(`--tracks ${JSON.stringify(spec)} names no track (pos:<n>, an entry id or a track id).`);
    tracks[collection] = [...(tracks[collection] ?? []), ...keys];
  }
  const selection = {
    // A collection narrowed by --tracks is selected through `tracks` only, not as a whole.
    playlist_ids: playlists.filter((id) => !(id in tracks)),
    tracks,
    saved_album_ids: values.album ?? [],
    followed_artist_ids: values.artist ?? [],
  };
  if (selection.playlist_ids.length + Object.keys(tracks).length + selection.saved_album_ids.length + selection.followed_artist_ids.length === 0) {
    throw new UsageError('Select something to migrate: --playlist <id>, --liked, --tracks, --album or --artist.');
  }
  return { ...common, mode: 'start', from, to: values.to, selection, strictness: strictness as Strictness | null, yes: values.yes === true };
}
