/** SQL of users and OpenID sign-in attempts, as pure functions (each statement readable and testable alone). */
import type { SqlStatement } from '../../storage/sql/executors.ts';

export interface UserProfile {
  email: string | null;
  displayName: string | null;
  isAdmin: boolean;
}

/** The user of an (issuer, subject), made on first sign-in; profile and admin flag refreshed on every one. */
export function upsertUser(issuer: string, subject: string, profile: UserProfile, now: Date): SqlStatement {
  return {
    text: `insert into app_user (issuer, subject, email, display_name, is_admin, created_at, last_sign_in_at) values (?, ?, ?, ?, ?, ?, ?)
      on conflict (issuer, subject) do update set email = excluded.email, display_name = excluded.display_name, is_admin = excluded.is_admin, last_sign_in_at = excluded.last_sign_in_at
      returning id, email, display_name, is_admin`,
    values: [issuer, subject, profile.email, profile.displayName, profile.isAdmin, now, now],
  };
}

export function selectUser(id: string): SqlStatement {
  return { text: 'select id, email, display_name, is_admin, created_at, last_sign_in_at from app_user where id = ?', values: [id] };
}

export function insertAttempt(stateHash: string, browserHash: string, keyId: string, sealed: Uint8Array, expiresAt: Date): SqlStatement {
  return {
    text: 'insert into oidc_sign_in_attempt (state_hash, browser_hash, key_id, sealed_secrets, expires_at) values (?, ?, ?, ?, ?)',
    values: [stateHash, browserHash, keyId, Buffer.from(sealed), expiresAt],
  };
}

/** Takes an attempt out in one statement, so a callback can use it once even when replayed in parallel. */
export function takeAttempt(stateHash: string): SqlStatement {
  return { text: 'delete from oidc_sign_in_attempt where state_hash = ? returning browser_hash, key_id, sealed_secrets, expires_at', values: [stateHash] };
}

export function deleteExpiredAttempts(now: Date): SqlStatement {
  return { text: 'delete from oidc_sign_in_attempt where expires_at <= ?', values: [now] };
}
