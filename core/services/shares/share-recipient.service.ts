import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { SqlExecutor } from '../imports/import-record.service.ts';
import { hashShareToken } from './share.service.ts';
import { deleteExpiredRecipients, deleteRecipientSession, insertRecipient, selectLiveShareId, touchRecipient } from './share-recipient.sql.ts';

/**
 * Share recipients (spec Authentication 9). Whoever opens a live share and chooses to copy it gets
 * a recipient identity bound to that one share, carried by a session cookie of which only a hash is
 * stored. Everything the recipient makes (provider accounts, the copied import, migration jobs) is
 * owned by `recipient:<id>` — an owner id no user, no self-host owner and no other recipient has —
 * so the ordinary owner scoping of every service keeps the owner's data and the recipient's apart.
 * When the share is revoked or expires the session still resolves, saying so, so that new work is
 * refused with a clear reason rather than an anonymous 401.
 */

export const RECIPIENT_OWNER_PREFIX = 'recipient:';

export interface ShareRecipient {
  /** The recipient row's id. */
  id: string;
  /** What the recipient's rows are owned by. */
  ownerId: string;
  shareId: string;
  shareName: string;
  /** False once the share was revoked or expired: nothing new may start under this session. */
  shareLive: boolean;
  expiresAt: Date;
}

function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

function recipientOf(row: Record<string, unknown>): ShareRecipient {
  const id = String(row['id']);
  const expires = row['expires_at'];
  return {
    id,
    ownerId: `${RECIPIENT_OWNER_PREFIX}${id}`,
    shareId: String(row['share_id']),
    shareName: typeof row['share_name'] === 'string' ? row['share_name'] : '',
    shareLive: row['share_live'] === true,
    expiresAt: expires instanceof Date ? expires : new Date(String(expires)),
  };
}

export class ShareRecipientService {
  readonly #execute: SqlExecutor;
  readonly #ttlMs: number;

  constructor(options: { execute: SqlExecutor; ttlHours: number }) {
    this.#execute = options.execute;
    this.#ttlMs = options.ttlHours * 3_600_000;
  }

  get ttlSeconds(): number {
    return Math.floor(this.#ttlMs / 1000);
  }

  /**
   * Becomes a recipient of the live share `shareToken` names: keeps the caller's session when it
   * already belongs to that share (so a second copy lands with the same accounts), else makes a new
   * recipient and session. Null when the share does not answer (unknown, revoked, expired).
   */
  async join(shareToken: string, currentSession: string | undefined): Promise<{ recipient: ShareRecipient; sessionToken: string | null } | null> {
    if (shareToken.length > 200) return null;
    const current = await this.resolve(currentSession);
    if (current?.shareLive) {
      const [live] = await this.#execute(selectLiveShareId(hashShareToken(shareToken)));
      if (live && String(live['id']) === current.shareId) return { recipient: current, sessionToken: null };
    }
    const sessionToken = randomBytes(32).toString('base64url');
    const [row] = await this.#execute(insertRecipient({ id: randomUUID(), shareTokenHash: hashShareToken(shareToken), sessionTokenHash: sha256(sessionToken), expiresAt: new Date(Date.now() + this.#ttlMs) }));
    return row ? { recipient: recipientOf(row), sessionToken } : null;
  }

  /** The recipient a session cookie names (also when their share ended), or null. */
  async resolve(sessionToken: string | undefined): Promise<ShareRecipient | null> {
    if (!sessionToken || sessionToken.length > 256) return null;
    const [row] = await this.#execute(touchRecipient(sha256(sessionToken)));
    return row ? recipientOf(row) : null;
  }

  /** Ends a recipient session (leaving the share); what the recipient made stays theirs until purged. */
  async leave(sessionToken: string | undefined): Promise<void> {
    if (!sessionToken || sessionToken.length > 256) return;
    await this.#execute(deleteRecipientSession(sha256(sessionToken)));
  }

  /** Deletes up to `batchSize` expired recipient sessions; returns how many went. */
  async purgeExpired(batchSize: number): Promise<number> {
    return (await this.#execute(deleteExpiredRecipients(batchSize))).length;
  }
}
