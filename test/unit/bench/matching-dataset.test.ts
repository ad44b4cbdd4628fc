import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCaseLine } from '../../bench/matching/evaluate.ts';
import { generateHoldout2 } from '../../fixtures/matching/generate-holdout2.ts';
import { generateHoldout3 } from '../../fixtures/matching/generate-holdout3.ts';
import { generate, PROFILES } from '../../fixtures/matching/generate.ts';

const fixture = (name: string): string => readFileSync(fileURLToPath(new URL(`../../fixtures/matching/${name}`, import.meta.url)), 'utf8');

describe('matching datasets', () => {
  for (const profile of Object.values(PROFILES)) {
    it(`${profile.name}.jsonl is what the seeded generator writes, and every line is a valid case`, () => {
      const lines = generate(profile).map((c) => JSON.stringify(c));
      expect(`${lines.join('\n')}\n`).toBe(fixture(`${profile.name}.jsonl`));
      const cases = lines.map((l) => parseCaseLine(l));
      const bad = cases.filter((c) => !c.ok);
      expect(bad).toEqual([]);
      const ok = cases.flatMap((c) => (c.ok ? [c.value] : []));
      const video = ok.filter((c) => c.target_provider === 'youtube_music').length / ok.length;
      const none = ok.filter((c) => c.truth === null && c.target_provider !== 'youtube_music').length / ok.length;
      expect(video).toBeGreaterThan(0.1);
      expect(video).toBeLessThan(0.2);
      expect(none).toBeGreaterThan(0.18);
      expect(none).toBeLessThan(0.32);
      for (const c of ok) {
        expect(c.candidates.length).toBeGreaterThanOrEqual(3);
        expect(c.candidates.length).toBeLessThanOrEqual(8);
      }
    });
  }

  it('holdout2.jsonl is what the independent second generator writes: 1,500 valid cases with truths and no-truths', () => {
    const text = generateHoldout2();
    expect(text).toBe(fixture('holdout2.jsonl'));
    const cases = text.trim().split('\n').map((l) => parseCaseLine(l));
    expect(cases.filter((c) => !c.ok)).toEqual([]);
    const ok = cases.flatMap((c) => (c.ok ? [c.value] : []));
    expect(ok).toHaveLength(1_500);
    expect(ok.filter((c) => c.truth === null).length).toBeGreaterThan(200);
    expect(ok.filter((c) => c.target_provider === 'youtube_music').length).toBeGreaterThan(150);
    // Nothing shared with the main dataset's case ids.
    expect(ok.every((c) => c.id.startsWith('h2-'))).toBe(true);
  });

  it('holdout3.jsonl is what its generator writes: 1,500 valid cases, ids of its own', () => {
    const text = generateHoldout3();
    expect(text).toBe(fixture('holdout3.jsonl'));
    const cases = text.trim().split('\n').map((l) => parseCaseLine(l));
    expect(cases.filter((c) => !c.ok)).toEqual([]);
    const ok = cases.flatMap((c) => (c.ok ? [c.value] : []));
    expect(ok).toHaveLength(1_500);
    expect(ok.filter((c) => c.truth === null).length).toBeGreaterThan(200);
    expect(ok.every((c) => c.id.startsWith('h3-'))).toBe(true);
  });

  it('has at least 2,000 source tracks in the main dataset', () => {
    expect(PROFILES.dataset.cases).toBeGreaterThanOrEqual(2_000);
  });
});
