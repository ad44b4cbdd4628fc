import type { ShareRecipient } from '../shares/share-recipient.service.ts';
import type { LiveSession } from './owner-session.service.ts';

/**
 * Who the current request acts for. Resolved on the server only, from the session cookie: a user
 * id from a query string, header, path or body is never trusted.
 */
export type Owner =
  /** Self-host: the single local user (behind the session gate when a public base URL is set). */
  | { kind: 'local'; id: string }
  /** Hosted mode with OpenID Connect: a signed-in user; `id` (their user id) owns their data. */
  | { kind: 'user'; id: string; isAdmin: boolean }
  /**
   * A share recipient (any mode): bound to one share, owning only what they made under it
   * (`id` is `recipient:<recipient id>`). Only routes that declare `config.shareRecipients` admit them.
   */
  | { kind: 'recipient'; id: string; recipientId: string; shareId: string; shareName: string; shareLive: boolean }
  /** Hosted mode without user authentication: nobody may own migrations. */
  | { kind: 'anonymous' };

/** The owner id of the single user of a self-hosted instance. */
export const LOCAL_OWNER_ID = 'local';

export interface OwnerPolicy {
  deploymentMode: 'self_host' | 'hosted';
  /** True when private `/api` routes need a session: self-host with OPL_PUBLIC_BASE_URL, hosted with OIDC. */
  sessionGate: boolean;
  /** Hosted mode with an OpenID provider configured: users sign in, each owning their own data. */
  userSignIn: boolean;
}

export function ownerPolicy(options: { deploymentMode: 'self_host' | 'hosted'; publicBaseUrl: string | undefined; oidc: unknown }): OwnerPolicy {
  const userSignIn = options.deploymentMode === 'hosted' && options.oidc !== null;
  return {
    deploymentMode: options.deploymentMode,
    sessionGate: options.deploymentMode === 'hosted' ? userSignIn : options.publicBaseUrl !== undefined,
    userSignIn,
  };
}

/** The owner of a request from its live session (null: a session is required and missing). */
export function resolveOwner(policy: OwnerPolicy, session: LiveSession | null): Owner | null {
  if (policy.deploymentMode === 'hosted') {
    if (!policy.userSignIn) return { kind: 'anonymous' };
    // Only user sessions count here: an owner-secret session names no user.
    return session?.userId ? { kind: 'user', id: session.userId, isAdmin: session.isAdmin } : null;
  }
  const ownerSession = session !== null && session.userId === null;
  if (policy.sessionGate && !ownerSession) return null;
  return { kind: 'local', id: LOCAL_OWNER_ID };
}

/** A share recipient as the owner of their requests. */
export function recipientOwner(recipient: ShareRecipient): Extract<Owner, { kind: 'recipient' }> {
  return { kind: 'recipient', id: recipient.ownerId, recipientId: recipient.id, shareId: recipient.shareId, shareName: recipient.shareName, shareLive: recipient.shareLive };
}
