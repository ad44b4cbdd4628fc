import type { JobSnapshot } from './migration-views.ts';
import { terminalLines } from '../terminal-text.ts';

/**
 * The live progress line of `opl migrate`. In a terminal it redraws one line in place; in a pipe
 * or a log it prints a new line only when the phase or status changes or another tenth of the job
 * is done, so a 10,000-song migration does not write 10,000 lines.
 */

const WIDTH = 28;

export interface Output {
  write(text: string): unknown;
}

/** Songs (and albums, artists) that reached a final state or got their match, out of the total. */
function progressOf(job: JobSnapshot): { settled: number; total: number; fraction: number } {
  const { counts } = job;
  const total = counts.total || job.total || 0;
  // Matching and writing are both work: a matched item is half way, a written/skipped/failed one done.
  const settled = counts.written + counts.skipped + counts.failed;
  const weighted = settled + (counts.matched + counts.needs_review) / 2;
  return { settled, total, fraction: total === 0 ? (['completed', 'failed', 'cancelled'].includes(job.status) ? 1 : 0) : Math.min(1, weighted / total) };
}

export function progressLine(job: JobSnapshot): string {
  const { settled, total, fraction } = progressOf(job);
  const filled = Math.round(fraction * WIDTH);
  const bar = `${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}`;
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  const { counts } = job;
  const parts = [`written ${counts.written}`, `skipped ${counts.skipped}`];
  if (counts.failed > 0) parts.push(`failed ${counts.failed}`);
  if (counts.needs_review > 0) parts.push(`review ${counts.needs_review}`);
  return `[${bar}] ${percent} ${settled}/${total} · ${parts.join(' · ')} · ${job.status}${job.status === 'running' ? ` (${job.phase})` : ''}`;
}

export class ProgressBar {
  readonly #out: Output;
  readonly #tty: boolean;
  #lastLine = '';
  #lastTenth = -1;
  #lastState = '';
  #drawn = false;

  constructor(out: Output, tty: boolean) {
    this.#out = out;
    this.#tty = tty;
  }

  update(job: JobSnapshot): void {
    // Collection names come from the provider: escaped, so only our own sequence drives the terminal.
    const line = terminalLines(progressLine(job));
    if (line === this.#lastLine) return;
    this.#lastLine = line;
    if (this.#tty) {
      this.#out.write(`\r\x1b[2K${line}`);
      this.#drawn = true;
      return;
    }
    const tenth = Math.floor(progressOf(job).fraction * 10);
    const state = `${job.status}/${job.phase}`;
    if (tenth === this.#lastTenth && state === this.#lastState) return;
    this.#lastTenth = tenth;
    this.#lastState = state;
    this.#out.write(`${line}\n`);
  }

  /** A message between redraws (reconnects, review prompts) on a line of its own. */
  note(text: string): void {
    this.finish();
    this.#out.write(`${terminalLines(text)}\n`);
  }

  /** Ends the redrawn line so what follows starts on a fresh one. */
  finish(): void {
    if (this.#tty && this.#drawn) this.#out.write('\n');
    this.#drawn = false;
    this.#lastLine = '';
  }
}
