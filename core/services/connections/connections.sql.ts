import type { SqlStatement } from '../../plugins/plugin-store.sql.ts';

/**
 * The SQL of connected accounts, their credentials and connections in progress: pure functions
 * returning `{text, values}` with `?` placeholders. Every statement that touches private rows filters by owner.
 */

/** A text[] from a JSON array parameter: a JS array would be expanded into several placeholders. */
const TEXT_ARRAY = `ARRAY(SELECT jsonb_array_elements_text(?::jsonb))`;

export function selectAccounts(ownerId: string, provider: string | null): SqlStatement {
  return {
    text: `SELECT a.id, a.provider, a.plugin_id, a.provider_user_id, a.display_name, a.status, a.is_demo, a.created_at, a.updated_at,
                  c.version, c.auth_kind, c.scopes, c.expires_at, c.account_label
             FROM provider_account a
             LEFT JOIN LATERAL (SELECT * FROM provider_credential c WHERE c.provider_account_id = a.id ORDER BY c.version DESC LIMIT 1) c ON true
            WHERE a.owner_id = ? AND (?::text IS NULL OR a.provider = ?) AND a.status <> 'disconnected'
            ORDER BY a.provider, a.created_at`,
    values: [ownerId, provider, provider],
  };
}

export function selectAccount(ownerId: string, accountId: string): SqlStatement {
  return {
    text: `SELECT a.id, a.provider, a.plugin_id, a.provider_user_id, a.display_name, a.status, a.is_demo, a.created_at, a.updated_at,
                  c.version, c.auth_kind, c.scopes, c.expires_at, c.account_label
             FROM provider_account a
             LEFT JOIN LATERAL (SELECT * FROM provider_credential c WHERE c.provider_account_id = a.id ORDER BY c.version DESC LIMIT 1) c ON true
            WHERE a.owner_id = ? AND a.id = ? AND a.status <> 'disconnected'`,
    values: [ownerId, accountId],
  };
}

/**
 * Creates the account, or finds the existing one of the same provider user (reconnecting the same
 * provider account updates it instead of creating a twin).
 */
export function upsertAccount(row: { ownerId: string; provider: string; pluginId: string; providerUserId: string; displayName: string | null; isDemo: boolean }): SqlStatement {
  return {
    text: `INSERT INTO provider_account (owner_id, provider, plugin_id, provider_user_id, display_name, status, is_demo)
           VALUES (?, ?, ?, ?, ?, 'connected', ?)
           ON CONFLICT ON CONSTRAINT provider_account_identity_unique
           DO UPDATE SET plugin_id = EXCLUDED.plugin_id, display_name = EXCLUDED.display_name, status = 'connected', is_demo = EXCLUDED.is_demo, updated_at = now()
           RETURNING id`,
    values: [row.ownerId, row.provider, row.pluginId, row.providerUserId, row.displayName, row.isDemo],
  };
}

export function setAccountStatus(ownerId: string, accountId: string, status: 'connected' | 'reauth_required'): SqlStatement {
  return { text: `UPDATE provider_account SET status = ?, updated_at = now() WHERE owner_id = ? AND id = ? AND status <> 'disconnected'`, values: [status, ownerId, accountId] };
}

export function deleteAccount(ownerId: string, accountId: string): SqlStatement {
  // Credentials and caches go with it (ON DELETE CASCADE).
  return { text: `DELETE FROM provider_account WHERE owner_id = ? AND id = ? RETURNING id`, values: [ownerId, accountId] };
}

export function insertCredential(row: {
  ownerId: string;
  accountId: string;
  authKind: string;
  scopes: readonly string[];
  blob: Uint8Array;
  refreshBlob: Uint8Array | null;
  keyId: string;
  expiresAt: Date | null;
  accountLabel: string | null;
  version: number;
}): SqlStatement {
  return {
    text: `INSERT INTO provider_credential (owner_id, provider_account_id, version, auth_kind, scopes, encrypted_blob, encrypted_refresh_token, key_id, expires_at, account_label)
           VALUES (?, ?, ?, ?, ${TEXT_ARRAY}, ?, ?, ?, ?, ?)`,
    values: [row.ownerId, row.accountId, row.version, row.authKind, JSON.stringify(row.scopes), Buffer.from(row.blob), row.refreshBlob ? Buffer.from(row.refreshBlob) : null, row.keyId, row.expiresAt, row.accountLabel],
  };
}

