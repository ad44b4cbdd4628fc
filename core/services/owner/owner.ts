/**
 * Who the current request acts for. Resolved on the server only: a user id from a query string,
 * header or body is never trusted.
 */
export type Owner =
  /** Self-host: the single local user (behind the session gate when a public base URL is set). */
  | { kind: 'local'; id: string }
  /** Hosted mode before real user authentication exists: nobody may own migrations. */
  | { kind: 'anonymous' };

/** The owner id of the single user of a self-hosted instance. */
export const LOCAL_OWNER_ID = 'local';

export interface OwnerPolicy {
  deploymentMode: 'self_host' | 'hosted';
  /** True when OPL_PUBLIC_BASE_URL is set: private `/api` routes need an owner session. */
  sessionGate: boolean;
}

export function resolveOwner(policy: OwnerPolicy, hasValidSession: boolean): Owner | null {
  if (policy.deploymentMode === 'hosted') return { kind: 'anonymous' };
  if (policy.sessionGate && !hasValidSession) return null;
  return { kind: 'local', id: LOCAL_OWNER_ID };
}
