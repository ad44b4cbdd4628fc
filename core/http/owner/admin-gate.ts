import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/index.ts';
import { requireOwner } from './owner-gate.ts';
import { signInAttempt, throttledTokenCheck } from './sign-in-guard.ts';
import type { SignInThrottle } from '../../services/sign-in/index.ts';

export interface AdminPolicy {
  deploymentMode: 'self_host' | 'hosted';
  adminToken: string | undefined;
  /** Counts wrong admin tokens per client address and for the admin account. */
  throttle: SignInThrottle;
}

/** Who performed an admin action, for audit fields such as `added_by`. */
export type Admin = { kind: 'owner'; id: string } | { kind: 'user'; id: string } | { kind: 'admin_token' };

function sameSecret(given: string, expected: string): boolean {
  // Hashing first gives equal-length inputs, so the comparison leaks neither content nor length.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Admin routes (plugin allow-list, quarantine). Self-host: the instance owner is the admin (behind
 * the owner-session gate when it is on). Hosted: a signed-in user of an `OPL_OIDC_ADMIN_GROUPS`
 * group, or (for automation) a bearer token equal to `OPL_ADMIN_TOKEN`; wrong tokens are
 * throttled like failed sign-ins (sign-in-guard.ts).
 */
export async function requireAdmin(request: FastifyRequest, policy: AdminPolicy): Promise<Admin> {
  if (policy.deploymentMode === 'self_host') {
    const owner = requireOwner(request, 'manage plugins');
    return { kind: 'owner', id: owner.id };
  }
  const owner = request.owner;
  const header = request.headers.authorization ?? '';
  if (owner?.kind === 'user' && header === '') {
    if (owner.isAdmin) return { kind: 'user', id: owner.id };
    throw new AppError('admin_required', 'Only admins of this instance may do this (members of an admin group at the OpenID provider).');
  }
  if (!policy.adminToken) {
    throw new AppError('admin_not_configured', 'This hosted instance has no admin token (OPL_ADMIN_TOKEN), so its admin routes are disabled. Use the `opl plugin` CLI on the server instead.');
  }
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  const given = match?.[1];
  const expected = policy.adminToken;
  // No token at all is a missing header, not a guess: only wrong tokens are counted.
  if (!given || !(await throttledTokenCheck(request, policy.throttle, signInAttempt(request, 'admin_token', 'admin'), () => sameSecret(given, expected)))) {
    throw new AppError('admin_token_required', 'Send the admin token as "Authorization: Bearer <OPL_ADMIN_TOKEN>".');
  }
  return { kind: 'admin_token' };
}

export function adminName(admin: Admin): string {
  if (admin.kind === 'admin_token') return 'admin-token';
  return `${admin.kind}:${admin.id}`;
}
