import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { deleteExpiredSessions, deleteSession, deleteSessionById, insertSession, selectSessions, touchLiveSession, type SealedIdToken, type SqlStatement } from './owner-session.sql.ts';

export type SqlExecutor = (statement: SqlStatement) => Promise<Record<string, unknown>[]>;

/** A live session as the owner gate sees it: whose it is. */
export interface LiveSession {
  id: string;
  /** Hosted mode's signed-in user; null for the self-host owner. */
  userId: string | null;
  isAdmin: boolean;
}

export interface SessionSummary {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

  /**
   * Creates a session (of a user, or of the owner) and returns its bearer token (to be set as an
   * HttpOnly cookie). `sealIdToken` seals a hosted sign-in's ID token, bound to the session's token hash.
   */
  async create(userId: string | null = null, sealIdToken?: (tokenHash: string) => SealedIdToken): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const tokenHash = sha256(token).toString('hex');
    const expiresAt = new Date(Date.now() + this.#ttlMs);
    await this.#execute(insertSession(randomUUID(), tokenHash, expiresAt, userId, sealIdToken ? sealIdToken(tokenHash) : null));
    return { token, expiresAt };
  }

  /** The live session a cookie names, if any (and marks it seen). */
  async resolve(token: string | undefined): Promise<LiveSession | null> {
    if (!token || token.length > 256) return null;
    const [row] = await this.#execute(touchLiveSession(sha256(token).toString('hex')));
    if (!row) return null;
    const userId = row['user_id'];
    return { id: String(row['id']), userId: typeof userId === 'string' ? userId : null, isAdmin: row['is_admin'] === true };
  }

  /** One person's live sessions (a user's, or the owner's for null), most recently used first. */
  async list(userId: string | null): Promise<SessionSummary[]> {
    const rows = await this.#execute(selectSessions(userId));
    return rows.map((row) => ({ id: String(row['id']), createdAt: new Date(row['created_at'] as string), lastSeenAt: new Date(row['last_seen_at'] as string), expiresAt: new Date(row['expires_at'] as string) }));
  }

  /** Revokes one of that person's sessions; false when they have none with this id. */
  async revokeById(sessionId: string, userId: string | null): Promise<boolean> {
    if (!UUID.test(sessionId)) return false;
    return (await this.#execute(deleteSessionById(sessionId, userId))).length > 0;
  }

  /** Ends the session a cookie names; answers its sealed ID token (hosted sign-ins), to end it at the provider too. */
  async revoke(token: string | undefined): Promise<{ tokenHash: string; idToken: SealedIdToken | null } | null> {
    if (!token || token.length > 256) return null;
    const tokenHash = sha256(token).toString('hex');
    const [row] = await this.#execute(deleteSession(tokenHash));
    if (!row) return null;
    const keyId = row['id_token_key_id'];
    const sealed = row['id_token_sealed'];
    return { tokenHash, idToken: typeof keyId === 'string' && sealed instanceof Uint8Array ? { keyId, blob: new Uint8Array(sealed) } : null };
  }

  /** Deletes up to `batchSize` expired sessions; returns how many went. */
  async purgeExpired(batchSize: number): Promise<number> {
    return (await this.#execute(deleteExpiredSessions(batchSize))).length;
  }
}
