import { describe, expect, it } from 'vitest';
import { ACCOUNT_RULE, ADDRESS_RULE, delayFor, lockoutFor } from '../../../../core/services/sign-in/index.ts';

describe('sign-in throttle rules', () => {
  it('lets the free attempts through at once, then doubles the wait up to 10 s', () => {
    expect([1, 5, 6, 7, 8, 9, 10, 30].map((attempt) => delayFor(attempt, ADDRESS_RULE))).toEqual([0, 0, 500, 1000, 2000, 4000, 8000, 10_000]);
    expect(delayFor(20, ACCOUNT_RULE)).toBe(0);
    expect(delayFor(21, ACCOUNT_RULE)).toBe(500);
  });

  it('doubles lockouts in a row but never past the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 50].map((before) => lockoutFor(before, ADDRESS_RULE) / 60_000)).toEqual([1, 2, 4, 8, 15, 15, 15]);
    expect([0, 1, 2].map((before) => lockoutFor(before, ACCOUNT_RULE) / 60_000)).toEqual([5, 10, 15]);
  });
});
