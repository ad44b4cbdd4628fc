import { engineUrlOption, parseCommandLine, UUID } from '../engine-command/index.ts';

/** `opl organize` command lines: one subcommand, then its flags. Every mistake is a usage error (exit 64). */

export const ORGANIZE_USAGE = `usage: opl organize <duplicates|preflight|run|status|retry|undo> [options] [--url <engine>]

  opl organize duplicates --account <id> [--playlist <id> [--levels same_id,same_isrc,same_recording] [--keep first|last]]
      read-only: same-named playlist pairs with ≥ 50% overlap, or (with --playlist) repeated entries
  opl organize preflight --account <id> --action unfollow_playlist|delete_playlist --playlist <id> [--playlist <id> …]
  opl organize preflight --account <id> --action remove_tracks --playlist <id> --entry <position>:<uri> [--entry …]
      what a job would do, with its token and the phrase to type
  opl organize run --token <preflight token> [--confirm <phrase>]
      starts the job from the preflight and follows it to the end
  opl organize status [--job <id>]
      one job with its items, or the recent jobs
  opl organize retry --job <id>
      runs the job's failed, retryable items again (after reconnecting, if the job says so)
  opl organize undo --job <id>
      puts the songs a finished song removal took back, and follows the undo to the end
`;

export class OrganizeUsageError extends Error {}

export type OrganizeOptions =
  | { command: 'duplicates'; url: string | null; account: string; playlist: string | null; levels: string[]; keep: 'first' | 'last' }
  | { command: 'preflight'; url: string | null; body: Record<string, unknown> }
  | { command: 'run'; url: string | null; token: string; confirm: string | null }
  | { command: 'status'; url: string | null; job: string | null }
  | { command: 'retry' | 'undo'; url: string | null; job: string };

const usage = (message: string) => new OrganizeUsageError(message);

function uuid(value: string | undefined, flag: string): string {
  if (!value || !UUID.test(value)) throw usage(`${flag} needs an id such as 0b6f…-…`);
  return value.toLowerCase();
}

export function parseOrganizeOptions(args: readonly string[]): OrganizeOptions {
  const [command, ...rest] = args;
  switch (command) {
    case 'duplicates': {
      const values = parseCommandLine(rest, { url: { type: 'string' }, account: { type: 'string' }, playlist: { type: 'string' }, levels: { type: 'string' }, keep: { type: 'string' } }, usage);
      const keep = values.keep ?? 'first';
      if (keep !== 'first' && keep !== 'last') throw usage('--keep is first or last');
      const levels = (values.levels ?? 'same_id,same_isrc').split(',').map((level) => level.trim());
      return { command, url: engineUrlOption(values.url, usage), account: uuid(values.account, '--account'), playlist: values.playlist ?? null, levels, keep };
    }
    case 'preflight': {
      const values = parseCommandLine(rest, { url: { type: 'string' }, account: { type: 'string' }, action: { type: 'string' }, playlist: { type: 'string', multiple: true }, entry: { type: 'string', multiple: true } }, usage);
      const account = uuid(values.account, '--account');
      const playlists = values.playlist ?? [];
      if (playlists.length === 0) throw usage('name the playlist(s) with --playlist');
      if (values.action === 'remove_tracks') {
        if (playlists.length !== 1) throw usage('remove_tracks works on one --playlist');
        const entries = (values.entry ?? []).map((entry) => {
          const match = /^(\d{1,6}):(.+)$/.exec(entry);
          if (!match) throw usage(`--entry is <position>:<uri> (0-based position), not ${JSON.stringify(entry)}`);
          return { position: Number(match[1]), uri: match[2] };
        });
        if (entries.length === 0) throw usage('choose the entries to remove with --entry <position>:<uri>');
        return { command, url: engineUrlOption(values.url, usage), body: { account_id: account, action: 'remove_tracks', playlist_id: playlists[0], entries } };
      }
      if (values.action !== 'unfollow_playlist' && values.action !== 'delete_playlist') throw usage('--action is unfollow_playlist, delete_playlist or remove_tracks');
      if ((values.entry ?? []).length > 0) throw usage('--entry belongs to --action remove_tracks');
      return { command, url: engineUrlOption(values.url, usage), body: { account_id: account, action: values.action, playlist_ids: playlists } };
    }
    case 'run': {
      const values = parseCommandLine(rest, { url: { type: 'string' }, token: { type: 'string' }, confirm: { type: 'string' } }, usage);
      return { command, url: engineUrlOption(values.url, usage), token: uuid(values.token, '--token'), confirm: values.confirm ?? null };
    }
    case 'status': {
      const values = parseCommandLine(rest, { url: { type: 'string' }, job: { type: 'string' } }, usage);
      return { command, url: engineUrlOption(values.url, usage), job: values.job === undefined ? null : uuid(values.job, '--job') };
    }
    case 'retry':
    case 'undo': {
      const values = parseCommandLine(rest, { url: { type: 'string' }, job: { type: 'string' } }, usage);
      return { command, url: engineUrlOption(values.url, usage), job: uuid(values.job, '--job') };
    }
    default:
      throw usage(command ? `unknown subcommand ${JSON.stringify(command)}` : 'choose a subcommand');
  }
}
