import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_OWNER_SECRET as SECRET, SESSION_GATE_ENV, startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Failed sign-ins are throttled per client address, per account and per remembered device, in
 * PostgreSQL: parallel guesses queue behind growing delays and then meet a lockout that says until
 * when; a lockout ends (and the next one lasts longer); a device that signed in before is never
 * locked out by guesses from elsewhere. The clock the throttle reads is the test's.
 */

type Answer = { statusCode: number; headers: Record<string, unknown>; json<T>(): T };
type Problem = { code: string; locked_until?: string };

let clock = new Date('2026-11-29T10:00:00Z');
const advance = (ms: number) => (clock = new Date(clock.getTime() + ms));

function deviceCookie(answer: Answer): string {
  const header = answer.headers['set-cookie'];
  const text = Array.isArray(header) ? header.join('\n') : typeof header === 'string' ? header : '';
  const match = /opl_device=([^;]+)/.exec(text);
  if (!match) throw new Error(`no device cookie in ${text}`);
  return `opl_device=${match[1]}`;
}

const codes = (answers: Answer[]) => answers.map((answer) => (answer.statusCode === 204 ? 'ok' : answer.json<Problem>().code));
const count = (list: string[], code: string) => list.filter((entry) => entry === code).length;

describe('owner secret: failed sign-ins slow down, then lock out', () => {
  let t: TestApp;
  const login = (secret: string, remoteAddress: string, cookie?: string): Promise<Answer> =>
    t.app.http!.inject({ method: 'POST', url: '/api/session', payload: { secret }, remoteAddress, ...(cookie ? { headers: { cookie } } : {}) });

  beforeAll(async () => {
    t = await startTestApp(SESSION_GATE_ENV, { http: true, worker: false }, { signInClock: () => clock });
  });
  afterAll(() => t.close());

  it('30 parallel guesses from one address: 10 are checked (the later ones after growing waits), 20 meet a lockout that says until when', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => login(`wrong guess number ${index}`, '203.0.113.7')));
    const found = codes(answers);
    expect(count(found, 'invalid_owner_secret')).toBe(10);
    expect(count(found, 'sign_in_locked')).toBe(20);
    const locked = answers.find((answer) => answer.statusCode === 429)!;
    expect(locked.json<Problem>().locked_until).toBe(new Date(clock.getTime() + 60_000).toISOString());
    expect(locked.headers['retry-after']).toBe('60');
    // During the lockout even the right secret is refused unchecked, and no session is made.
    const right = await login(SECRET, '203.0.113.7');
    expect(right.statusCode).toBe(429);
    expect(right.headers['set-cookie']).toBeUndefined();
  }, 60_000);

  it('another address is not locked by that one, and signs in', async () => {
    expect((await login(SECRET, '198.51.100.20')).statusCode).toBe(204);
  });

  it('the lockout ends; the next one in a row lasts twice as long', async () => {
    advance(61_000);
    expect((await login('wrong again', '203.0.113.7')).json<Problem>().code).toBe('invalid_owner_secret');
    const answers = await Promise.all(Array.from({ length: 10 }, (_, index) => login(`wrong again ${index}`, '203.0.113.7')));
    const found = codes(answers);
    expect(count(found, 'invalid_owner_secret')).toBe(9);
    expect(count(found, 'sign_in_locked')).toBe(1);
    expect(answers.find((answer) => answer.statusCode === 429)!.json<Problem>().locked_until).toBe(new Date(clock.getTime() + 120_000).toISOString());
    advance(121_000);
    expect((await login(SECRET, '203.0.113.7')).statusCode).toBe(204);
  }, 60_000);

  it('guesses spread over many addresses lock the account, but not a device that signed in before', async () => {
    advance(16 * 60_000);
    const device = deviceCookie(await login(SECRET, '192.0.2.50'));
    // Five guesses from each of 11 addresses: no address waits or locks, the account does (after 50).
    const answers = await Promise.all(Array.from({ length: 55 }, (_, index) => login(`spread guess ${index}`, `10.9.${Math.floor(index / 5)}.1`)));
    expect(count(codes(answers), 'sign_in_locked')).toBe(5);
    // A fresh address has no device: the account lock applies, unchecked.
    expect((await login(SECRET, '192.0.2.99')).json<Problem>().code).toBe('sign_in_locked');
    // The real user's device is counted on its own: it signs in.
    const again = await login(SECRET, '192.0.2.50', device);
    expect(again.statusCode).toBe(204);
    // A forged or foreign device cookie is no device.
    expect((await login(SECRET, '192.0.2.50', 'opl_device=forged-device-token')).json<Problem>().code).toBe('sign_in_locked');
  }, 120_000);

  it('forgets quiet keys and expired devices in the hourly maintenance, keeping running lockouts', async () => {
    const rows = async () => {
      const [row] = await t.app.services.database.orm.em.getConnection().execute<{ n: number }[]>('select count(*)::int as n from sign_in_throttle');
      return Number(row?.n);
    };
    expect(await rows()).toBeGreaterThan(0);
    const before = await rows();
    await t.app.services.signInThrottle.purge();
    expect(await rows()).toBe(before);
    advance(25 * 60 * 60_000);
    await t.app.services.signInThrottle.purge();
    expect(await rows()).toBe(0);
  });

  it('never writes a secret, session or device token to the logs', () => {
    const logs = t.logs.join('\n');
    expect(logs).not.toContain(SECRET);
    expect(logs).not.toMatch(/opl_device=/);
    expect(logs).toContain('sign-in failed');
  });
});

describe('admin token (hosted): wrong tokens are counted, right ones never are', () => {
  const TOKEN = 'admin-token-for-throttle-tests-0123456789';
  let t: TestApp;
  const admin = (token: string, remoteAddress: string): Promise<Answer> => t.app.http!.inject({ method: 'GET', url: '/api/admin/plugins', headers: { authorization: `Bearer ${token}` }, remoteAddress });

  beforeAll(async () => {
    t = await startTestApp({ OPL_DEPLOYMENT_MODE: 'hosted', OPL_ADMIN_TOKEN: TOKEN }, { http: true, worker: false }, { signInClock: () => clock });
  });
  afterAll(() => t.close());

  it('automation may send the right token many times at once', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => admin(TOKEN, '198.51.100.5')));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array.from({ length: 40 }, () => 200));
  });

  it('wrong tokens from one address lock it out, with the time; other addresses keep working', async () => {
    const answers = await Promise.all(Array.from({ length: 11 }, (_, index) => admin(`wrong-token-${index}-0000000000000000`, '203.0.113.66')));
    const found = answers.map((answer) => answer.json<Problem>().code);
    expect(count(found, 'admin_token_required')).toBe(10);
    expect(count(found, 'sign_in_locked')).toBe(1);
    expect((await admin(TOKEN, '203.0.113.66')).json<Problem>().code).toBe('sign_in_locked');
    expect((await admin(TOKEN, '198.51.100.5')).statusCode).toBe(200);
  }, 60_000);
});
