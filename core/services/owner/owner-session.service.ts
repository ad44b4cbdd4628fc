import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { deleteExpiredSessions, deleteSession, insertSession, touchLiveSession, type SqlStatement } from './owner-session.sql.ts';

export type SqlExecutor = (statement: SqlStatement) => Promise<Record<string, unknown>[]>;

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Owner sessions of the session gate. Only a hash of each token is stored, so a database dump does
 * not yield a usable cookie; sessions live in PostgreSQL so every engine process accepts them.
 */
export class OwnerSessionService {
  readonly #execute: SqlExecutor;
  readonly #secretHash: Buffer | undefined;
  readonly #ttlMs: number;

  constructor(options: { execute: SqlExecutor; ownerSecret: string | undefined; ttlHours: number }) {
    this.#execute = options.execute;
    this.#secretHash = options.ownerSecret === undefined ? undefined : sha256(options.ownerSecret);
    this.#ttlMs = options.ttlHours * 3_600_000;
  }

  get ttlSeconds(): number {
    return Math.floor(this.#ttlMs / 1000);
  }

  /** Constant-time comparison of hashes, so timing reveals neither content nor length. */
  verifySecret(candidate: string): boolean {
    if (this.#secretHash === undefined) return false;
    return timingSafeEqual(sha256(candidate), this.#secretHash);
  }

  /** Creates a session and returns its bearer token (to be set as an HttpOnly cookie). */
  async create(): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.#ttlMs);
    await this.#execute(insertSession(randomUUID(), sha256(token).toString('hex'), expiresAt));
    return { token, expiresAt };
  }

  async isValid(token: string | undefined): Promise<boolean> {
    if (!token || token.length > 256) return false;
    const rows = await this.#execute(touchLiveSession(sha256(token).toString('hex')));
    return rows.length > 0;
  }

  async revoke(token: string | undefined): Promise<void> {
    if (!token || token.length > 256) return;
    await this.#execute(deleteSession(sha256(token).toString('hex')));
  }

  /** Deletes up to `batchSize` expired sessions; returns how many went. */
  async purgeExpired(batchSize: number): Promise<number> {
    return (await this.#execute(deleteExpiredSessions(batchSize))).length;
  }
}
