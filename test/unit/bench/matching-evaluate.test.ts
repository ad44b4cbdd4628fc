import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateLines, parseCaseLine, sourceIdentity, type Decide, type Decision, type Summary } from '../../bench/matching/evaluate.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

const track = (id: string, title: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ id, title, artist: 'Artist', artists: ['Artist'], duration_s: 200, ...extra });
const line = (id: string, truth: string | null, candidateIds: string[], source: Record<string, unknown> = {}, target = 'tidal'): string =>
  JSON.stringify({ id, target_provider: target, source: track(`src-${id}`, `Song ${id}`, source), candidates: candidateIds.map((c) => track(c, `Song ${id}`)), truth });

/** A scripted matcher: the decision per case, keyed by the source track id. */
function scripted(decisions: Record<string, Decision>): { decide: Decide; calls: { source: string; video: boolean | undefined }[] } {
  const calls: { source: string; video: boolean | undefined }[] = [];
  const decide: Decide = (source, _candidates, options) => {
    calls.push({ source: source.id ?? '', video: options.targetIsVideoProvider });
    const decision = decisions[source.id ?? ''];
    if (!decision) throw new Error(`no scripted decision for ${source.id}`);
    return decision;
  };
  return { decide, calls };
}

// The tiny hand-made dataset: 7 cases, 5 with a truth.
const DATASET = [
  line('a', 'a1', ['a1', 'a2'], { isrc: 'ZZAAA0000001' }), // accept a1: correct
  line('b', 'b1', ['b1', 'b2']), // accept b2: wrong
  line('c', null, ['c1', 'c2']), // accept c1: wrong (no correct candidate)
  line('d', 'd1', ['d1', 'd2']), // review, top d1
  line('e', 'e1', ['e1']), // reject: false reject
  line('f', null, ['f1'], {}, 'youtube_music'), // reject: correct reject
  line('g', 'g1', ['g1', 'g2'], { isrc: 'zzaaa0000001' }), // same ISRC as a, accept g1: correct, warm hit
];
const DECISIONS: Record<string, Decision> = {
  'src-a': { decision: 'accept', chosen: 'a1', confidence: 0.99 },
  'src-b': { decision: 'accept', chosen: 'b2', confidence: 0.97 },
  'src-c': { decision: 'accept', chosen: 'c1', confidence: 0.96 },
  'src-d': { decision: 'review', chosen: 'd1', confidence: 0.7 },
  'src-e': { decision: 'reject', chosen: null, confidence: 0.1 },
  'src-f': { decision: 'reject', chosen: null, confidence: 0.2 },
  'src-g': { decision: 'accept', chosen: 'g1', confidence: 0.995 },
};

