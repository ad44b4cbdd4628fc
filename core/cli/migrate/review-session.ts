import type { EngineClient } from '../engine-command/index.ts';
import type { LinePrompter } from './line-prompter.ts';
import type { ItemSnapshot } from './migration-views.ts';
import type { Output } from './progress-bar.ts';
import { terminalLines } from '../terminal-text.ts';

/**
 * The review gate in the terminal: every item waiting for review is shown with its ranked
 * candidates, and the answer is posted at once (approve the suggestion, pick candidate N, skip,
 * or approve/skip all the rest in one batch call). Unanswered items stay waiting; the job goes
 * back to the queue by itself once the last one is decided.
 */

export interface ReviewResult {
  decided: number;
  left: number;
}

const PAGE = 500;

async function waitingItems(client: EngineClient, jobId: string): Promise<ItemSnapshot[]> {
  const items: ItemSnapshot[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const { json } = await client.request('GET', `/api/migrations/${jobId}/items?status=needs_review&limit=${PAGE}&offset=${offset}`);
    const page = json as ItemSnapshot[];
    items.push(...page);
    if (page.length < PAGE) return items;
  }
}

function seconds(value: number | null): string {
  if (value === null) return '?:??';
  const whole = Math.round(value);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

function describe(item: ItemSnapshot, index: number, count: number): string {
  const where = item.source_playlist_name ? ` in "${item.source_playlist_name}"${item.position !== null ? ` #${item.position + 1}` : ''}` : '';
  const lines = [`\nReview ${index + 1}/${count}: ${item.artist} — ${item.title}${item.album ? ` (${item.album})` : ''}${where}`];
  if (item.reason) lines.push(`  ${item.reason}`);
  if (item.candidates.length === 0) lines.push('  No candidates.');
  item.candidates.forEach((candidate, position) => {
    const suggested = candidate.uri !== null && candidate.uri === item.target_uri ? ' (suggested)' : '';
    lines.push(`  ${position + 1}. ${candidate.artist} — ${candidate.title}${candidate.album ? ` (${candidate.album})` : ''} ${seconds(candidate.duration_s)} · score ${Math.round(candidate.score * 100)}%${suggested}`);
  });
  return `${lines.join('\n')}\n`;
}

function choices(item: ItemSnapshot): string {
  const options = [];
  if (item.target_uri) options.push('[a]pprove');
  if (item.candidates.length > 0) options.push(`[1-${item.candidates.length}] pick`);
  options.push('[s]kip', '[A]pprove all', '[S]kip all', '[l]ater');
  return `${options.join(' · ')}: `;
}

export async function reviewInTerminal(client: EngineClient, jobId: string, prompter: LinePrompter, out: Output): Promise<ReviewResult> {
  const items = await waitingItems(client, jobId);
  let decided = 0;
  const post = async (item: ItemSnapshot, body: Record<string, unknown>) => {
    await client.request('POST', `/api/migrations/${jobId}/items/${item.id}/review`, body);
    decided++;
  };
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    // Titles, artists and reasons come from the providers: escaped for the terminal.
    out.write(terminalLines(describe(item, index, items.length)));
    for (;;) {
      const answer = await prompter.ask(terminalLines(choices(item)));
      if (answer === null || /^\s*l(ater)?\s*$/.test(answer)) {
        out.write(`Left ${items.length - index} item(s) waiting for review.\n`);
        return { decided, left: items.length - index };
      }
      const text = answer.trim();
      const rest = items.slice(index);
      if (text === 'A' || text === 'S') {
        // One batch call: the engine approves only items that have a suggestion; the others stay.
        const { json } = await client.request('POST', `/api/migrations/${jobId}/items/review`, { action: text === 'A' ? 'approve' : 'skip', item_ids: rest.map((entry) => entry.id) });
        const done = (json as unknown[]).length;
        decided += done;
        out.write(`${text === 'A' ? 'Approved' : 'Skipped'} ${done} item(s).\n`);
        return { decided, left: rest.length - done };
      }
      if (text === 'a' && item.target_uri) {
        await post(item, { action: 'approve' });
        break;
      }
      if (text === 's') {
        await post(item, { action: 'skip' });
        break;
      }
      const pick = /^\d+$/.test(text) ? item.candidates[Number(text) - 1] : undefined;
      if (pick?.uri) {
        await post(item, { action: 'approve', target_uri: pick.uri });
        break;
      }
      out.write(`Not a choice here: ${JSON.stringify(text)}.\n`);
    }
  }
  return { decided, left: 0 };
}
