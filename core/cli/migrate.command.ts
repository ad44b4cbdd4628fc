import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Config } from '../config/index.ts';
import { plural, problemDetail, problemOf, readCommandLine, withEngine, EngineRequestError, type EngineClient } from './engine-command/index.ts';
import { LinePrompter } from './migrate/line-prompter.ts';
import { MIGRATE_USAGE, parseMigrateOptions, UsageError, type MigrateOptions, type StartOptions } from './migrate/migrate-options.ts';
import { EXIT, exitCodeOf, FINISHED, type ItemSnapshot, type JobSnapshot } from './migrate/migration-views.ts';
import { ProgressBar } from './migrate/progress-bar.ts';
import { followJob } from './migrate/progress-stream.ts';
import { reviewInTerminal } from './migrate/review-session.ts';
import { terminalLines } from './terminal-text.ts';

/**
 * `opl migrate`: a playlist migration from the terminal, through a running engine's HTTP API —
 * preflight and warnings, start, a live progress bar from the event stream, review prompts, and a
 * final summary whose exit code is the job's outcome. Also the history (`--list`) and reports.
 */

interface Terminal {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Whether stdin is a terminal: then the command asks; otherwise only flags decide. */
  interactive: boolean;
  /** Whether stderr is a terminal: then the progress bar redraws in place. */
  ttyProgress: boolean;
}

interface Warning {
  code: string;
  message: string;
}

class Session {
  readonly #client: EngineClient;
  readonly #term: Terminal;
  #prompter: LinePrompter | null = null;

  constructor(client: EngineClient, term: Terminal) {
    this.#client = client;
    this.#term = term;
  }

  get prompter(): LinePrompter {
    this.#prompter ??= new LinePrompter(this.#term.stdin as Readable, this.#term.stderr, !this.#term.stdin.isTTY);
    return this.#prompter;
  }

  close(): void {
    this.#prompter?.close();
  }

  // Messages carry playlist names, titles and errors from providers: escaped for the terminal.
  out(text: string): void {
    this.#term.stdout.write(terminalLines(text));
  }

  err(text: string): void {
    this.#term.stderr.write(terminalLines(text));
  }

