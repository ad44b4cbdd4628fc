import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { trackSchema, type Track } from '@opl/plugin-sdk/schemas';

/**
 * Evaluation of a track matcher on a labelled JSON Lines dataset (issue 9, "Benchmark and dataset").
 *
 * One case per line: `{"id", "target_provider", "source": Track, "candidates": [Track, …], "truth": id | null}`.
 * Each line is validated (JSON, the case shape, every track through the plugin-sdk `trackSchema`,
 * unique candidate ids, `truth` naming a candidate); a bad line is reported with its 1-based line
 * number and skipped. The matcher is injected so the metric code is testable without the scorer.
 *
 * Metrics (over the valid cases):
 * - `precision`: correct auto-accepts / auto-accepts (a wrong accept is accepting a candidate other
 *   than `truth`, including any accept when `truth` is null). `null` when nothing was accepted.
 * - `recall_at_accept`: correct auto-accepts / cases whose `truth` is not null.
 * - `review_share`, `reject_share`, `accept_share`: decisions / cases.
 * - `false_rejects`: rejects of cases that had a correct candidate.
 * - `searches`: a simple model of target searches. Cold graph: every case costs one search. Warm
 *   graph: the cases run in file order against an identity graph that starts empty; a case costs no
 *   search when an earlier case with the same source identity and the same target provider was
 *   auto-accepted in this run (that edge would be in the graph), else one. Reviews and rejects do
 *   not warm the graph (a confirmed review would, but the benchmark has no user). The identity is
 *   the source ISRC when present, else the normalized `title | artist | rounded duration` (a
 *   stand-in for the source provider's track id, which generated sources do not repeat).
 */

export const VIDEO_PROVIDERS: ReadonlySet<string> = new Set(['youtube_music', 'youtube']);
export const GOALS = { precision: 0.995, recall: 0.95 } as const;
const LIST_CAP = 50;

export interface DatasetCase {
  id: string;
  target_provider: string;
  source: Track;
  candidates: Track[];
  truth: string | null;
}

export interface Decision {
  decision: 'accept' | 'review' | 'reject';
  chosen: string | null;
  confidence: number;
}

export interface MatchOptionsLike {
  targetProvider: string;
  targetIsVideoProvider?: boolean;
}

export type Decide = (source: Track, candidates: readonly Track[], options: MatchOptionsLike) => Decision;

