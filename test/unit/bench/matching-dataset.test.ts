import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCaseLine } from '../../bench/matching/evaluate.ts';
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

  it('has at least 2,000 source tracks in the main dataset', () => {
    expect(PROFILES.dataset.cases).toBeGreaterThanOrEqual(2_000);
  });
});
