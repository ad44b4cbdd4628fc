import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findExcessiveNesting } from '../../../plugin-sdk/src/json-depth.ts';

/** The guard's rule spelled out unit by unit: strings skipped (a backslash escapes the next unit), brackets counted. */
function reference(text: string, maxDepth: number): number {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '"') {
      for (index++; index < text.length && text[index] !== '"'; index++) if (text[index] === '\\') index++;
    } else if (char === '[' || char === '{') {
      depth += 1;
      if (depth > maxDepth) return index;
    } else if (char === ']' || char === '}') {
      depth -= 1;
    }
  }
  return -1;
}

describe('findExcessiveNesting', () => {
  it('agrees with the unit-by-unit rule on any mix of brackets, quotes and backslashes', () => {
    const unit = fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ',', ':', '"\\"', '\\\\');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 120 }).map((units) => units.join('')), fc.integer({ min: 0, max: 6 }), (text, maxDepth) => {
        expect(findExcessiveNesting(text, maxDepth)).toBe(reference(text, maxDepth));
      }),
      { numRuns: 5_000 },
    );
  });

  it('skips brackets in strings, escaped quotes and backslash runs included', () => {
    expect(findExcessiveNesting('["[[[[", "\\"[[[", "\\\\", [[1]]]', 3)).toBe(-1);
    expect(findExcessiveNesting('["\\\\", [[[1]]]]', 3)).toBe(9);
    expect(findExcessiveNesting('["\\\\\\"[[[[", 1]', 1)).toBe(-1);
    expect(findExcessiveNesting('["unterminated [[[[', 1)).toBe(-1);
  });
});
