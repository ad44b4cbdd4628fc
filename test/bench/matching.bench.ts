import { fileURLToPath } from 'node:url';
import { decideMatch } from '../../core/matching/index.ts';
import { evaluateFile, type Summary } from './matching/evaluate.ts';

/**
 * Matching quality on the committed labelled dataset (test/fixtures/matching/dataset.jsonl), as part
 * of `npm run bench`. The same evaluation as `npm run bench:matching -- --dataset FILE`.
 */
export async function run(): Promise<Summary> {
  const dataset = fileURLToPath(new URL('../fixtures/matching/dataset.jsonl', import.meta.url));
  const summary = await evaluateFile(dataset, { decide: decideMatch, onBadLine: (line, error) => console.error(`${dataset}:${line}: skipped: ${error}`) });
  return { ...summary, dataset: 'test/fixtures/matching/dataset.jsonl' };
}