  async start(options: StartOptions): Promise<number> {
    const { json: accountsJson } = await this.#client.request('GET', '/api/auth/accounts');
    const accounts = (accountsJson as { accounts: { id: string; provider: string; display_name?: string | null; account_label?: string | null }[] }).accounts;
    const target = accounts.find((account) => account.id === options.to);
    if (!target) {
      const known = accounts.map((account) => `  ${account.id}  ${account.provider}  ${account.account_label ?? account.display_name ?? ''}`).join('\n');
      this.err(`opl migrate: no connected account ${options.to} on this engine.${known ? `\nConnected accounts:\n${known}` : ' Connect one in the web UI first.'}\n`);
      return EXIT.failed;
    }
    const body = {
      source_provider: options.from.provider,
      source_account_id: options.from.id,
      target_provider: target.provider,
      target_account_id: target.id,
      selection: options.selection,
      ...(options.strictness ? { strictness: options.strictness } : {}),
    };
    const { json: preflight } = await this.#client.request('POST', '/api/migrations/preflight', body);
    const plan = preflight as { summary: Record<string, number>; warnings: Warning[]; collections: { name: string; kind: string; tracks: number; selected_tracks: number }[] };
    this.err(`Plan: ${plan.collections.map((collection) => `"${collection.name}" (${collection.selected_tracks} of ${plural(collection.tracks, 'song')})`).join(', ') || 'no collections'}`);
    const extra = [plan.summary['saved_albums'] ? plural(plan.summary['saved_albums'], 'saved album') : '', plan.summary['followed_artists'] ? plural(plan.summary['followed_artists'], 'followed artist') : ''].filter(Boolean);
    this.err(`${extra.length > 0 ? `, ${extra.join(', ')}` : ''} → ${target.provider} ${target.account_label ?? target.display_name ?? target.id}\n`);
    if (plan.summary['unsupported']) this.err(`${plural(plan.summary['unsupported'], 'entry')} cannot migrate (episodes, local files, videos) and will be skipped.\n`);

    let acknowledged = false;
    if (plan.warnings.length > 0) {
      if (!(await this.#acknowledge(plan.warnings, options.yes))) return EXIT.failed;
      acknowledged = true;
    }
    let created = await this.#client.request('POST', '/api/migrations', { ...body, acknowledge_warnings: acknowledged }, [202, 409]);
    if (created.status === 409) {
      // Something changed since the preflight (another job started meanwhile): ask again.
      const problem = created.json as { warnings?: Warning[]; detail?: string };
      if (!(await this.#acknowledge(problem.warnings ?? [{ code: 'migration_warnings', message: problem.detail ?? 'The engine asks to acknowledge warnings.' }], options.yes))) return EXIT.failed;
      created = await this.#client.request('POST', '/api/migrations', { ...body, acknowledge_warnings: true }, [202]);
    }
    const job = created.json as JobSnapshot;
    this.err(`Started migration ${job.id}.\n`);
    return this.follow(job.id);
  }

  async #acknowledge(warnings: readonly Warning[], yes: boolean): Promise<boolean> {
    this.err(`${plural(warnings.length, 'warning')}:\n${warnings.map((warning) => `  ! ${warning.message} [${warning.code}]`).join('\n')}\n`);
    if (yes) {
      this.err('Acknowledged with --yes.\n');
      return true;
    }
    if (!this.#term.interactive) {
      this.err('opl migrate: not started. Re-run with --yes to acknowledge these warnings.\n');
      return false;
    }
    if (await this.prompter.confirm('Start anyway?')) return true;
    this.err('Not started.\n');
    return false;
  }

  /** Progress until the job finishes; reviews in between when someone can answer. */
  async follow(jobId: string): Promise<number> {
    const bar = new ProgressBar(this.#term.stderr, this.#term.ttyProgress);
    for (;;) {
      const job = await followJob(this.#client, jobId, {
        onJob: (snapshot) => {
          bar.update(snapshot);
          return FINISHED.includes(snapshot.status) || snapshot.status === 'awaiting_review' || snapshot.status === 'paused';
        },
        onReconnect: (attempt, last) => bar.note(`(progress stream dropped; reconnecting, attempt ${attempt}, after event ${last})`),
      });
      bar.finish();
      if (FINISHED.includes(job.status)) return this.#summary(job);
      if (job.status === 'paused') {
        const why = job.error_code === 'auth_expired' ? 'a connected account needs to be reconnected (web UI, Connections), then resume it' : job.resume_at ? `it continues by itself at ${job.resume_at}` : 'resume it when the cause is fixed';
        this.err(`Migration ${jobId} is paused: ${job.error ?? 'waiting'}. ${why[0]!.toUpperCase()}${why.slice(1)}; follow it with \`opl migrate --follow ${jobId}\`.\n`);
        return EXIT.unfinished;
      }
      // awaiting_review
      const waiting = job.counts.needs_review;
      if (!this.#term.interactive) {
        this.err(`${plural(waiting, 'item')} wait for review; the migration continues once they are decided. Review them in a terminal with \`opl migrate --follow ${jobId}\`, or in the web UI (${this.#client.baseUrl}/#/migrate).\n`);
        return EXIT.unfinished;
      }
      this.err(`${plural(waiting, 'item')} need your review before anything is written.\n`);
      const result = await reviewInTerminal(this.#client, jobId, this.prompter, this.#term.stderr);
      if (result.left > 0) {
        this.err(`The migration waits until they are decided: \`opl migrate --follow ${jobId}\` picks up here.\n`);
        return EXIT.unfinished;
      }
    }
  }

  async #summary(job: JobSnapshot): Promise<number> {
    const { counts } = job;
    const outcome = job.status === 'cancelled' ? 'cancelled' : job.outcome;
    this.out(`Migration ${job.id} ${outcome}: ${counts.written} written, ${counts.skipped} skipped, ${counts.failed} failed of ${counts.total}.\n`);
    for (const collection of job.collections) if (collection.target_playlist_id) this.out(`  "${collection.name}" → ${job.target_provider} playlist ${collection.target_playlist_id}\n`);
    if (job.error) this.out(`  Error: ${job.error}\n`);
    if (counts.skipped + counts.failed > 0) {
      try {
        const { json, headers } = await this.#client.request('GET', `/api/migrations/${job.id}/items?problem_only=true&limit=10&offset=0`);
        const problems = json as ItemSnapshot[];
        const total = Number(headers.get('x-total-count') ?? problems.length);
        for (const item of problems) this.out(`  ${item.status}: ${item.artist} — ${item.title}: ${item.reason ?? ''}\n`);
        if (total > problems.length) this.out(`  … and ${total - problems.length} more.\n`);
      } catch {
        // The summary stands without the list (e.g. item detail already expired).
      }
    }
    this.out(`Report: opl migrate --report ${job.id} [--format json] [--out file]\n`);
    return exitCodeOf(job);
  }

  async list(limit: number): Promise<number> {
    const { json } = await this.#client.request('GET', `/api/migrations?limit=${limit}`);
    const jobs = json as JobSnapshot[];
    if (jobs.length === 0) {
      this.out('No migrations yet.\n');
      return EXIT.completed;
    }
    for (const job of jobs) {
      const state = FINISHED.includes(job.status) ? (job.status === 'cancelled' ? 'cancelled' : job.outcome) : job.status;
      this.out(`${job.created_at}  ${job.id}  ${state.padEnd(15)} ${job.source_provider} → ${job.target_provider}  ${job.counts.written}/${job.counts.total} written  ${job.label}\n`);
    }
    return EXIT.completed;
  }

  async report(jobId: string, format: 'csv' | 'json', problems: boolean, out: string | null): Promise<number> {
    const response = await this.#client.raw(`/api/migrations/${jobId}/report?format=${format}&scope=${problems ? 'problems' : 'all'}`, { headers: { accept: '*/*' } });
    if (response.status !== 200 || !response.body) {
      const problem = await problemOf(response);
      throw new EngineRequestError(response.status, problemDetail(problem, response.status), problem);
    }
    const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    if (out) {
      await pipeline(body, createWriteStream(out));
      this.err(`Wrote the ${format.toUpperCase()} report of ${jobId} to ${out}.\n`);
    } else {
      for await (const chunk of body) this.#term.stdout.write(chunk as Uint8Array);
    }
    return EXIT.completed;
  }
}

async function perform(session: Session, options: MigrateOptions): Promise<number> {
  switch (options.mode) {
    case 'list':
      return session.list(options.limit);
    case 'report':
      return session.report(options.jobId, options.format, options.problems, options.out);
    case 'follow':
      return session.follow(options.jobId);
    case 'start':
      return session.start(options);
  }
}

async function run(client: EngineClient, options: MigrateOptions, term: Terminal): Promise<number> {
  const session = new Session(client, term);
  // Ctrl-C (how a follow usually ends) logs out before the process ends. `on`, not `once`: the
  // `opl` launcher forwards a terminal's Ctrl-C, and a copy finding no listener would end the
  // process before the engine is told.
  let loggingOut: Promise<boolean> | null = null;
  const onInterrupt = () => {
    if (loggingOut) return;
    loggingOut = client.close();
    void loggingOut.then(() => {
      term.stderr.write('\nopl migrate: interrupted; a migration already started goes on in the engine (`opl migrate --list`).\n');
      process.exit(EXIT.interrupted);
    });
  };
  process.on('SIGINT', onInterrupt);
  try {
    return await perform(session, options);
  } finally {
    process.off('SIGINT', onInterrupt);
    session.close();
  }
}

export async function migrateCommand(args: readonly string[], config: Config): Promise<number> {
  const line = readCommandLine({ name: 'migrate', usage: MIGRATE_USAGE, parse: parseMigrateOptions, usageError: UsageError, exit: { ok: EXIT.completed, usage: EXIT.usage } }, args, process);
  if ('exit' in line) return line.exit;
  const { options } = line;
  const term: Terminal = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    interactive: process.stdin.isTTY === true || options.interactive,
    ttyProgress: process.stderr.isTTY === true,
  };
  try {
    return await withEngine(config, options.url, term, (client) => run(client, options, term));
  } catch (error) {
    if (!(error instanceof EngineRequestError)) throw error;
    process.stderr.write(`\nopl migrate: ${error.message}\n`);
    return EXIT.failed;
  }
}
