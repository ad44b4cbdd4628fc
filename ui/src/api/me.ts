/** `GET /api/me`: who the UI talks as and whether the owner-session gate is on. */

export type DeploymentMode = 'self_host' | 'hosted';

/** How a session is had here: the owner secret, the OpenID provider (hosted), or nothing to sign in to. */
export type SignInMethod = 'owner_secret' | 'oidc' | 'none';

/** Hosted mode: the person signed in through the OpenID provider. */
export interface MeUser {
  readonly id: string;
  readonly email: string | null;
  readonly displayName: string | null;
  readonly isAdmin: boolean;
}

/** A share session: the browser acts for a recipient of one share (their own accounts and copies only). */
export interface MeRecipient {
  readonly shareId: string;
  readonly shareName: string;
  /** `ended`: the share was revoked or expired, so nothing new can start. */
  readonly status: 'active' | 'ended';
}

export interface Me {
  readonly ownerId: string | null;
  readonly recipient: MeRecipient | null;
  readonly deploymentMode: DeploymentMode;
  readonly session: { readonly required: boolean; readonly authenticated: boolean; readonly signIn: SignInMethod };
  readonly user: MeUser | null;
}

/** Where the browser goes to sign in at the OpenID provider (a full navigation, not a fetch). */
export const OIDC_SIGN_IN_PATH = '/api/auth/oidc/login';

const SIGN_IN_METHODS: readonly string[] = ['owner_secret', 'oidc', 'none'];

function parseUser(value: unknown): MeUser | null | undefined {
  if (value === null || value === undefined) return null;
  if (!isRecord(value) || typeof value['id'] !== 'string' || typeof value['is_admin'] !== 'boolean') return undefined;
  const text = (field: unknown) => (typeof field === 'string' ? field : null);
  return { id: value['id'], email: text(value['email']), displayName: text(value['display_name']), isAdmin: value['is_admin'] };
}

function parseRecipient(value: unknown): MeRecipient | null {
  if (!isRecord(value) || typeof value['share_id'] !== 'string' || typeof value['share_name'] !== 'string') return null;
  return { shareId: value['share_id'], shareName: value['share_name'], status: value['status'] === 'ended' ? 'ended' : 'active' };
}

/** The sign-in method a `401 session_required` names (`sign_in.method`); the owner secret when it names none. */
export function signInMethodOf(problemBody: unknown): SignInMethod {
  const signIn = isRecord(problemBody) ? problemBody['sign_in'] : undefined;
  return isRecord(signIn) && signIn['method'] === 'oidc' ? 'oidc' : 'owner_secret';
}

/** What to call the signed-in person: their name, else their address, else a neutral word. */
export function userLabel(user: MeUser): string {
  return user.displayName ?? user.email ?? 'Signed-in user';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Returns undefined when the body does not have the documented shape. */
export function parseMe(body: unknown): Me | undefined {
  if (!isRecord(body)) return undefined;
  const owner = body['owner_id'];
  const mode = body['deployment_mode'];
  const session = body['session'];
  if (owner !== null && typeof owner !== 'string') return undefined;
  if (mode !== 'self_host' && mode !== 'hosted') return undefined;
  if (!isRecord(session) || typeof session['required'] !== 'boolean' || typeof session['authenticated'] !== 'boolean') {
    return undefined;
  }
  const method = session['sign_in'];
  const user = parseUser(body['user']);
  if (user === undefined) return undefined;
  // Engines before user sign-in named no method: their gate was the owner secret.
  const signIn = typeof method === 'string' && SIGN_IN_METHODS.includes(method) ? (method as SignInMethod) : session['required'] ? 'owner_secret' : 'none';
  return {
    ownerId: owner,
    recipient: parseRecipient(body['recipient']),
    deploymentMode: mode,
    session: { required: session['required'], authenticated: session['authenticated'], signIn },
    user,
  };
}

/**
 * Whether admin-only areas are shown: to everyone but a signed-in user of a hosted instance who is
 * no admin (self-host: the owner administers; hosted without users: the admin token does).
 */
export function seesAdminAreas(me: Me): boolean {
  return me.user === null || me.user.isAdmin;
}

/**
 * Sign-out's answer: the OpenID provider's end-session URL when the provider ends its session too
 * (the browser goes there next), else undefined (a 204, or anything not an https URL).
 */
export function endSessionUrlOf(body: unknown): string | undefined {
  const url = isRecord(body) ? body['end_session_url'] : undefined;
  if (typeof url !== 'string') return undefined;
  try {
    return new URL(url).protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The gate is on and this browser has no session: the UI should offer the login form. */
export function needsSignIn(me: Me): boolean {
  return me.session.required && !me.session.authenticated;
}

export function describeDeploymentMode(mode: DeploymentMode): string {
  return mode === 'self_host' ? 'Self-hosted, single owner' : 'Hosted, multiple users';
}
