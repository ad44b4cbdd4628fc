import { createHash, randomBytes } from 'node:crypto';
import type { SqlExecute } from '../../storage/sql/executors.ts';
import { countAttempt, deleteExpiredDevices, deleteStaleThrottles, forgetKeys, insertDevice, selectLiveDevice, selectRunningLockout, startLockout } from './sign-in-throttle.sql.ts';

/**
 * Slows down and then stops guessing of sign-in secrets (the owner secret, the admin token, and
 * later the OIDC callback), shared by every engine process through PostgreSQL.
 *
 * Each attempt is counted before the secret is checked, on two keys: the client address and the
 * account. Past a few free attempts, each further attempt waits longer before it is checked
 * (parallel guesses queue behind growing delays instead of being answered at once); past a limit,
 * the key is locked for a while, which the answer states (until when), and attempts during a
 * lockout are refused without being checked. Lockouts grow with each one in a row, up to a cap:
 * nobody is locked out for longer than that.
 *
 * An attacker spreading guesses over many addresses can still lock the account key; the real user
 * keeps signing in from a device that signed in before: a successful sign-in hands out a device
 * cookie (OWASP's "device cookies"), and attempts that carry a valid one are counted on that device
 * alone, never on the address or account. A success clears the keys it was counted on.
 */

export interface ThrottleRule {
  /** Attempts in a window that are checked without waiting. */
  readonly freeAttempts: number;
  /** The attempt after this many in a window starts a lockout. */
  readonly lockAfter: number;
  readonly windowMs: number;
  readonly firstLockoutMs: number;
  readonly maxLockoutMs: number;
}

const MINUTE = 60_000;
/** One client address: a person mistyping gets five tries at full speed. */
export const ADDRESS_RULE: ThrottleRule = { freeAttempts: 5, lockAfter: 10, windowMs: 15 * MINUTE, firstLockoutMs: MINUTE, maxLockoutMs: 15 * MINUTE };
/** One account from anywhere: looser (many people behind one proxy are many addresses' worth), same cap. */
export const ACCOUNT_RULE: ThrottleRule = { freeAttempts: 20, lockAfter: 50, windowMs: 15 * MINUTE, firstLockoutMs: 5 * MINUTE, maxLockoutMs: 15 * MINUTE };
/** A device that signed in before: as strict as an address. */
export const DEVICE_RULE: ThrottleRule = ADDRESS_RULE;
/** The first delay past the free attempts; each further attempt doubles it, up to the cap. */
export const FIRST_DELAY_MS = 500;
export const MAX_DELAY_MS = 10_000;
/** Lockouts in a row are forgotten after a day without attempts. */
const QUIET_RESET_MS = 24 * 60 * MINUTE;
const DEVICE_LIFETIME_MS = 180 * 24 * 60 * MINUTE;

export type SignInKind = 'owner_secret' | 'admin_token' | 'oidc';

export interface SignInAttempt {
  readonly kind: SignInKind;
  /** Which account the secret opens (`owner`, `admin`, an OIDC subject). */
  readonly account: string;
  readonly address: string;
  /** The device cookie the request carried, if any. */
  readonly deviceToken: string | undefined;
}

/** Admitted: check the secret after `delayMs`; report the outcome with `succeeded` (or nothing on failure). */
export type ThrottleDecision = { readonly admitted: true; readonly delayMs: number; readonly keys: readonly string[] } | { readonly admitted: false; readonly lockedUntil: Date };

export interface SignInThrottleOptions {
  readonly execute: SqlExecute;
  readonly clock?: () => Date;
}

const hash = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

export function delayFor(attempts: number, rule: ThrottleRule): number {
  if (attempts <= rule.freeAttempts) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (attempts - rule.freeAttempts - 1));
}

export function lockoutFor(lockoutsBefore: number, rule: ThrottleRule): number {
  return Math.min(rule.maxLockoutMs, rule.firstLockoutMs * 2 ** Math.min(lockoutsBefore, 20));
}

export class SignInThrottle {
  readonly #execute: SqlExecute;
  readonly #clock: () => Date;

