import { engineUrlOption, parseCommandWords, UUID } from '../engine-command/index.ts';

/** The command line of `opl sync`: a subcommand, then its options. */

export const SYNC_USAGE = `Usage:
  opl sync list [--url <engine-url>]
  opl sync create --migration <job-id> [--every <minutes> | --daily <HH:MM> --tz <time-zone>] [--mode add_only|mirror] [--url …]
  opl sync run <rule-id> [--wait] [--url …]
  opl sync pause <rule-id> [--url …]
  opl sync resume <rule-id> [--url …]

Keeps a playlist that a finished migration wrote in sync with its source, one way. A run adds what
the source gained since the last run, never a song the target already has. --every takes 5 to
10080 minutes (default 60); --daily runs once a day at that wall-clock time of --tz (an IANA zone
such as Europe/Berlin). Inverse rules (B→A beside A→B) and longer loops are refused. run --wait
waits for the run to end and prints what it did.

Exit codes: 0 done, 1 failed (or refused, or the engine answered an error), 64 usage error.
`;

export class SyncUsageError extends Error {}

export type SyncOptions = { url: string | null } & (
  | { action: 'list' }
  | { action: 'create'; migration: string; mode: 'add_only' | 'mirror'; schedule: { kind: 'interval'; every_minutes: number } | { kind: 'daily'; at: string; time_zone: string } }
  | { action: 'run'; rule: string; wait: boolean }
  | { action: 'pause' | 'resume'; rule: string }
);

const ACTIONS = ['list', 'create', 'run', 'pause', 'resume'] as const;

export function parseSyncOptions(args: readonly string[]): SyncOptions {
  const { values, positionals } = parseCommandWords(
    args,
    {
      migration: { type: 'string' },
      every: { type: 'string' },
      daily: { type: 'string' },
      tz: { type: 'string' },
      mode: { type: 'string' },
      wait: { type: 'boolean', default: false },
      url: { type: 'string' },
    },
    (message) => new SyncUsageError(message),
  );
  const action = positionals[0] as (typeof ACTIONS)[number] | undefined;
  if (!action || !ACTIONS.includes(action)) throw new SyncUsageError(`say what to do: ${ACTIONS.join(', ')}.`);
  const url = engineUrlOption(values.url, (message) => new SyncUsageError(message));
  const expected = action === 'list' || action === 'create' ? 1 : 2;
  if (positionals.length !== expected) throw new SyncUsageError(expected === 2 ? `${action} takes one rule id.` : `${action} takes no other arguments.`);
  if (action === 'list') return { action, url };
  if (action === 'create') {
    if (!values.migration || !UUID.test(values.migration)) throw new SyncUsageError('create needs --migration <job-id> (a finished migration of one playlist).');
    if (values.every !== undefined && values.daily !== undefined) throw new SyncUsageError('choose --every or --daily, not both.');
    const mode = values.mode ?? 'add_only';
    if (mode !== 'add_only' && mode !== 'mirror') throw new SyncUsageError(`--mode is add_only or mirror, not ${JSON.stringify(mode)}.`);
    if (values.daily !== undefined) {
      if (!/^(?:[01]\d|2[0-3]):[0-5]\d$/.test(values.daily)) throw new SyncUsageError(`--daily takes a time HH:MM, not ${JSON.stringify(values.daily)}.`);
      if (!values.tz) throw new SyncUsageError('--daily needs --tz <time-zone> (for example Europe/Berlin).');
      return { action, url, migration: values.migration, mode, schedule: { kind: 'daily', at: values.daily, time_zone: values.tz } };
    }
    const every = values.every ?? '60';
    if (!/^\d+$/.test(every) || Number(every) < 5 || Number(every) > 10_080) throw new SyncUsageError(`--every takes minutes from 5 to 10080, not ${JSON.stringify(every)}.`);
    return { action, url, migration: values.migration, mode, schedule: { kind: 'interval', every_minutes: Number(every) } };
  }
  const rule = positionals[1]!;
  if (!UUID.test(rule)) throw new SyncUsageError(`${JSON.stringify(rule)} is not a rule id.`);
  if (action === 'run') return { action, url, rule, wait: values.wait };
  return { action, url, rule };
}
