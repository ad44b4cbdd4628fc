import { fileURLToPath } from 'node:url';
import { decideMatch } from '../../core/matching/index.ts';
import { evaluateFile, type Summary } from './matching/evaluate.ts';

/**
 * Matching quality on the committed labelled datasets, as part of `npm run bench`: the full summary
 * of test/fixtures/matching/dataset.jsonl (the same evaluation as `npm run bench:matching --
 * --dataset FILE`), and the headline figures of the three held-out files — holdout.jsonl (same
 * generator, other seed and songs), holdout2.jsonl (an independently written generator with
 * hard negatives the first never makes) and holdout3.jsonl (holdout2's generator, another seed
 * and a song bank written after the romanization rules were tuned). Rules are improved against the dataset; the held-out
 * figures are reported as they come.
 */
const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/matching/${name}`, import.meta.url));

async function evaluate(name: string): Promise<Summary> {
  const path = fixture(name);
  const summary = await evaluateFile(path, { decide: decideMatch, onBadLine: (line, error) => console.error(`${path}:${line}: skipped: ${error}`) });
  return { ...summary, dataset: `test/fixtures/matching/${name}` };
}

const headline = (s: Summary) => ({
  cases: s.cases,
  precision: s.precision,
  recall_at_accept: s.recall_at_accept,
  review_share: s.review_share,
  reject_share: s.reject_share,
  wrong_accepts: s.wrong_accepts,
  wrong_accept_list: s.wrong_accept_list,
  searches: { cold_per_track: s.searches.cold_per_track, warm_per_track: s.searches.warm_per_track },
  goals_met: s.goals.met,
});

export async function run(): Promise<Summary & { held_out: Record<string, ReturnType<typeof headline>> }> {
  const main = await evaluate('dataset.jsonl');
  const held: Record<string, ReturnType<typeof headline>> = {};
  for (const name of ['holdout.jsonl', 'holdout2.jsonl', 'holdout3.jsonl']) held[name] = headline(await evaluate(name));
  return { ...main, held_out: held };
}