  constructor(options: SignInThrottleOptions) {
    this.#execute = options.execute;
    this.#clock = options.clock ?? (() => new Date());
  }

  /** The keys an attempt counts on, with their rules: its device if known, else its address and account. */
  async #keys(attempt: SignInAttempt, now: Date): Promise<[string, ThrottleRule][]> {
    const subject = `${attempt.kind}:${attempt.account}`;
    const device = attempt.deviceToken && attempt.deviceToken.length <= 256 ? hash(`device:${attempt.deviceToken}`) : null;
    const knownDevice = device !== null && (await this.#execute(selectLiveDevice(device, subject, now))).length > 0;
    return knownDevice ? [[hash(`${subject}:device:${device}`), DEVICE_RULE]] : [[hash(`${subject}:address:${attempt.address}`), ADDRESS_RULE], [hash(`${subject}:account`), ACCOUNT_RULE]];
  }

  /**
   * Whether a lockout runs for this attempt, counting nothing: for secrets checked on every
   * request (the admin token of automation), where only failures are counted (`admit` after one).
   */
  async lockedUntil(attempt: SignInAttempt): Promise<Date | null> {
    const now = this.#clock();
    const [row] = await this.#execute(selectRunningLockout((await this.#keys(attempt, now)).map(([key]) => key), now));
    return row?.['locked_until'] ? new Date(row['locked_until'] as string | Date) : null;
  }

  /** Counts the attempt and says whether (and after how long) its secret may be checked. */
  async admit(attempt: SignInAttempt): Promise<ThrottleDecision> {
    const now = this.#clock();
    const keys = await this.#keys(attempt, now);
    let delayMs = 0;
    const locks: Date[] = [];
    for (const [key, rule] of keys) {
      const [row] = await this.#execute(countAttempt(key, now, new Date(now.getTime() - rule.windowMs), new Date(now.getTime() - QUIET_RESET_MS)));
      const attempts = Number(row?.['attempts'] ?? 1);
      const running = row?.['locked_until'] ? new Date(row['locked_until'] as string | Date) : null;
      let until = running !== null && running > now ? running : null;
      if (until === null && attempts > rule.lockAfter) {
        const [lock] = await this.#execute(startLockout(key, now, new Date(now.getTime() + lockoutFor(Number(row?.['lockouts'] ?? 0), rule))));
        until = new Date(lock!['locked_until'] as string | Date);
      }
      if (until !== null) {
        // Refused unchecked, so not a guess: the keys after this one (the account) do not count it.
        locks.push(until);
        break;
      }
      delayMs = Math.max(delayMs, delayFor(attempts, rule));
    }
    if (locks.length > 0) return { admitted: false, lockedUntil: new Date(Math.max(...locks.map((lock) => lock.getTime()))) };
    return { admitted: true, delayMs, keys: keys.map(([key]) => key) };
  }

  /** The time the throttle goes by (a Retry-After is counted from it). */
  now(): Date {
    return this.#clock();
  }

  /** A correct secret: the keys start again, and the device gets (or keeps) its cookie. */
  async succeeded(attempt: SignInAttempt, decision: Extract<ThrottleDecision, { admitted: true }>): Promise<{ deviceToken: string; maxAgeSeconds: number }> {
    await this.#execute(forgetKeys(decision.keys));
    const token = randomBytes(32).toString('base64url');
    const now = this.#clock();
    await this.#execute(insertDevice(hash(`device:${token}`), `${attempt.kind}:${attempt.account}`, now, new Date(now.getTime() + DEVICE_LIFETIME_MS)));
    return { deviceToken: token, maxAgeSeconds: Math.floor(DEVICE_LIFETIME_MS / 1000) };
  }

  /** Deletes bookkeeping nobody needs any more (keys quiet for a day, expired devices). */
  async purge(): Promise<void> {
    const now = this.#clock();
    await this.#execute(deleteStaleThrottles(new Date(now.getTime() - QUIET_RESET_MS), now));
    await this.#execute(deleteExpiredDevices(now));
  }
}
