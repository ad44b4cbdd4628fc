import { describe, expect, it } from 'vitest';
import { guardFormula, needsFormulaGuard, unguardFormula } from '../../../plugin-sdk/src/format-kit/formula-guard.ts';

describe('formula guard', () => {
  it.each(['=SUM(A1:A2)', '+1', '-1', '@cmd', '\tx', '\rx', '  =1+1', ' @x', '\u00a0-x'])('prefixes an apostrophe to %j', (value) => {
    expect(needsFormulaGuard(value)).toBe(true);
    expect(guardFormula(value)).toBe(`'${value}`);
  });

  it.each(['Title', '', '   ', '1=1', 'a-b', "'Til Tuesday", ' \'=x', '#hashtag', '€uro'])('leaves %j alone', (value) => {
    expect(guardFormula(value)).toBe(value);
    expect(unguardFormula(value)).toBe(value);
  });

  it('strips exactly the apostrophe it added on read', () => {
    expect(unguardFormula("'=SUM(A1:A2)")).toBe('=SUM(A1:A2)');
    expect(unguardFormula("'-1")).toBe('-1');
    expect(unguardFormula("'  @x")).toBe('  @x');
    // Not added by the guard: the rest would not start a formula.
    expect(unguardFormula("'Til Tuesday")).toBe("'Til Tuesday");
  });

  it('keeps values that already start with apostrophes reversible', () => {
    expect(guardFormula("'=x")).toBe("''=x");
    expect(guardFormula("'''-x")).toBe("''''-x");
    for (const value of ["'=x", "''=x", "'''-x", "'x", "''", "'", '=x', "'@", "' =x"]) {
      expect(unguardFormula(guardFormula(value))).toBe(value);
    }
  });

  it('handles a very long run of apostrophes without recursion', () => {
    const value = `${"'".repeat(200_000)}=x`;
    expect(unguardFormula(guardFormula(value))).toBe(value);
  });
});
