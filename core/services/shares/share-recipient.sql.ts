/** SQL of share recipients (identity and session in one row), as pure functions so each statement can be read and tested alone. */
import type { SqlStatement } from '../imports/import-record.sql.ts';

const LIVE_SHARE = 's.revoked_at is null and (s.expires_at is null or s.expires_at > now())';

/**
 * A new recipient of the live share a token names, with the hash of their session token; no row
 * when the share is unknown, revoked or expired.
 */
export function insertRecipient(row: { id: string; shareTokenHash: string; sessionTokenHash: string; expiresAt: Date }): SqlStatement {
  return {
    text: `with s as (select id, name from share s where s.token_hash = ? and ${LIVE_SHARE}),
      r as (insert into share_recipient (id, share_id, token_hash, expires_at, created_at, last_seen_at) select ?, s.id, ?, ?, now(), now() from s returning id, share_id, expires_at)
      select r.id, r.share_id, r.expires_at, s.name as share_name, true as share_live from r join s on s.id = r.share_id`,
    values: [row.shareTokenHash, row.id, row.sessionTokenHash, row.expiresAt],
  };
}

/** The live share a token names (its id), to tell whether a recipient's session already belongs to it. */
export function selectLiveShareId(shareTokenHash: string): SqlStatement {
  return { text: `select s.id from share s where s.token_hash = ? and ${LIVE_SHARE}`, values: [shareTokenHash] };
}

/**
 * The recipient a session token names (unexpired session), with whether their share still
 * answers, and marks the session seen — one round trip per request.
 */
export function touchRecipient(sessionTokenHash: string): SqlStatement {
  return {
    text: `update share_recipient r set last_seen_at = now() from share s
      where r.token_hash = ? and r.expires_at > now() and s.id = r.share_id
      returning r.id, r.share_id, r.expires_at, s.name as share_name, (${LIVE_SHARE}) as share_live`,
    values: [sessionTokenHash],
  };
}

export function deleteRecipientSession(sessionTokenHash: string): SqlStatement {
  return { text: 'delete from share_recipient where token_hash = ? returning id', values: [sessionTokenHash] };
}

/** Expired recipient sessions, at most `limit` of them. */
export function deleteExpiredRecipients(limit: number): SqlStatement {
  return { text: 'delete from share_recipient where id in (select id from share_recipient where expires_at <= now() limit ? for update skip locked) returning id', values: [limit] };
}
