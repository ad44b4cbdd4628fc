import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_OWNER_SECRET, SESSION_GATE_ENV, startTestApp, type TestApp } from '../support/test-app.ts';

describe('problem+json errors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(SESSION_GATE_ENV);
  });
  afterAll(() => t.close());

  it('answers an unknown route with a 404 problem carrying a stable code and the request id', async () => {
    const response = await t.app.http!.inject({ method: 'GET', url: '/nope?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = response.json<Record<string, unknown>>();
    expect(problem).toMatchObject({ type: 'urn:opl:problem:not-found', status: 404, code: 'not_found', instance: '/nope' });
    expect(problem['request_id']).toBe(response.headers['x-request-id']);
  });

  it('answers a request the HTTP parser refuses with problem+json saying what to do (a raw é in the URL, huge headers)', async () => {
    const { port } = t.app.http!.server.address() as AddressInfo;
    const raw = (request: Buffer) =>
      new Promise<string>((resolve, reject) => {
        const chunks: Buffer[] = [];
        const socket = connect(port, '127.0.0.1', () => socket.write(request));
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('error', reject);
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      });
    const split = (answer: string) => {
      const [head, body] = answer.split('\r\n\r\n', 2) as [string, string];
      return { status: head.split('\r\n')[0], head: head.toLowerCase(), problem: JSON.parse(body) as Record<string, unknown> };
    };
    const unencoded = split(await raw(Buffer.concat([Buffer.from('POST /api/imports/preview?filename='), Buffer.from('été.m3u', 'utf8'), Buffer.from(' HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n')])));
    expect(unencoded.status).toBe('HTTP/1.1 400 Bad Request');
    expect(unencoded.head).toContain('content-type: application/problem+json');
    expect(unencoded.problem).toMatchObject({ type: 'urn:opl:problem:malformed-request', status: 400, code: 'malformed_request', detail: expect.stringContaining('percent-encode') as unknown });
    const huge = split(await raw(Buffer.from(`GET /healthz HTTP/1.1\r\nHost: x\r\nCookie: ${'a'.repeat(20_000)}\r\n\r\n`)));
    expect(huge.status).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(huge.problem).toMatchObject({ code: 'request_headers_too_large', status: 431 });
    const garbage = split(await raw(Buffer.from('NOT HTTP AT ALL\r\n\r\n')));
    expect(garbage.problem).toMatchObject({ code: 'malformed_request', status: 400 });
  });

  it('lists field-level problems of an invalid body', async () => {
    const response = await t.app.http!.inject({ method: 'POST', url: '/api/session', payload: { secret: '', extra: 1 } });
    expect(response.statusCode).toBe(400);
    const problem = response.json<{ code: string; errors: Array<{ path: string; message: string }> }>();
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors.length).toBeGreaterThan(0);
    expect(problem.errors.map((e) => e.path).join()).toMatch(/body/);
    // A body of the wrong shape as a whole is named `body`, not `body.`.
    const whole = await t.app.http!.inject({ method: 'POST', url: '/api/session', headers: { 'content-type': 'application/json' }, payload: '[]' });
    expect(whole.statusCode).toBe(400);
    expect(whole.json<{ errors: Array<{ path: string }>; detail: string }>().errors.map((e) => e.path)).toEqual(['body']);
    expect(whole.json<{ detail: string }>().detail).toMatch(/^body: /);
  });

  it('refuses malformed JSON, a wrong content type and an oversized body with clear codes', async () => {
    const malformed = await t.app.http!.inject({ method: 'POST', url: '/api/session', headers: { 'content-type': 'application/json' }, payload: '{"secret":' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json<{ code: string; detail: string }>()).toMatchObject({ code: 'malformed_body', detail: 'The request body is not valid JSON: it ends before the value is complete.' });
    const misplaced = await t.app.http!.inject({ method: 'POST', url: '/api/session', headers: { 'content-type': 'application/json' }, payload: '{"secret" 1}' });
    expect(misplaced.json<{ code: string; detail: string }>()).toMatchObject({ code: 'malformed_body', detail: 'The request body is not valid JSON (at character 10).' });
    // Valid JSON with a prototype-reaching key is refused for what it is, not as a syntax error; the body is never quoted back.
    for (const payload of ['{"__proto__":{"admin":true},"secret":"x"}', '{"constructor":{"prototype":{"admin":true}}}']) {
      const polluting = await t.app.http!.inject({ method: 'POST', url: '/api/session', headers: { 'content-type': 'application/json' }, payload });
      expect(polluting.statusCode).toBe(400);
      expect(polluting.json<{ code: string; detail: string }>()).toMatchObject({ code: 'malformed_body', detail: expect.stringMatching(/"__proto__" key or a "constructor" with a "prototype"/) });
    }
    const quoted = await t.app.http!.inject({ method: 'POST', url: '/api/session', headers: { 'content-type': 'application/json' }, payload: '{"secret": tok_very_secret}' });
    expect(quoted.json<{ detail: string }>().detail).not.toContain('tok_very');

    const wrongType = await t.app.http!.inject({ method: 'POST', url: '/api/session', headers: { 'content-type': 'text/csv' }, payload: 'a,b' });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json<{ code: string }>().code).toBe('unsupported_media_type');

    const huge = await t.app.http!.inject({ method: 'POST', url: '/api/session', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ secret: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json<{ code: string }>().code).toBe('payload_too_large');
  });

  it('hides internals of a server error and logs them instead', async () => {
    // Break the storage under the running app: the login's insert now fails inside PostgreSQL.
    await t.app.services.database.orm.em.getConnection().execute('alter table owner_session rename to owner_session_gone');
    try {
      const response = await t.app.http!.inject({ method: 'POST', url: '/api/session', payload: { secret: GATE_OWNER_SECRET } });
      expect(response.statusCode).toBe(500);
      const text = response.body;
      expect(response.json<{ code: string }>().code).toBe('internal_error');
      expect(text).not.toMatch(/owner_session|relation|insert|stack|\.ts:/i);
      expect(t.logs.join('')).toMatch(/owner_session/);
    } finally {
      await t.app.services.database.orm.em.getConnection().execute('alter table owner_session_gone rename to owner_session');
    }
  });
});
