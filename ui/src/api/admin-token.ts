/**
 * Hosted engines accept admin requests only with `Authorization: Bearer <OPL_ADMIN_TOKEN>`; there
 * is no cookie for it. The Plugins page asks for the token when the engine says it is required and
 * keeps it in the page's memory only (never in storage), so closing or leaving the page forgets it.
 */

import type { Problem } from './problem.ts';

export const ADMIN_TOKEN_REQUIRED = 'admin_token_required';
export const ADMIN_NOT_CONFIGURED = 'admin_not_configured';

export function authorizationHeaders(token: string | undefined): Readonly<Record<string, string>> {
  const trimmed = token?.trim() ?? '';
  return trimmed === '' ? {} : { authorization: `Bearer ${trimmed}` };
}

/** A 401 that a token can fix, as opposed to a missing owner session. */
export function needsAdminToken(problem: Problem): boolean {
  return problem.status === 401 && problem.code === ADMIN_TOKEN_REQUIRED;
}
