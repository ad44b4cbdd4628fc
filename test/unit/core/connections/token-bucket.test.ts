import { describe, expect, it } from 'vitest';
import { freshBucket, takeToken, type BucketRules } from '../../../../core/services/pacing/token-bucket.ts';

const rules: BucketRules = { rate: 2, burst: 3, dailyQuota: null };
const at = (ms: number) => new Date(Date.UTC(2026, 10, 21, 12, 0, 0) + ms);

describe('token bucket', () => {
  it('grants a burst, then asks to wait for the refill', () => {
    let state = freshBucket(rules, at(0));
    for (let index = 0; index < 3; index++) {
      const outcome = takeToken(state, rules, 1, at(0));
      expect(outcome.kind).toBe('granted');
      state = outcome.next;
    }
    const blocked = takeToken(state, rules, 1, at(0));
    expect(blocked).toMatchObject({ kind: 'wait', waitMs: 500 });
    expect(takeToken(blocked.next, rules, 1, at(500)).kind).toBe('granted');
  });

  it('never refills beyond the burst', () => {
    const state = { ...freshBucket(rules, at(0)), tokens: 0 };
    const outcome = takeToken(state, rules, 1, at(3_600_000));
    expect(outcome.kind).toBe('granted');
    expect(outcome.next.tokens).toBe(2);
  });

  it('honours Retry-After for everyone sharing the bucket', () => {
    const state = freshBucket(rules, at(0));
    const blocked = takeToken(state, rules, 1, at(0), 7);
    expect(blocked).toMatchObject({ kind: 'wait', waitMs: 7_000 });
    // A later caller without a Retry-After of its own still waits for the rest of the block.
    expect(takeToken(blocked.next, rules, 1, at(2_000))).toMatchObject({ kind: 'wait', waitMs: 5_000 });
    expect(takeToken(blocked.next, rules, 1, at(7_000)).kind).toBe('granted');
  });

  it('a shorter Retry-After never shortens a longer block', () => {
    const blocked = takeToken(freshBucket(rules, at(0)), rules, 1, at(0), 30).next;
    expect(takeToken(blocked, rules, 1, at(1_000), 2)).toMatchObject({ kind: 'wait', waitMs: 29_000 });
  });

  it('counts the daily quota in cost units and reports exhaustion until UTC midnight', () => {
    const quota: BucketRules = { rate: 100, burst: 100, dailyQuota: 120 };
    let state = freshBucket(quota, at(0));
    const first = takeToken(state, quota, 100, at(0));
    expect(first.kind).toBe('granted');
    state = first.next;
    const second = takeToken(state, quota, 50, at(1_000));
    expect(second.kind).toBe('quota_exhausted');
    if (second.kind === 'quota_exhausted') expect(second.resetsAt.toISOString()).toBe('2026-11-22T00:00:00.000Z');
    // A new UTC day starts from zero.
    expect(takeToken(second.next, quota, 50, new Date('2026-11-22T00:00:01Z')).kind).toBe('granted');
  });
});
