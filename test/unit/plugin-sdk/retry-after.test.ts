import { describe, expect, it } from 'vitest';
import { retryAfterSeconds } from '@opl/plugin-sdk';

const NOW = '2026-11-21T12:00:00.000Z';

describe('retryAfterSeconds (Retry-After)', () => {
  it('reads delta-seconds, surrounding spaces allowed', () => {
    expect(retryAfterSeconds('12', NOW)).toBe(12);
    expect(retryAfterSeconds(' 0 ', NOW)).toBe(0);
    expect(retryAfterSeconds('999999999', NOW)).toBe(999_999_999);
  });

  it('reads an HTTP date against now, given as an ISO timestamp or milliseconds, and never goes below zero', () => {
    expect(retryAfterSeconds('Sat, 21 Nov 2026 12:01:00 GMT', NOW)).toBe(60);
    expect(retryAfterSeconds('Sat, 21 Nov 2026 12:00:30 GMT', Date.parse(NOW))).toBe(30);
    expect(retryAfterSeconds('Sat, 21 Nov 2026 12:00:00 GMT', Date.parse(NOW) + 500)).toBe(0);
    expect(retryAfterSeconds('Fri, 20 Nov 2026 12:00:00 GMT', NOW)).toBe(0);
  });

  it('gives null for no header, words, negative or absurd numbers, and an unreadable now', () => {
    expect(retryAfterSeconds(undefined, NOW)).toBeNull();
    expect(retryAfterSeconds('soon', NOW)).toBeNull();
    expect(retryAfterSeconds('-5', NOW)).toBeNull();
    expect(retryAfterSeconds('1.5', NOW)).toBeNull();
    expect(retryAfterSeconds('2026', NOW)).toBe(2026);
    expect(retryAfterSeconds('12345678901', NOW)).toBeNull();
    expect(retryAfterSeconds('Sat, 21 Nov 2026 12:01:00 GMT', 'not a time')).toBeNull();
    expect(retryAfterSeconds('Sat, 21 Nov 2026 12:01:00 GMT', Number.NaN)).toBeNull();
  });
});
