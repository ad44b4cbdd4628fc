import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_OWNER_SECRET as SECRET, SESSION_GATE_ENV, startTestApp, type TestApp } from '../support/test-app.ts';

function sessionCookie(setCookie: string | string[] | undefined): string {
  const header = Array.isArray(setCookie) ? setCookie.join('\n') : (setCookie ?? '');
  const match = /opl_session=([^;]+)/.exec(header);
  if (!match) throw new Error(`no session cookie in ${header}`);
  return `opl_session=${match[1]}`;
}

describe('owner-session gate (OPL_PUBLIC_BASE_URL set)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(SESSION_GATE_ENV);
  });
  afterAll(() => t.close());

  it('refuses private API routes without a session, but keeps probes public', async () => {
    const me = await t.app.http!.inject({ method: 'GET', url: '/api/me' });
    expect(me.statusCode).toBe(401);
    expect(me.json<{ code: string }>().code).toBe('session_required');
    expect((await t.app.http!.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await t.app.http!.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await t.app.http!.inject({ method: 'GET', url: '/openapi.json' })).statusCode).toBe(200);
  });

  it('never trusts a user id from the query string', async () => {
    const me = await t.app.http!.inject({ method: 'GET', url: '/api/me?user_id=local&owner_id=local' });
    expect(me.statusCode).toBe(401);
  });

  it('refuses a wrong secret', async () => {
    const response = await t.app.http!.inject({ method: 'POST', url: '/api/session', payload: { secret: 'wrong secret entirely' } });
    expect(response.statusCode).toBe(401);
    expect(response.json<{ code: string }>().code).toBe('invalid_owner_secret');
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('logs in with the owner secret, acts as the owner, then logs out for good', async () => {
    const login = await t.app.http!.inject({ method: 'POST', url: '/api/session', payload: { secret: SECRET } });
    expect(login.statusCode).toBe(204);
    const setCookie = String(login.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Secure/);
    const cookie = sessionCookie(login.headers['set-cookie']);

    const me = await t.app.http!.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ owner_id: 'local', deployment_mode: 'self_host', session: { required: true, authenticated: true, sign_in: 'owner_secret' }, user: null, recipient: null });

    const stored = await t.app.services.database.orm.em.getConnection().execute<Array<{ token_hash: string }>>('select token_hash from owner_session');
    expect(stored).toHaveLength(1);
    expect(cookie).not.toContain(stored[0]!.token_hash);

    const logout = await t.app.http!.inject({ method: 'DELETE', url: '/api/session', headers: { cookie } });
    expect(logout.statusCode).toBe(204);
    expect(String(logout.headers['set-cookie'])).toMatch(/opl_session=;/);
    const after = await t.app.http!.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(after.statusCode).toBe(401);
  });

  it('refuses a state-changing request from another origin', async () => {
    const response = await t.app.http!.inject({ method: 'POST', url: '/api/session', headers: { origin: 'https://evil.test' }, payload: { secret: SECRET } });
    expect(response.statusCode).toBe(403);
    expect(response.json<{ code: string }>().code).toBe('cross_origin_request');
  });

  it('never writes the owner secret or a session token to the logs', async () => {
    const login = await t.app.http!.inject({ method: 'POST', url: '/api/session', payload: { secret: SECRET } });
    const token = sessionCookie(login.headers['set-cookie']).split('=')[1]!;
    await t.app.http!.inject({ method: 'GET', url: '/api/me', headers: { cookie: `opl_session=${token}` } });
    const logs = t.logs.join('');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(SECRET);
    expect(logs).not.toContain(token);
  });
});

describe('self-host without a public base URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('acts for the local owner without a login', async () => {
    const me = await t.app.http!.inject({ method: 'GET', url: '/api/me' });
    expect(me.json()).toEqual({ owner_id: 'local', deployment_mode: 'self_host', session: { required: false, authenticated: false, sign_in: 'none' }, user: null, recipient: null });
  });

  it('has nothing to log in to', async () => {
    const response = await t.app.http!.inject({ method: 'POST', url: '/api/session', payload: { secret: 'anything at all' } });
    expect(response.statusCode).toBe(404);
  });
});

describe('hosted mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ OPL_DEPLOYMENT_MODE: 'hosted' });
  });
  afterAll(() => t.close());

  it('resolves no owner until user authentication is configured', async () => {
    const me = await t.app.http!.inject({ method: 'GET', url: '/api/me' });
    expect(me.json()).toEqual({ owner_id: null, deployment_mode: 'hosted', session: { required: false, authenticated: false, sign_in: 'none' }, user: null, recipient: null });
  });
});
