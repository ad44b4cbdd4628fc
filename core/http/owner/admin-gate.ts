import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/index.ts';
import { requireOwner } from './owner-gate.ts';

export interface AdminPolicy {
  deploymentMode: 'self_host' | 'hosted';
  adminToken: string | undefined;
}

/** Who performed an admin action, for audit fields such as `added_by`. */
export type Admin = { kind: 'owner'; id: string } | { kind: 'admin_token' };

function sameSecret(given: string, expected: string): boolean {
  // Hashing first gives equal-length inputs, so the comparison leaks neither content nor length.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Admin routes (plugin allow-list, quarantine). Self-host: the instance owner is the admin (behind
 * the owner-session gate when it is on). Hosted: only a bearer token equal to `OPL_ADMIN_TOKEN`.
 */
export function requireAdmin(request: FastifyRequest, policy: AdminPolicy): Admin {
  if (policy.deploymentMode === 'self_host') {
    const owner = requireOwner(request, 'manage plugins');
    return { kind: 'owner', id: owner.id };
  }
  if (!policy.adminToken) {
    throw new AppError('admin_not_configured', 'This hosted instance has no admin token (OPL_ADMIN_TOKEN), so its admin routes are disabled. Use the `opl plugin` CLI on the server instead.');
  }
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1] || !sameSecret(match[1], policy.adminToken)) {
    throw new AppError('admin_token_required', 'Send the admin token as "Authorization: Bearer <OPL_ADMIN_TOKEN>".');
  }
  return { kind: 'admin_token' };
}

export function adminName(admin: Admin): string {
  return admin.kind === 'owner' ? `owner:${admin.id}` : 'admin-token';
}