export type ParsedLine = { ok: true; value: DatasetCase } | { ok: false; error: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseTrack(value: unknown, where: string): Track | string {
  const parsed = trackSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return `${where}: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid track'}`;
}

/** Validates one dataset line. */
export function parseCaseLine(line: string): ParsedLine {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (error) {
    return { ok: false, error: `invalid JSON: ${(error as Error).message}` };
  }
  if (!isRecord(raw)) return { ok: false, error: 'a case must be a JSON object' };
  const { id, target_provider: targetProvider, source, candidates, truth } = raw;
  if (typeof id !== 'string' || id === '') return { ok: false, error: '"id" must be a non-empty string' };
  if (typeof targetProvider !== 'string' || targetProvider === '') return { ok: false, error: '"target_provider" must be a non-empty string' };
  if (!Array.isArray(candidates)) return { ok: false, error: '"candidates" must be an array' };
  if (truth !== null && typeof truth !== 'string') return { ok: false, error: '"truth" must be a candidate id or null' };
  const parsedSource = parseTrack(source, 'source');
  if (typeof parsedSource === 'string') return { ok: false, error: parsedSource };
  const parsedCandidates: Track[] = [];
  const ids = new Set<string>();
  for (const [index, candidate] of (candidates as unknown[]).entries()) {
    const parsed = parseTrack(candidate, `candidates[${index}]`);
    if (typeof parsed === 'string') return { ok: false, error: parsed };
    if (parsed.id === null || parsed.id === '') return { ok: false, error: `candidates[${index}]: a candidate needs an id` };
    if (ids.has(parsed.id)) return { ok: false, error: `candidates[${index}]: duplicate candidate id ${JSON.stringify(parsed.id)}` };
    ids.add(parsed.id);
    parsedCandidates.push(parsed);
  }
  if (truth !== null && !ids.has(truth)) return { ok: false, error: `"truth" ${JSON.stringify(truth)} is not a candidate id` };
  return { ok: true, value: { id, target_provider: targetProvider, source: parsedSource, candidates: parsedCandidates, truth } };
}

const normalizeKey = (s: string): string =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The source identity used by the warm-graph search model (see the module comment). */
export function sourceIdentity(track: Track): string {
  if (track.isrc) return `isrc:${track.isrc.trim().toUpperCase()}`;
  const duration = track.duration_s === null ? '' : String(Math.round(track.duration_s));
  return `text:${normalizeKey(track.title)}|${normalizeKey(track.artist)}|${duration}`;
}

export interface WrongAccept {
  id: string;
  chosen: string | null;
  truth: string | null;
  confidence: number;
}

export interface Summary {
  dataset: string;
  cases: number;
  bad_lines: number;
  bad_line_list: { line: number; error: string }[];
  with_truth: number;
  without_truth: number;
  accepted: number;
  correct_accepts: number;
  wrong_accepts: number;
  precision: number | null;
  recall_at_accept: number | null;
  accept_share: number | null;
  review_share: number | null;
  reject_share: number | null;
  /** Reviews whose top-ranked (`chosen`) candidate is the truth: the user's one-click confirmations. */
  review_top_correct: number;
  false_rejects: number;
  correct_rejects: number;
  wrong_accept_list: WrongAccept[];
  by_target: Record<string, { cases: number; accepted: number; correct_accepts: number; with_truth: number }>;
  searches: { cold_total: number; warm_total: number; cold_per_track: number | null; warm_per_track: number | null; model: string };
  /** Wall time of the whole evaluation (reading, validation, matching). */
  duration_ms: number;
  /** Time spent inside the matcher only. */
  decide_ms: number;
  goals: { precision: number; recall: number; met: boolean };
}

const ratio = (n: number, d: number): number | null => (d === 0 ? null : Math.round((n / d) * 10_000) / 10_000);

/** Accumulates decisions into the summary; feed cases in dataset order. */
export class MatchingMetrics {
  private cases = 0;
  private withTruth = 0;
  private accepted = 0;
  private correctAccepts = 0;
  private reviews = 0;
  private reviewTopCorrect = 0;
  private rejects = 0;
  private falseRejects = 0;
  private correctRejects = 0;
  private readonly wrong: WrongAccept[] = [];
  private wrongCount = 0;
  private readonly badLines: { line: number; error: string }[] = [];
  private badCount = 0;
  private readonly warmGraph = new Set<string>();
  private warmSearches = 0;
  private readonly byTarget = new Map<string, { cases: number; accepted: number; correct_accepts: number; with_truth: number }>();

  badLine(line: number, error: string): void {
    this.badCount++;
    if (this.badLines.length < LIST_CAP) this.badLines.push({ line, error });
  }

  add(testCase: DatasetCase, decision: Decision): void {
    this.cases++;
    const target = this.byTarget.get(testCase.target_provider) ?? { cases: 0, accepted: 0, correct_accepts: 0, with_truth: 0 };
    this.byTarget.set(testCase.target_provider, target);
    target.cases++;
    if (testCase.truth !== null) {
      this.withTruth++;
      target.with_truth++;
    }
    const identity = `${testCase.target_provider}\u0000${sourceIdentity(testCase.source)}`;
    if (!this.warmGraph.has(identity)) this.warmSearches++;
    switch (decision.decision) {
      case 'accept': {
        this.accepted++;
        target.accepted++;
        this.warmGraph.add(identity);
        if (testCase.truth !== null && decision.chosen === testCase.truth) {
          this.correctAccepts++;
          target.correct_accepts++;
        } else {
          this.wrongCount++;
          if (this.wrong.length < LIST_CAP) this.wrong.push({ id: testCase.id, chosen: decision.chosen, truth: testCase.truth, confidence: decision.confidence });
        }
        break;
      }
      case 'review':
        this.reviews++;
        if (testCase.truth !== null && decision.chosen === testCase.truth) this.reviewTopCorrect++;
        break;
      case 'reject':
        this.rejects++;
        if (testCase.truth === null) this.correctRejects++;
        else this.falseRejects++;
        break;
    }
  }

  summary(dataset: string, durationMs: number, decideMs = durationMs): Summary {
    const precision = ratio(this.correctAccepts, this.accepted);
    const recall = ratio(this.correctAccepts, this.withTruth);
    return {
      dataset,
      cases: this.cases,
      bad_lines: this.badCount,
      bad_line_list: [...this.badLines],
      with_truth: this.withTruth,
      without_truth: this.cases - this.withTruth,
      accepted: this.accepted,
      correct_accepts: this.correctAccepts,
      wrong_accepts: this.wrongCount,
      precision,
      recall_at_accept: recall,
      accept_share: ratio(this.accepted, this.cases),
      review_share: ratio(this.reviews, this.cases),
      reject_share: ratio(this.rejects, this.cases),
      review_top_correct: this.reviewTopCorrect,
      false_rejects: this.falseRejects,
      correct_rejects: this.correctRejects,
      wrong_accept_list: [...this.wrong],
      by_target: Object.fromEntries([...this.byTarget.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      searches: {
        cold_total: this.cases,
        warm_total: this.warmSearches,
        cold_per_track: ratio(this.cases, this.cases),
        warm_per_track: ratio(this.warmSearches, this.cases),
        model: 'cold: 1 search per case; warm: 0 when an earlier case with the same target provider and source identity (ISRC, else normalized title|artist|duration) was auto-accepted in this run, else 1',
      },
      duration_ms: Math.round(durationMs),
      decide_ms: Math.round(decideMs),
      goals: {
        precision: GOALS.precision,
        recall: GOALS.recall,
        met: precision !== null && recall !== null && precision >= GOALS.precision && recall >= GOALS.recall,
      },
    };
  }
}

export interface EvaluateOptions {
  decide: Decide;
  /** Receives each case's decision line (already JSON), in dataset order. */
  onDecision?: (line: string) => void;
  /** Receives each bad line's report. */
  onBadLine?: (line: number, error: string) => void;
  /** Label for the summary; defaults to `(stream)`. */
  dataset?: string;
}

/** Evaluates a stream of dataset lines. */
export async function evaluateLines(lines: AsyncIterable<string> | Iterable<string>, options: EvaluateOptions): Promise<Summary> {
  const metrics = new MatchingMetrics();
  const startedAll = performance.now();
  let lineNumber = 0;
  let decideMs = 0;
  for await (const line of lines) {
    lineNumber++;
    if (line.trim() === '') continue;
    const parsed = parseCaseLine(line);
    if (!parsed.ok) {
      metrics.badLine(lineNumber, parsed.error);
      options.onBadLine?.(lineNumber, parsed.error);
      continue;
    }
    const testCase = parsed.value;
    const started = performance.now();
    const result = options.decide(testCase.source, testCase.candidates, {
      targetProvider: testCase.target_provider,
      targetIsVideoProvider: VIDEO_PROVIDERS.has(testCase.target_provider),
    });
    decideMs += performance.now() - started;
    const decision: Decision = { decision: result.decision, chosen: result.chosen, confidence: result.confidence };
    metrics.add(testCase, decision);
    options.onDecision?.(JSON.stringify({ id: testCase.id, decision: decision.decision, chosen: decision.chosen, confidence: decision.confidence }));
  }
  return metrics.summary(options.dataset ?? '(stream)', performance.now() - startedAll, decideMs);
}

/** Streams a JSONL file through {@link evaluateLines}. */
export async function evaluateFile(path: string, options: Omit<EvaluateOptions, 'dataset'>): Promise<Summary> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  return evaluateLines(lines, { ...options, dataset: path });
}
