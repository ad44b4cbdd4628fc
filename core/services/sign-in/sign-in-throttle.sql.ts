import type { SqlStatement } from '../../storage/sql/executors.ts';

/**
 * Counts one attempt on a key, atomically (parallel attempts each get their own number). The
 * count starts again when the window has passed or a lockout has ended; a running lockout keeps
 * its count (attempts during it are refused without counting). Lockouts in a row are forgotten
 * after a quiet period. Every SET reads the row as it was.
 */
export function countAttempt(keyHash: string, now: Date, windowStart: Date, quietSince: Date): SqlStatement {
  return {
    text: `insert into sign_in_throttle (key_hash, attempts, window_started_at, locked_until, lockouts, updated_at) values (?, 1, ?, null, 0, ?)
      on conflict (key_hash) do update set
        attempts = case
          when sign_in_throttle.locked_until > excluded.updated_at then sign_in_throttle.attempts
          when sign_in_throttle.locked_until is not null or sign_in_throttle.window_started_at < ? then 1
          else sign_in_throttle.attempts + 1 end,
        window_started_at = case
          when sign_in_throttle.locked_until > excluded.updated_at then sign_in_throttle.window_started_at
          when sign_in_throttle.locked_until is not null or sign_in_throttle.window_started_at < ? then excluded.updated_at
          else sign_in_throttle.window_started_at end,
        locked_until = case when sign_in_throttle.locked_until > excluded.updated_at then sign_in_throttle.locked_until else null end,
        lockouts = case when sign_in_throttle.updated_at < ? then 0 else sign_in_throttle.lockouts end,
        updated_at = excluded.updated_at
      returning attempts, locked_until, lockouts`,
    values: [keyHash, now, now, windowStart, windowStart, quietSince],
  };
}

/**
 * Starts a lockout unless one runs already (a parallel attempt may have started it); answers the
 * lockout in force. One UPDATE, not a CTE with a fallback SELECT: an UPDATE that waited for a
 * parallel one re-reads the row as committed, while a SELECT in the same statement would still
 * see the snapshot from before it (a lockout of "null").
 */
export function startLockout(keyHash: string, now: Date, until: Date): SqlStatement {
  return {
    text: `update sign_in_throttle set
        lockouts = case when locked_until is null or locked_until <= ? then lockouts + 1 else lockouts end,
        locked_until = case when locked_until is null or locked_until <= ? then ? else locked_until end,
        updated_at = ?
      where key_hash = ? returning locked_until`,
    values: [now, now, until, now, keyHash],
  };
}

export function forgetKeys(keyHashes: readonly string[]): SqlStatement {
  return { text: `delete from sign_in_throttle where key_hash in (${keyHashes.map(() => '?').join(', ')})`, values: [...keyHashes] };
}

export function insertDevice(tokenHash: string, subject: string, now: Date, expiresAt: Date): SqlStatement {
  return { text: `insert into sign_in_device (token_hash, subject, created_at, expires_at) values (?, ?, ?, ?)`, values: [tokenHash, subject, now, expiresAt] };
}

export function selectLiveDevice(tokenHash: string, subject: string, now: Date): SqlStatement {
  return { text: `select 1 from sign_in_device where token_hash = ? and subject = ? and expires_at > ?`, values: [tokenHash, subject, now] };
}

/** Old bookkeeping: keys quiet for a day with no lockout running, and expired devices. */
export function deleteStaleThrottles(before: Date, now: Date): SqlStatement {
  return { text: `delete from sign_in_throttle where updated_at < ? and (locked_until is null or locked_until < ?)`, values: [before, now] };
}

export function deleteExpiredDevices(now: Date): SqlStatement {
  return { text: `delete from sign_in_device where expires_at < ?`, values: [now] };
}

/** The latest running lockout of these keys, if any (read only: nothing is counted). */
export function selectRunningLockout(keyHashes: readonly string[], now: Date): SqlStatement {
  return { text: `select max(locked_until) as locked_until from sign_in_throttle where key_hash in (${keyHashes.map(() => '?').join(', ')}) and locked_until > ?`, values: [...keyHashes, now] };
}
