/** `GET /api/me`: who the UI talks as and whether the owner-session gate is on. */

export type DeploymentMode = 'self_host' | 'hosted';

export interface Me {
  readonly ownerId: string | null;
  readonly deploymentMode: DeploymentMode;
  readonly session: { readonly required: boolean; readonly authenticated: boolean };
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
  return {
    ownerId: owner,
    deploymentMode: mode,
    session: { required: session['required'], authenticated: session['authenticated'] },
  };
}

/** The gate is on and this browser has no session: the UI should offer the login form. */
export function needsSignIn(me: Me): boolean {
  return me.session.required && !me.session.authenticated;
}

export function describeDeploymentMode(mode: DeploymentMode): string {
  return mode === 'self_host' ? 'Self-hosted, single owner' : 'Hosted, multiple users';
}
