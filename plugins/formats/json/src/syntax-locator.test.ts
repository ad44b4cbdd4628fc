import { describe, expect, it } from 'vitest';
import { findSyntaxError } from './syntax-locator.ts';

describe('findSyntaxError', () => {
  it.each(['{}', '[]', ' [1, -2.5e+3, "a\\n\\u00e9", true, false, null, {"k": [{}]}] ', '"x"', '0'])('finds nothing wrong in %j', (text) => {
    expect(() => JSON.parse(text) as unknown).not.toThrow();
    expect(findSyntaxError(text)).toBe(-1);
  });

  it.each([
    ['', 0],
    ['[,]', 1],
    ['{"a" 1}', 5],
    ['{"a":1,}', 7],
    ['[1,2', 4],
    ['[1] x', 4],
    ['"abc', 4],
    ['["a\u0001"]', 3],
    ['["\\x"]', 2],
    ['tru', 0],
    ['[01]', 2],
    ['{1:2}', 1],
    ['[}', 1],
  ] as const)('places the error in %j at %i, as JSON.parse would', (text, index) => {
    expect(() => JSON.parse(text) as unknown).toThrow();
    expect(findSyntaxError(text)).toBe(index);
  });
});
