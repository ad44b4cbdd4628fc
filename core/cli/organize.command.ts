import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../config/index.ts';
import { EngineRequestError, readCommandLine, withEngine, type EngineClient } from './engine-command/index.ts';
import { ORGANIZE_USAGE, OrganizeUsageError, parseOrganizeOptions, type OrganizeOptions } from './organize/organize-options.ts';
import { terminalLines } from './terminal-text.ts';

/**
 * `opl organize`: the organizer for scripts, through the engine's API and so under the same
 * rules as the web UI — a preflight first, its token and exact phrase to start a job, nothing
 * beyond the preflight's selection. Duplicate scans are read-only.
 */

const EXIT = { ok: 0, failed: 1, usage: 64 } as const;

interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

interface Job {
  id: string;
  status: string;
  action: string;
  counts: { items: number; succeeded: number; failed: number; retryable: number };
  reconnect_required: boolean;
  items: { playlist_name: string | null; status: string; error: string | null; notes: string[] }[];
}

const say = (stream: NodeJS.WritableStream, text: string) => stream.write(terminalLines(text));
const FINISHED = new Set(['completed', 'partial', 'failed']);

function printJob(job: Job, io: Io): void {
  say(io.stdout, `Job ${job.id} (${job.action}): ${job.status}, ${job.counts.succeeded} of ${job.counts.items} done${job.counts.failed ? `, ${job.counts.failed} failed (${job.counts.retryable} retryable)` : ''}.\n`);
  for (const item of job.items) {
    say(io.stdout, `  ${item.status.padEnd(9)} ${item.playlist_name ?? ''}${item.error ? ` — ${item.error}` : ''}\n`);
    for (const note of item.notes) say(io.stdout, `            ${note}\n`);
  }
  if (FINISHED.has(job.status) && job.reconnect_required) say(io.stdout, `Reconnect the account (web UI: Connections), then: opl organize retry --job ${job.id}\n`);
}

/** Follows a started job to its end and prints it; exit 0 only when every item succeeded. */
async function follow(client: EngineClient, started: Job, io: Io): Promise<number> {
  let job = started;
  say(io.stderr, `Started organizer job ${job.id}.\n`);
  while (!FINISHED.has(job.status)) {
    await sleep(500);
    job = (await client.request('GET', `/api/organizer/jobs/${job.id}`)).json as Job;
  }
  printJob(job, io);
  return job.status === 'completed' ? EXIT.ok : EXIT.failed;
}

function refused(answer: { status: number; json: unknown }, io: Io): number {
  const problem = answer.json as { detail?: string; code?: string };
  say(io.stderr, `opl organize: ${problem.detail ?? `the engine answered HTTP ${answer.status}`}${problem.code ? ` [${problem.code}]` : ''}\n`);
  return EXIT.failed;
}

async function run(client: EngineClient, options: OrganizeOptions, io: Io): Promise<number> {
  switch (options.command) {
    case 'duplicates': {
      const body = options.playlist
        ? { scope: 'entries', account_id: options.account, playlist_id: options.playlist, levels: options.levels, keep: options.keep }
        : { scope: 'playlists', account_id: options.account };
      const answer = await client.request('POST', '/api/organizer/duplicates', body, [200, 400, 404, 409, 422]);
      if (answer.status !== 200) return refused(answer, io);
      say(io.stdout, `${JSON.stringify(answer.json, null, 2)}\n`);
      return EXIT.ok;
    }
    case 'preflight': {
      const answer = await client.request('POST', '/api/organizer/preflight', options.body, [200, 400, 404, 409, 422]);
      if (answer.status !== 200) return refused(answer, io);
      const preflight = answer.json as { token: string; expires_at: string; confirmation_phrase: string | null; playlists: { effect: string; warnings: { message: string }[] }[] };
      for (const playlist of preflight.playlists) {
        say(io.stdout, `${playlist.effect}\n`);
        for (const warning of playlist.warnings) say(io.stdout, `  ! ${warning.message}\n`);
      }
      say(io.stdout, `Token ${preflight.token} (valid until ${preflight.expires_at}).\n`);
      say(io.stdout, preflight.confirmation_phrase === null ? `Start it: opl organize run --token ${preflight.token}\n` : `Start it: opl organize run --token ${preflight.token} --confirm ${JSON.stringify(preflight.confirmation_phrase)}\n`);
      return EXIT.ok;
    }
    case 'run': {
      const started = await client.request('POST', '/api/organizer/jobs', { preflight_token: options.token, confirmation: options.confirm }, [202, 400, 404, 409, 422]);
      if (started.status !== 202) return refused(started, io);
      return follow(client, started.json as Job, io);
    }
    case 'retry':
    case 'undo': {
      const started = await client.request('POST', `/api/organizer/jobs/${options.job}/${options.command}`, {}, [202, 404, 409, 422]);
      if (started.status !== 202) return refused(started, io);
      return follow(client, started.json as Job, io);
    }
    case 'status': {
      if (options.job) {
        const answer = await client.request('GET', `/api/organizer/jobs/${options.job}`, undefined, [200, 404]);
        if (answer.status !== 200) return refused(answer, io);
        printJob(answer.json as Job, io);
        return EXIT.ok;
      }
      const { jobs } = (await client.request('GET', '/api/organizer/jobs')).json as { jobs: Job[] };
      if (jobs.length === 0) say(io.stdout, 'No organizer jobs yet.\n');
      for (const job of jobs) printJob(job, io);
      return EXIT.ok;
    }
  }
}

export async function organizeCommand(args: readonly string[], config: Config): Promise<number> {
  const line = readCommandLine({ name: 'organize', usage: ORGANIZE_USAGE, parse: parseOrganizeOptions, usageError: OrganizeUsageError, exit: { ok: EXIT.ok, usage: EXIT.usage } }, args, process);
  if ('exit' in line) return line.exit;
  try {
    return await withEngine(config, line.options.url, process, (client) => run(client, line.options, process));
  } catch (error) {
    if (!(error instanceof EngineRequestError)) throw error;
    process.stderr.write(`\nopl organize: ${error.message}\n`);
    return EXIT.failed;
  }
}
