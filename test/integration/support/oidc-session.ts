import type { TestIdp } from '../../fakes/oidc/oidc-test-provider.ts';
import { TEST_IDP_CLIENT_ID, TEST_IDP_CLIENT_SECRET } from '../../fakes/oidc/oidc-test-provider.ts';
import type { TestApp } from './test-app.ts';

/** The public base URL of hosted test engines; the OpenID provider redirects back under it. */
export const HOSTED_BASE_URL = 'https://music.example.test';
export const OIDC_REDIRECT_URI = `${HOSTED_BASE_URL}/api/auth/oidc/callback`;

/** The environment of a hosted engine whose users sign in at the test provider. */
export function hostedOidcEnv(idp: TestIdp, extra: Record<string, string> = {}): Record<string, string> {
  return {
    OPL_DEPLOYMENT_MODE: 'hosted',
    OPL_PUBLIC_BASE_URL: HOSTED_BASE_URL,
    OPL_OIDC_ISSUER: idp.issuer,
    OPL_OIDC_CLIENT_ID: TEST_IDP_CLIENT_ID,
    OPL_OIDC_CLIENT_SECRET: TEST_IDP_CLIENT_SECRET,
    ...extra,
  };
}

type Answer = { statusCode: number; headers: Record<string, unknown>; json<T>(): T };

export function cookieFrom(answer: Answer, name: string): string | undefined {
  const header = answer.headers['set-cookie'];
  const lines = Array.isArray(header) ? (header as string[]) : typeof header === 'string' ? [header] : [];
  for (const line of lines) {
    const match = new RegExp(`^${name}=([^;]*)`).exec(line);
    if (match && match[1] !== '') return `${name}=${match[1]}`;
  }
  return undefined;
}

/** A browser's way through a sign-in: the login redirect, the provider, and the callback URL it comes back with. */
export async function beginSignIn(t: TestApp, idp: TestIdp, subject: string): Promise<{ attemptCookie: string; callback: URL }> {
  const login = await t.app.http!.inject({ method: 'GET', url: '/api/auth/oidc/login' });
  if (login.statusCode !== 302) throw new Error(`login answered ${login.statusCode}: ${login.body}`);
  const attemptCookie = cookieFrom(login, 'opl_oidc_attempt');
  if (!attemptCookie) throw new Error('no attempt cookie');
  idp.nextUser = subject;
  const callback = await idp.authorize(String(login.headers.location));
  return { attemptCookie, callback };
}

let addresses = 0;

/**
 * The provider's redirect back, from the browser. Each call comes from its own client address
 * unless one is given, so the failures a test provokes on purpose do not add up in the sign-in
 * throttle of the next test.
 */
export function finishSignIn(t: TestApp, callback: URL, attemptCookie: string | undefined, remoteAddress = `10.77.${Math.floor(++addresses / 250)}.${addresses % 250}`) {
  return t.app.http!.inject({ method: 'GET', url: `${callback.pathname}${callback.search}`, remoteAddress, ...(attemptCookie ? { headers: { cookie: attemptCookie } } : {}) });
}

/** Signs `subject` in end to end; returns the session cookie (`opl_session=…`). */
export async function signInAs(t: TestApp, idp: TestIdp, subject: string): Promise<string> {
  const { attemptCookie, callback } = await beginSignIn(t, idp, subject);
  const done = await finishSignIn(t, callback, attemptCookie);
  const session = cookieFrom(done, 'opl_session');
  if (done.statusCode !== 302 || !session) throw new Error(`sign-in of ${subject} answered ${done.statusCode}: ${JSON.stringify(done.json())}`);
  return session;
}
