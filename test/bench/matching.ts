// `npm run bench:matching -- --dataset FILE [--decisions OUT]`: evaluates core/matching's
// decideMatch on a labelled JSON Lines dataset (format and metrics: test/bench/matching/evaluate.ts).
// Bad lines are reported on stderr with their line number and skipped. The summary is printed as
// JSON on the last stdout line. A benchmark, not a test: the exit code is 0 even when the goals are
// missed (it is 2 only for usage errors and 1 when the dataset cannot be read).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { decideMatch } from '../../core/matching/index.ts';
import { evaluateFile } from './matching/evaluate.ts';

let values: { dataset?: string; decisions?: string };
try {
  ({ values } = parseArgs({ options: { dataset: { type: 'string' }, decisions: { type: 'string' } }, strict: true }));
} catch (error) {
  console.error(`${(error as Error).message}\nusage: npm run bench:matching -- --dataset FILE [--decisions OUT]`);
  process.exit(2);
}
if (!values.dataset) {
  console.error('usage: npm run bench:matching -- --dataset FILE [--decisions OUT]');
  process.exit(2);
}

const out = values.decisions ? createWriteStream(values.decisions, { encoding: 'utf8' }) : null;
try {
  const summary = await evaluateFile(values.dataset, {
    decide: decideMatch,
    onDecision: out
      ? (line) => {
          out.write(`${line}\n`);
        }
      : undefined,
    onBadLine: (line, error) => console.error(`${values.dataset}:${line}: skipped: ${error}`),
  });
  if (out) {
    out.end();
    await once(out, 'finish');
  }
  process.stdout.write(`${JSON.stringify(summary)}\n`);
} catch (error) {
  console.error(`bench:matching: ${(error as Error).message}`);
  process.exitCode = 1;
}