describe('matching benchmark metrics', () => {
  it('computes precision, recall at accept, shares and the wrong-accept list', async () => {
    const { decide, calls } = scripted(DECISIONS);
    const summary = await evaluateLines(DATASET, { decide });
    expect(summary).toMatchObject({
      cases: 7,
      with_truth: 5,
      without_truth: 2,
      accepted: 4,
      correct_accepts: 2,
      wrong_accepts: 2,
      precision: 0.5,
      recall_at_accept: 0.4,
      accept_share: 0.5714,
      review_share: 0.1429,
      reject_share: 0.2857,
      review_top_correct: 1,
      false_rejects: 1,
      correct_rejects: 1,
      bad_lines: 0,
      goals: { precision: 0.995, recall: 0.95, met: false },
    });
    expect(summary.wrong_accept_list).toEqual([
      { id: 'b', chosen: 'b2', truth: 'b1', confidence: 0.97 },
      { id: 'c', chosen: 'c1', truth: null, confidence: 0.96 },
    ]);
    expect(summary.by_target.tidal).toEqual({ cases: 6, accepted: 4, correct_accepts: 2, with_truth: 5 });
    expect(calls.find((c) => c.source === 'src-f')?.video).toBe(true);
    expect(calls.find((c) => c.source === 'src-a')?.video).toBe(false);
  });

  it('counts warm-graph searches: an accepted identity makes later cases with it free', async () => {
    const { decide } = scripted(DECISIONS);
    const summary = await evaluateLines(DATASET, { decide });
    // g shares a's ISRC (case-insensitively) and a was accepted: 6 searches instead of 7.
    expect(summary.searches).toMatchObject({ cold_total: 7, warm_total: 6, cold_per_track: 1, warm_per_track: 0.8571 });
    // A reviewed identity does not warm the graph.
    const reviewed = await evaluateLines([line('x', 'x1', ['x1'], { isrc: 'ZZX' }), line('y', 'y1', ['y1'], { isrc: 'ZZX' })], {
      decide: scripted({ 'src-x': { decision: 'review', chosen: 'x1', confidence: 0.5 }, 'src-y': { decision: 'accept', chosen: 'y1', confidence: 1 } }).decide,
    });
    expect(reviewed.searches.warm_total).toBe(2);
  });

  it('meets the goals only when both precision and recall reach them', async () => {
    const perfect = await evaluateLines([line('a', 'a1', ['a1']), line('c', null, ['c1'])], {
      decide: scripted({ 'src-a': { decision: 'accept', chosen: 'a1', confidence: 1 }, 'src-c': { decision: 'reject', chosen: null, confidence: 0 } }).decide,
    });
    expect(perfect).toMatchObject({ precision: 1, recall_at_accept: 1, goals: { met: true } });
    const nothingAccepted = await evaluateLines([line('a', 'a1', ['a1'])], { decide: scripted({ 'src-a': { decision: 'review', chosen: 'a1', confidence: 0.5 } }).decide });
    expect(nothingAccepted).toMatchObject({ precision: null, recall_at_accept: 0, goals: { met: false } });
  });

  it('writes one decision line per valid case with exactly id, decision, chosen and confidence', async () => {
    const written: string[] = [];
    await evaluateLines(DATASET, { decide: scripted(DECISIONS).decide, onDecision: (l) => written.push(l) });
    expect(written).toHaveLength(7);
    const parsed = written.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const entry of parsed) expect(Object.keys(entry)).toEqual(['id', 'decision', 'chosen', 'confidence']);
    expect(parsed[1]).toEqual({ id: 'b', decision: 'accept', chosen: 'b2', confidence: 0.97 });
    expect(parsed[4]).toEqual({ id: 'e', decision: 'reject', chosen: null, confidence: 0.1 });
  });

  it('reports bad lines with their line number and skips them', async () => {
    const lines = [
      DATASET[0] as string,
      '{not json',
      '',
      JSON.stringify({ id: 'n', target_provider: 'tidal', source: { title: 42, artist: 'A' }, candidates: [], truth: null }),
      line('dup', 'x1', ['x1', 'x1']),
      line('t', 'missing', ['t1']),
      JSON.stringify({ id: 'p', source: track('s', 'S'), candidates: [], truth: null }),
      JSON.stringify({ id: 'q', target_provider: 'tidal', source: track('s', 'S'), candidates: [{ title: 'no id', artist: 'A' }], truth: null }),
      DATASET[6] as string,
    ];
    const reported: [number, string][] = [];
    const summary: Summary = await evaluateLines(lines, { decide: scripted(DECISIONS).decide, onBadLine: (n, error) => reported.push([n, error]) });
    expect(reported.map(([n]) => n)).toEqual([2, 4, 5, 6, 7, 8]);
    expect(reported[0]?.[1]).toMatch(/invalid JSON/);
    expect(reported[1]?.[1]).toMatch(/^source: title/);
    expect(reported[2]?.[1]).toMatch(/duplicate candidate id/);
    expect(reported[3]?.[1]).toMatch(/not a candidate id/);
    expect(reported[4]?.[1]).toMatch(/target_provider/);
    expect(reported[5]?.[1]).toMatch(/needs an id/);
    expect(summary).toMatchObject({ cases: 2, bad_lines: 6, correct_accepts: 2, precision: 1 });
    expect(summary.bad_line_list[0]).toMatchObject({ line: 2 });
  });

  it('fills schema defaults and keys the warm graph by ISRC, else by normalized text', () => {
    const parsed = parseCaseLine(DATASET[0] as string);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.value.source).toMatchObject({ isrc: 'ZZAAA0000001', media_type: 'track', provider_metadata: {}, album: null });
    expect(sourceIdentity(parsed.value.source)).toBe('isrc:ZZAAA0000001');
    const noIsrc = parseCaseLine(line('z', null, [], { title: 'Café  Noir!', artist: 'Zoë' }));
    if (!noIsrc.ok) throw new Error(noIsrc.error);
    expect(sourceIdentity(noIsrc.value.source)).toBe('text:cafe noir|zoe|200');
  });
});

describe('bench:matching command', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('prints the summary as JSON on the last line, writes the decisions file and exits 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'opl-bench-matching-'));
    dirs.push(dir);
    const dataset = join(dir, 'cases.jsonl');
    await writeFile(dataset, `${DATASET.slice(0, 3).join('\n')}\nnot json\n`);
    const decisions = join(dir, 'decisions.jsonl');
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--no-node-snapshot', join(root, 'test/bench/matching.ts'), '--dataset', dataset, '--decisions', decisions], { cwd: root });
    expect(stderr).toContain(':4: skipped: invalid JSON');
    const last = stdout.trim().split('\n').at(-1) ?? '';
    const summary = JSON.parse(last) as Summary;
    expect(summary).toMatchObject({ cases: 3, bad_lines: 1, with_truth: 2 });
    expect(typeof summary.goals.met).toBe('boolean');
    const written = (await readFile(decisions, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(written.map((d) => d.id)).toEqual(['a', 'b', 'c']);
    for (const entry of written) {
      expect(Object.keys(entry)).toEqual(['id', 'decision', 'chosen', 'confidence']);
      expect(['accept', 'review', 'reject']).toContain(entry.decision);
    }
  });
});