/** The next credential version of an account (1 for a new account). */
export function nextCredentialVersion(accountId: string): SqlStatement {
  return { text: `SELECT COALESCE(MAX(version), 0) + 1 AS version FROM provider_credential WHERE provider_account_id = ?`, values: [accountId] };
}

export function selectLatestCredential(ownerId: string, accountId: string): SqlStatement {
  return {
    text: `SELECT version, auth_kind, scopes, encrypted_blob, encrypted_refresh_token, key_id, expires_at, account_label
             FROM provider_credential WHERE owner_id = ? AND provider_account_id = ? ORDER BY version DESC LIMIT 1`,
    values: [ownerId, accountId],
  };
}

/** Older versions are kept only until a newer one is stored: nothing needs a superseded token. */
export function deleteOlderCredentials(accountId: string, keepVersion: number): SqlStatement {
  return { text: `DELETE FROM provider_credential WHERE provider_account_id = ? AND version < ?`, values: [accountId, keepVersion] };
}

export function setCredentialLabel(ownerId: string, accountId: string, label: string | null): SqlStatement {
  return { text: `UPDATE provider_credential SET account_label = ?, updated_at = now() WHERE owner_id = ? AND provider_account_id = ?`, values: [label, ownerId, accountId] };
}

/** Serialises token refreshes of one account across every engine process (transaction-scoped). */
export function lockAccountForRefresh(accountId: string): SqlStatement {
  return { text: `SELECT pg_advisory_xact_lock(hashtextextended('opl.refresh:' || ?, 0))`, values: [accountId] };
}

export function insertAuthAttempt(row: {
  ownerId: string;
  stateHash: string;
  provider: string;
  pluginId: string;
  authKind: string;
  accountLabel: string | null;
  reconnectAccountId: string | null;
  scopes: readonly string[];
  redirectUri: string | null;
  sealed: Uint8Array;
  keyId: string;
  nextPollAt: Date | null;
  expiresAt: Date;
}): SqlStatement {
  return {
    text: `INSERT INTO auth_attempt (owner_id, state_hash, provider, plugin_id, auth_kind, account_label, reconnect_account_id, scopes, redirect_uri, sealed_secrets, key_id, next_poll_at, expires_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ${TEXT_ARRAY}, ?, ?, ?, ?, ?)`,
    values: [row.ownerId, row.stateHash, row.provider, row.pluginId, row.authKind, row.accountLabel, row.reconnectAccountId, JSON.stringify(row.scopes), row.redirectUri, Buffer.from(row.sealed), row.keyId, row.nextPollAt, row.expiresAt],
  };
}

export function selectAuthAttempt(stateHash: string): SqlStatement {
  return {
    text: `SELECT id, owner_id, provider, plugin_id, auth_kind, account_label, reconnect_account_id, scopes, redirect_uri, sealed_secrets, key_id, next_poll_at, expires_at
             FROM auth_attempt WHERE state_hash = ?`,
    values: [stateHash],
  };
}

/** Takes an attempt for completion: only one caller gets it (a replayed callback finds nothing). */
export function claimAuthAttempt(id: string): SqlStatement {
  return { text: `DELETE FROM auth_attempt WHERE id = ? RETURNING id`, values: [id] };
}

/** Device flow: reserves the next poll slot; false when polled too early (the provider's interval). */
export function reservePoll(id: string, intervalSeconds: number): SqlStatement {
  return {
    text: `UPDATE auth_attempt SET next_poll_at = now() + make_interval(secs => ?) WHERE id = ? AND (next_poll_at IS NULL OR next_poll_at <= now()) RETURNING id`,
    values: [intervalSeconds, id],
  };
}

export function deleteExpiredAuthAttempts(): SqlStatement {
  return { text: `DELETE FROM auth_attempt WHERE expires_at < now()`, values: [] };
}
