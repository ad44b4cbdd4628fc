import { describe, expect, it } from 'vitest';
import { buildProblem, ERROR_CATALOGUE, problemSchema } from '../../../core/http/errors/index.ts';
import { loggableUrl, requestIdFor } from '../../../core/http/request-context.ts';
import type { IncomingMessage } from 'node:http';

describe('error catalogue', () => {
  it('gives every code a status and a title, with stable snake_case codes', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.status).toBeLessThan(600);
      expect(entry.title.length).toBeGreaterThan(3);
    }
  });

  it('builds RFC 9457 problems that satisfy the published schema', () => {
    const problem = buildProblem('not_found', 'No job 42.', { instance: '/api/migrations/42', requestId: 'r-1' });
    expect(problem).toEqual({
      type: 'urn:opl:problem:not-found',
      title: 'Not found',
      status: 404,
      detail: 'No job 42.',
      code: 'not_found',
      instance: '/api/migrations/42',
      request_id: 'r-1',
    });
    expect(problemSchema.safeParse(problem).success).toBe(true);
  });

  it('keeps catalogue members when extensions try to override them', () => {
    const problem = buildProblem('conflict', 'x', { extensions: { status: 200, code: 'hacked', warnings: [1] } });
    expect(problem.status).toBe(409);
    expect(problem.code).toBe('conflict');
    expect(problem['warnings']).toEqual([1]);
  });
});

describe('request context', () => {
  const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

  it('reuses a safe incoming request id and replaces anything else', () => {
    expect(requestIdFor(request({ 'x-request-id': 'abc-123' }))).toBe('abc-123');
    const replaced = requestIdFor(request({ 'x-request-id': 'bad id\nInjected: yes' }));
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFor(request({ 'x-request-id': 'a'.repeat(500) }))).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('masks sensitive query values in logged URLs', () => {
    expect(loggableUrl('/auth/callback?code=SECRET&state=S2&provider=spotify')).toBe('/auth/callback?code=[REDACTED]&state=[REDACTED]&provider=spotify');
    expect(loggableUrl('/api/x?access_token=t1')).not.toContain('t1');
    expect(loggableUrl('/plain/path')).toBe('/plain/path');
  });
});
