/** SQL of the owner-session store, as pure functions so each statement can be read and tested alone. */
export interface SqlStatement {
  text: string;
  values: unknown[];
}

export function insertSession(id: string, tokenHash: string, expiresAt: Date): SqlStatement {
  return {
    text: 'insert into owner_session (id, token_hash, created_at, expires_at, last_seen_at) values (?, ?, now(), ?, now())',
    values: [id, tokenHash, expiresAt],
  };
}

/** Finds a live session and records that it was seen, in one round trip. */
export function touchLiveSession(tokenHash: string): SqlStatement {
  return {
    text: 'update owner_session set last_seen_at = now() where token_hash = ? and expires_at > now() returning id',
    values: [tokenHash],
  };
}

export function deleteSession(tokenHash: string): SqlStatement {
  return { text: 'delete from owner_session where token_hash = ?', values: [tokenHash] };
}

export function deleteExpiredSessions(limit: number): SqlStatement {
  return {
    text: 'delete from owner_session where id in (select id from owner_session where expires_at <= now() limit ?) returning id',
    values: [limit],
  };
}
