import { createInterface, type Interface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Output } from './progress-bar.ts';

/**
 * Questions on the terminal, answered one line at a time. Lines are queued as they arrive, so
 * answers typed (or piped) ahead of the questions are not lost; the end of the input answers
 * every later question with null ("no answer": the caller leaves the decision for later).
 */
export class LinePrompter {
  readonly #out: Output;
  readonly #lines: string[] = [];
  readonly #waiting: ((line: string | null) => void)[] = [];
  readonly #rl: Interface;
  readonly #input: Readable;
  readonly #echoAnswers: boolean;
  #ended = false;

  /** `echoAnswers`: the input is not a terminal, which would have echoed what was typed. */
  constructor(input: Readable, out: Output, echoAnswers: boolean) {
    this.#out = out;
    this.#input = input;
    this.#echoAnswers = echoAnswers;
    this.#rl = createInterface({ input, terminal: false });
    this.#rl.on('line', (line) => {
      const waiter = this.#waiting.shift();
      if (waiter) waiter(line);
      else this.#lines.push(line);
    });
    this.#rl.on('close', () => {
      this.#ended = true;
      for (const waiter of this.#waiting.splice(0)) waiter(null);
    });
  }

  async ask(question: string): Promise<string | null> {
    this.#out.write(question);
    const queued = this.#lines.shift();
    if (queued !== undefined) return this.#echo(queued);
    if (this.#ended) return this.#echo(null);
    return this.#echo(await new Promise<string | null>((resolve) => this.#waiting.push(resolve)));
  }

  /** Yes/no; anything but y/yes is no, and so is the end of the input. */
  async confirm(question: string): Promise<boolean> {
    const answer = await this.ask(`${question} [y/N] `);
    return answer !== null && /^\s*y(es)?\s*$/i.test(answer);
  }

  /** Stops reading: an open pipe on stdin would otherwise keep the process alive. */
  close(): void {
    this.#rl.close();
    this.#input.destroy();
  }

  // Piped answers are not echoed by a terminal: end the question's line so the transcript reads well.
  #echo(line: string | null): string | null {
    if (line === null) this.#out.write('(no answer)\n');
    else if (this.#echoAnswers) this.#out.write(`${line}\n`);
    return line;
  }
}
