/**
 * Who may sign in, and who is an admin, from the claims the OpenID provider vouched for. Pure, so
 * each rule is tested alone. A domain rule needs a verified address: an unverified `email` claim
 * is whatever the user typed at the provider.
 */

export interface ClaimPolicy {
  allowedDomains: readonly string[];
  groupsClaim: string;
  allowedGroups: readonly string[];
  adminGroups: readonly string[];
}

export type ClaimDecision =
  | { allowed: true; email: string | null; displayName: string | null; isAdmin: boolean }
  | { allowed: false; reason: string };

function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}

const shortText = (value: unknown, max: number): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : null);

export function decideClaims(claims: Record<string, unknown>, policy: ClaimPolicy): ClaimDecision {
  const email = shortText(claims['email'], 320);
  if (policy.allowedDomains.length > 0) {
    const domain = email?.slice(email.lastIndexOf('@') + 1).toLowerCase();
    if (email === null || !email.includes('@') || claims['email_verified'] !== true || !domain || !policy.allowedDomains.includes(domain)) {
      return { allowed: false, reason: `Only verified e-mail addresses of ${policy.allowedDomains.join(', ')} may sign in to this instance.` };
    }
  }
  const groups = groupsOf(claims, policy.groupsClaim);
  if (policy.allowedGroups.length > 0 && !groups.some((group) => policy.allowedGroups.includes(group))) {
    return { allowed: false, reason: `Only members of ${policy.allowedGroups.join(', ')} may sign in to this instance.` };
  }
  return {
    allowed: true,
    email,
    displayName: shortText(claims['name'], 200) ?? shortText(claims['preferred_username'], 200),
    isAdmin: groups.some((group) => policy.adminGroups.includes(group)),
  };
}
