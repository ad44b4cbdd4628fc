import type { Config } from '../config/index.ts';
import { EngineRequestError, plural, readCommandLine, withEngine, type EngineClient } from './engine-command/index.ts';
import { GENERATE_USAGE, GenerateUsageError, parseGenerateOptions, type GenerateOptions } from './generate/generate-options.ts';
import { terminalLines } from './terminal-text.ts';

/**
 * `opl generate`: a playlist proposed by the engine's language model, resolved on a connected
 * account, printed as a draft; `--confirm` writes its approved songs there through an ordinary
 * migration. The request goes to the engine (and from there to the model) only.
 */

const EXIT = { ok: 0, failed: 1, usage: 64 } as const;

interface DraftItem {
  status: 'pending' | 'resolved' | 'unresolved' | 'removed';
  approved: boolean;
  title: string;
  artist: string;
  album: string | null;
  reason: string | null;
}

interface Draft {
  id: string;
  name: string;
  counts: { resolved: number; unresolved: number; approved: number; duration_s: number };
  generation: { notes?: { message: string }[] };
  items: DraftItem[];
}

interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const say = (stream: NodeJS.WritableStream, text: string) => stream.write(terminalLines(text));

function printDraft(draft: Draft, io: Io): void {
  const minutes = Math.round(draft.counts.duration_s / 60);
  say(io.stdout, `Draft ${draft.id} "${draft.name}": ${plural(draft.counts.resolved, 'song')} found (${draft.counts.approved} approved, about ${minutes} min)${draft.counts.unresolved ? `, ${draft.counts.unresolved} not found` : ''}.\n`);
  draft.items.forEach((item, index) => {
    const mark = item.status === 'unresolved' ? '?' : item.status === 'removed' ? '-' : item.approved ? '✓' : '~';
    const where = item.album ? ` (${item.album})` : '';
    // A removed song is one the engine left out (a duplicate, the explicit filter, past the wished length), with the reason.
    const why = item.status === 'unresolved' || item.status === 'removed' ? ` — ${item.reason ?? 'not found'}` : item.approved ? '' : ' — check it: not approved yet';
    say(io.stdout, `${String(index + 1).padStart(3)}. ${mark} ${item.title} — ${item.artist}${where}${why}\n`);
  });
  for (const note of draft.generation.notes ?? []) say(io.stderr, `note: ${note.message}\n`);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

async function confirm(client: EngineClient, draftId: string, yes: boolean, io: Io): Promise<number> {
  const answer = await client.request('POST', `/api/generator/drafts/${draftId}/confirm`, { acknowledge_warnings: yes }, [200, 201, 409, 422]);
  if (answer.status === 409 || answer.status === 422) {
    const problem = answer.json as { detail?: string; code?: string; warnings?: { message: string; code: string }[] };
    for (const warning of problem.warnings ?? []) say(io.stderr, `  ! ${warning.message} [${warning.code}]\n`);
    say(io.stderr, `opl generate: not confirmed: ${problem.detail ?? problem.code ?? `HTTP ${answer.status}`}${problem.code === 'migration_warnings' ? ' Re-run with --yes to acknowledge.' : ''}\n`);
    return EXIT.failed;
  }
  const { job } = answer.json as { created: boolean; job: { id: string } };
  say(io.stderr, `${answer.status === 201 ? 'Started' : 'Already confirmed as'} migration ${job.id}. Follow it: opl migrate --follow ${job.id}\n`);
  return EXIT.ok;
}

async function run(client: EngineClient, options: GenerateOptions, io: Io): Promise<number> {
  if (options.mode === 'confirm') return confirm(client, options.draft, options.yes, io);
  const { json } = await client.request('GET', '/api/auth/accounts');
  const accounts = (json as { accounts: { id: string; provider: string; display_name?: string | null; account_label?: string | null }[] }).accounts.filter((account) => account.provider === options.provider);
  const account = options.account ? accounts.find((entry) => entry.id === options.account) : accounts.length === 1 ? accounts[0] : undefined;
  if (!account) {
    const list = accounts.map((entry) => `  ${entry.id}  ${entry.account_label ?? entry.display_name ?? ''}`).join('\n');
    say(io.stderr, accounts.length > 1 && !options.account ? `opl generate: several ${options.provider} accounts are connected; choose one with --account:\n${list}\n` : `opl generate: no connected ${options.provider} account${options.account ? ` ${options.account}` : ''}.${list ? `\nConnected:\n${list}` : ' Connect one in the web UI first.'}\n`);
    return EXIT.failed;
  }
  const prompt = options.prompt === '-' ? await readStdin() : options.prompt;
  if (prompt === '') {
    say(io.stderr, 'opl generate: the request is empty.\n');
    return EXIT.failed;
  }
  say(io.stderr, `Asking the model for ${plural(options.controls.track_count, 'song')}${options.library ? ' of your library' : ''} and finding them on ${account.provider}…\n`);
  const grounding = options.library ? { grounding: 'library', library_sources: options.library.seed === null ? {} : { seed: options.library.seed } } : {};
  const made = await client.request('POST', '/api/generator/drafts', { target_provider: account.provider, target_account_id: account.id, generation: { prompt, controls: options.controls }, ...grounding }, [201, 422, 429, 502, 503, 504]);
  if (made.status !== 201) {
    const problem = made.json as { detail?: string };
    say(io.stderr, `opl generate: ${problem.detail ?? `the engine answered HTTP ${made.status}`}\n`);
    return EXIT.failed;
  }
  const draft = made.json as Draft;
  printDraft(draft, io);
  if (!options.confirm) {
    say(io.stderr, `Edit it in the web UI or the API, then: opl generate --draft ${draft.id} --confirm\n`);
    return EXIT.ok;
  }
  return confirm(client, draft.id, options.yes, io);
}

export async function generateCommand(args: readonly string[], config: Config): Promise<number> {
  const line = readCommandLine({ name: 'generate', usage: GENERATE_USAGE, parse: parseGenerateOptions, usageError: GenerateUsageError, exit: { ok: EXIT.ok, usage: EXIT.usage } }, args, process);
  if ('exit' in line) return line.exit;
  try {
    return await withEngine(config, line.options.url, process, (client) => run(client, line.options, process));
  } catch (error) {
    if (!(error instanceof EngineRequestError)) throw error;
    process.stderr.write(`\nopl generate: ${error.message}\n`);
    return EXIT.failed;
  }
}
