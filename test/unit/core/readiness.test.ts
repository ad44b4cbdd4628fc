import { describe, expect, it } from 'vitest';
import { runReadiness } from '../../../core/services/health/readiness.ts';

describe('runReadiness', () => {
  it('is ready when every check passes', async () => {
    expect(await runReadiness([{ name: 'a', check: async () => {} }])).toEqual({ status: 'ready', checks: { a: { status: 'up' } } });
  });

  it('reports each failing check with its reason', async () => {
    const result = await runReadiness([
      { name: 'db', check: async () => Promise.reject(new Error('connection refused')) },
      { name: 'ok', check: async () => {} },
    ]);
    expect(result.status).toBe('not_ready');
    expect(result.checks['db']).toEqual({ status: 'down', detail: 'connection refused' });
  });

  it('bounds a hung check by the timeout', async () => {
    const result = await runReadiness([{ name: 'slow', check: () => new Promise(() => {}) }], 50);
    expect(result.checks['slow']).toEqual({ status: 'down', detail: 'no answer within 50 ms' });
  });
});
