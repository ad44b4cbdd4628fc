/** SQL of the owner-session store, as pure functions so each statement can be read and tested alone. */
export interface SqlStatement {
  text: string;
  values: unknown[];
}

export function insertSession(id: string, tokenHash: string, expiresAt: Date, userId: string | null, idToken: SealedIdToken | null = null): SqlStatement {
  return {
    text: 'insert into owner_session (id, token_hash, created_at, expires_at, last_seen_at, user_id, id_token_key_id, id_token_sealed) values (?, ?, now(), ?, now(), ?, ?, ?)',
    values: [id, tokenHash, expiresAt, userId, idToken?.keyId ?? null, idToken ? Buffer.from(idToken.blob) : null],
  };
}

/** The sign-in's ID token as the credential vault sealed it. */
export interface SealedIdToken {
  keyId: string;
  blob: Uint8Array;
}

/** Finds a live session (with its user, if any) and records that it was seen, in one round trip. */
export function touchLiveSession(tokenHash: string): SqlStatement {
  return {
    text: `update owner_session s set last_seen_at = now()
      where s.token_hash = ? and s.expires_at > now()
      returning s.id, s.user_id, (select u.is_admin from app_user u where u.id = s.user_id) as is_admin`,
    values: [tokenHash],
  };
}

/** `user_id = ?`, or the owner's sessions (no user) for null: one person's sessions either way. */
function sameSubject(userId: string | null): { text: string; values: unknown[] } {
  return userId === null ? { text: 'user_id is null', values: [] } : { text: 'user_id = ?', values: [userId] };
}

export function selectSessions(userId: string | null): SqlStatement {
  const subject = sameSubject(userId);
  return {
    text: `select id, created_at, last_seen_at, expires_at from owner_session where ${subject.text} and expires_at > now() order by last_seen_at desc, id limit 200`,
    values: subject.values,
  };
}

export function deleteSessionById(id: string, userId: string | null): SqlStatement {
  const subject = sameSubject(userId);
  return { text: `delete from owner_session where id = ? and ${subject.text} returning id`, values: [id, ...subject.values] };
}

export function deleteSession(tokenHash: string): SqlStatement {
  return { text: 'delete from owner_session where token_hash = ? returning id_token_key_id, id_token_sealed', values: [tokenHash] };
}

export function deleteExpiredSessions(limit: number): SqlStatement {
  return {
    text: 'delete from owner_session where id in (select id from owner_session where expires_at <= now() limit ?) returning id',
    values: [limit],
  };
}
