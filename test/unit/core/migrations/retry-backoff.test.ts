import { describe, expect, it } from 'vitest';
import { retryDelaySeconds } from '../../../../core/services/migrations/retry-backoff.ts';

const policy = { baseSeconds: 2, capSeconds: 600 };

describe('retry waits', () => {
  it("follow the provider's Retry-After to the second, whatever the attempt", () => {
    expect(retryDelaySeconds(7, 0, policy, () => 0.99)).toBe(7);
    expect(retryDelaySeconds(7, 9, policy, () => 0)).toBe(7);
    expect(retryDelaySeconds(2.2, 0, policy)).toBe(3);
  });

  it('cap a Retry-After that asks for too long, and never wait less than a second', () => {
    expect(retryDelaySeconds(86_400, 0, policy)).toBe(600);
    expect(retryDelaySeconds(0, 0, policy)).toBe(1);
  });

  it('without a hint, double with each attempt between half and all of the ceiling', () => {
    const low = [0, 1, 2, 3, 4].map((attempt) => retryDelaySeconds(null, attempt, policy, () => 0));
    const high = [0, 1, 2, 3, 4].map((attempt) => retryDelaySeconds(null, attempt, policy, () => 0.999_999));
    expect(low).toEqual([1, 2, 4, 8, 16]);
    expect(high).toEqual([2, 4, 8, 16, 32]);
  });

  it('spread jobs that failed together (jitter) and stay within the cap for any attempt', () => {
    const waits = new Set(Array.from({ length: 50 }, (_, index) => retryDelaySeconds(null, 6, policy, () => index / 50)));
    expect(waits.size).toBeGreaterThan(20);
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(64);
      expect(wait).toBeLessThanOrEqual(128);
    }
    expect(retryDelaySeconds(null, 1_000, policy, () => 0.999_999)).toBe(600);
    expect(retryDelaySeconds(null, 1_000, policy, () => 0)).toBe(300);
  });

  it('treat a nonsensical hint as no hint', () => {
    expect(retryDelaySeconds(Number.NaN, 0, policy, () => 0)).toBe(1);
    expect(retryDelaySeconds(-5, 2, policy, () => 0)).toBe(4);
  });
});
