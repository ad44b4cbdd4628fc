import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SignInAttempt, SignInKind, SignInThrottle } from '../../services/sign-in/index.ts';
import { AppError } from '../errors/index.ts';

/**
 * The HTTP side of the sign-in throttle (services/sign-in): who is signing in (client address,
 * device cookie), the lockout answer (429 `sign_in_locked`, saying until when, with Retry-After),
 * the growing wait before a secret is checked, and the device cookie a success hands out.
 */

/** Names a device that signed in before; HttpOnly, sent only to the API. */
export const DEVICE_COOKIE = 'opl_device';
/** Every failed attempt is answered no sooner than this, whatever the throttle says. */
export const FAILED_SIGN_IN_DELAY_MS = 400;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function signInAttempt(request: FastifyRequest, kind: SignInKind, account: string): SignInAttempt {
  return { kind, account, address: request.ip, deviceToken: request.cookies[DEVICE_COOKIE] };
}

export function lockedOut(until: Date, now: Date): AppError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return new AppError('sign_in_locked', `Too many failed sign-in attempts. Try again after ${until.toISOString()}.`, { extensions: { locked_until: until.toISOString() }, headers: { 'retry-after': String(seconds) } });
}

/**
 * Signs in with a secret a person types (the owner secret) or an answer a browser brings back (an
 * OpenID provider's callback, checked asynchronously): the attempt is counted before the
 * secret is checked, waits its turn, and on success resets the count. Answers whether the secret
 * was right, and on success `remember` sets the device cookie (call it after the session cookie:
 * clients that read only the first cookie get the session). A wrong secret has waited at least
 * FAILED_SIGN_IN_DELAY_MS.
 */
export async function throttledSignIn(request: FastifyRequest, throttle: SignInThrottle, attempt: SignInAttempt, check: () => boolean | Promise<boolean>): Promise<{ right: false } | { right: true; remember: (reply: FastifyReply, secureCookie: boolean) => void }> {
  const decision = await throttle.admit(attempt);
  if (!decision.admitted) throw lockedOut(decision.lockedUntil, throttle.now());
  if (decision.delayMs > 0) await sleep(decision.delayMs);
  if (!(await check())) {
    await sleep(FAILED_SIGN_IN_DELAY_MS);
    request.log.warn({ sign_in: attempt.kind }, 'sign-in failed');
    return { right: false };
  }
  const device = await throttle.succeeded(attempt, decision);
  return {
    right: true,
    remember: (reply, secureCookie) => void reply.setCookie(DEVICE_COOKIE, device.deviceToken, { path: '/api', httpOnly: true, sameSite: 'strict', secure: secureCookie, maxAge: device.maxAgeSeconds }),
  };
}

/**
 * Checks a secret sent with every request (the admin token of automation): a running lockout
 * refuses it unchecked; a wrong one is counted and answered after its wait (or starts a lockout);
 * a right one costs no bookkeeping, so automation may send many at once.
 */
export async function throttledTokenCheck(request: FastifyRequest, throttle: SignInThrottle, attempt: SignInAttempt, check: () => boolean): Promise<boolean> {
  const locked = await throttle.lockedUntil(attempt);
  if (locked) throw lockedOut(locked, throttle.now());
  if (check()) return true;
  const decision = await throttle.admit(attempt);
  if (!decision.admitted) throw lockedOut(decision.lockedUntil, throttle.now());
  await sleep(Math.max(FAILED_SIGN_IN_DELAY_MS, decision.delayMs));
  request.log.warn({ sign_in: attempt.kind }, 'sign-in failed');
  return false;
}
