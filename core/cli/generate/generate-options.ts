import { engineUrlOption, parseCommandWords, UUID } from '../engine-command/index.ts';

/**
 * The command line of `opl generate`. The request (the prompt) is the one positional argument, or
 * `-` to read it from standard input (so it stays out of the shell history and the process list).
 */

export const GENERATE_USAGE = `Usage:
  opl generate "<request>" --to <provider> [--account <account-id>] [--tracks N] [--minutes M]
               [--genre G]… [--mood M]… [--explicit allow|exclude|only] [--from-library [--seed N]]
               [--confirm] [--yes] [--url <engine-url>]
  opl generate - --to <provider> …     read the request from standard input
  opl generate --draft <draft-id> --confirm [--yes]   confirm a draft made (and edited) earlier

Asks the engine's configured language model (OPL_GENERATOR_URL) for songs, resolves them on your
connected account of <provider>, and prints the draft: each song found there, and each that was not.
--confirm writes the approved songs to a new playlist there (a migration: follow it with
\`opl migrate --follow <job-id>\`). The request is sent to the model and is never stored.
--from-library: the model may only choose among songs you already have (the playlists the engine
has read from your connected accounts, your imports and snapshots), sent to it as a sampled list of
titles and artists; --seed N makes that sample repeatable.

Exit codes: 0 done, 1 failed (or refused, or the engine answered an error), 64 usage error.
`;

export class GenerateUsageError extends Error {}

export type GenerateOptions = { url: string | null; yes: boolean } & (
  | {
      mode: 'generate';
      /** `-`: read from standard input. */
      prompt: string;
      provider: string;
      account: string | null;
      controls: { track_count: number; duration_minutes: number | null; genres: string[]; moods: string[]; explicit: 'allow' | 'exclude' | 'only' };
      /** Library-grounded mode, with its sampling seed (null: a new one). */
      library: { seed: number | null } | null;
      confirm: boolean;
    }
  | { mode: 'confirm'; draft: string }
);

function whole(value: string | undefined, name: string, min: number, max: number): number | null {
  if (value === undefined) return null;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new GenerateUsageError(`${name} takes a whole number from ${min} to ${max}, not ${JSON.stringify(value)}.`);
  return Number(value);
}

export function parseGenerateOptions(args: readonly string[]): GenerateOptions {
  const { values, positionals } = parseCommandWords(
    args,
    {
      to: { type: 'string' },
      account: { type: 'string' },
      tracks: { type: 'string' },
      minutes: { type: 'string' },
      genre: { type: 'string', multiple: true },
      mood: { type: 'string', multiple: true },
      explicit: { type: 'string' },
      'from-library': { type: 'boolean', default: false },
      seed: { type: 'string' },
      confirm: { type: 'boolean', default: false },
      draft: { type: 'string' },
      yes: { type: 'boolean', default: false },
      url: { type: 'string' },
    },
    (message) => new GenerateUsageError(message),
  );
  const url = engineUrlOption(values.url, (message) => new GenerateUsageError(message));
  if (values.draft !== undefined) {
    if (!UUID.test(values.draft)) throw new GenerateUsageError(`--draft takes a draft id (a UUID), not ${JSON.stringify(values.draft)}.`);
    if (!values.confirm) throw new GenerateUsageError('--draft needs --confirm: it confirms a draft made earlier.');
    if (positionals.length > 0 || values.to !== undefined) throw new GenerateUsageError('--draft confirms an existing draft: leave out the request and --to.');
    return { mode: 'confirm', draft: values.draft, url, yes: values.yes };
  }
  if (positionals.length !== 1) throw new GenerateUsageError(positionals.length === 0 ? 'say what to generate: opl generate "<request>" --to <provider>' : 'put the request in one pair of quotes.');
  if (!values.to) throw new GenerateUsageError('--to <provider> is required (e.g. --to spotify).');
  if (values.account !== undefined && !UUID.test(values.account)) throw new GenerateUsageError(`--account takes an account id (a UUID), not ${JSON.stringify(values.account)}.`);
  if (values.seed !== undefined && !values['from-library']) throw new GenerateUsageError('--seed samples your library: it goes with --from-library.');
  const explicit = values.explicit ?? 'allow';
  if (explicit !== 'allow' && explicit !== 'exclude' && explicit !== 'only') throw new GenerateUsageError(`--explicit takes allow, exclude or only, not ${JSON.stringify(explicit)}.`);
  return {
    mode: 'generate',
    prompt: positionals[0]!,
    provider: values.to.toLowerCase(),
    account: values.account ?? null,
    controls: {
      track_count: whole(values.tracks, '--tracks', 1, 50) ?? 20,
      duration_minutes: whole(values.minutes, '--minutes', 10, 600),
      genres: values.genre ?? [],
      moods: values.mood ?? [],
      explicit,
    },
    library: values['from-library'] ? { seed: whole(values.seed, '--seed', 0, 2_147_483_647) } : null,
    confirm: values.confirm,
    url,
    yes: values.yes,
  };
}
