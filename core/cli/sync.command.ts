import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../config/index.ts';
import { EngineRequestError, readCommandLine, withEngine, type EngineClient } from './engine-command/index.ts';
import { parseSyncOptions, SYNC_USAGE, SyncUsageError, type SyncOptions } from './sync/sync-options.ts';
import { terminalLines } from './terminal-text.ts';

/** `opl sync`: scheduled sync rules of a running engine — list, create, run now, pause, resume. */

const EXIT = { ok: 0, failed: 1, usage: 64 } as const;
const RUN_WAIT_MS = 10 * 60_000;

interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

interface Rule {
  id: string;
  name: string;
  status: string;
  mode: string;
  pause_reason: string | null;
  schedule: { kind: 'interval'; every_minutes: number } | { kind: 'daily'; at: string; time_zone: string };
  source: { provider: string };
  target: { provider: string };
  next_run_at: string | null;
  last_run_at: string | null;
}

interface Run {
  id: string;
  status: string;
  migration_job_id: string | null;
  stats: Record<string, unknown>;
  error: string | null;
}

const say = (stream: NodeJS.WritableStream, text: string) => stream.write(terminalLines(text));

function describeRule(rule: Rule): string {
  const when = rule.schedule.kind === 'interval' ? `every ${rule.schedule.every_minutes} min` : `daily ${rule.schedule.at} ${rule.schedule.time_zone}`;
  const state =
    rule.status === 'paused'
      ? `paused: ${rule.pause_reason ?? 'by you'}`
      : rule.status === 'review_required'
        ? 'waiting for review'
        : rule.status === 'approval_required'
          ? 'waiting for your approval of removals (Sync page, or POST /api/syncs/{id}/runs/{run}/approve)'
          : `next ${rule.next_run_at ?? '-'}`;
  return `${rule.id}  "${rule.name}" ${rule.source.provider} → ${rule.target.provider}  ${rule.mode}, ${when}  ${state}  last ${rule.last_run_at ?? 'never'}`;
}

function describeRun(run: Run): string {
  const count = (name: string) => (typeof run.stats[name] === 'number' ? (run.stats[name]) : 0);
  if (run.status === 'failed') return `Run ${run.id} failed: ${run.error ?? 'no reason given'}`;
  if (run.status === 'approval_required') return `Run ${run.id} would remove ${count('planned_removals')} songs, more than the rule allows: approve it on the Sync page.`;
  if (run.status === 'review_required') return `Run ${run.id} waits for review of migration ${run.migration_job_id} (opl migrate --follow ${run.migration_job_id}, or the History page).`;
  if (run.stats['mirror'] === 'done') return `Run ${run.id} ${run.status}: ${count('written')} added, ${count('removed')} removed, ${count('moved')} moved${run.migration_job_id ? ` (migration ${run.migration_job_id})` : ''}.`;
  if (run.stats['unchanged'] === true) return `Run ${run.id}: the source is unchanged; nothing to add.`;
  return `Run ${run.id} ${run.status}: ${count('added')} new in the source, ${count('written')} added, ${count('skipped')} skipped${run.migration_job_id ? ` (migration ${run.migration_job_id})` : ''}.`;
}

async function run(client: EngineClient, options: SyncOptions, io: Io): Promise<number> {
  switch (options.action) {
    case 'list': {
      const rules = (await client.request('GET', '/api/syncs')).json as Rule[];
      if (rules.length === 0) say(io.stderr, 'No sync rules. Make one from a finished migration: opl sync create --migration <job-id>\n');
      for (const rule of rules) say(io.stdout, `${describeRule(rule)}\n`);
      return EXIT.ok;
    }
    case 'create': {
      const rule = (await client.request('POST', '/api/syncs', { migration_job_id: options.migration, mode: options.mode, schedule: options.schedule }, [201])).json as Rule;
      say(io.stdout, `${describeRule(rule)}\n`);
      return EXIT.ok;
    }
    case 'pause':
    case 'resume': {
      const rule = (await client.request('POST', `/api/syncs/${options.rule}/${options.action}`)).json as Rule;
      say(io.stdout, `${describeRule(rule)}\n`);
      return EXIT.ok;
    }
    case 'run': {
      let current = (await client.request('POST', `/api/syncs/${options.rule}/run`, undefined, [202])).json as Run;
      say(io.stderr, `Run ${current.id} queued.\n`);
      if (!options.wait) return EXIT.ok;
      const deadline = Date.now() + RUN_WAIT_MS;
      while (['queued', 'running'].includes(current.status) && Date.now() < deadline) {
        await sleep(500);
        current = (await client.request('GET', `/api/syncs/${options.rule}/runs/${current.id}`)).json as Run;
      }
      say(io.stdout, `${describeRun(current)}\n`);
      return current.status === 'failed' ? EXIT.failed : EXIT.ok;
    }
  }
}

export async function syncCommand(args: readonly string[], config: Config): Promise<number> {
  const line = readCommandLine({ name: 'sync', usage: SYNC_USAGE, parse: parseSyncOptions, usageError: SyncUsageError, exit: { ok: EXIT.ok, usage: EXIT.usage } }, args, process);
  if ('exit' in line) return line.exit;
  try {
    return await withEngine(config, line.options.url, process, (client) => run(client, line.options, process));
  } catch (error) {
    if (!(error instanceof EngineRequestError)) throw error;
    process.stderr.write(`opl sync: ${error.message}\n`);
    return EXIT.failed;
  }
}
