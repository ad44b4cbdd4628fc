import { describe, expect, it } from 'vitest';
import { LOCAL_OWNER_ID, ownerPolicy, resolveOwner } from '../../../core/services/owner/owner.ts';
import { deleteExpiredSessions, touchLiveSession } from '../../../core/services/owner/owner-session.sql.ts';

const ownerSession = { id: 's1', userId: null, isAdmin: false };
const userSession = { id: 's2', userId: '6f1c1f3e-8d7b-4e55-9d55-1a2b3c4d5e6f', isAdmin: true };

describe('resolveOwner', () => {
  const selfHost = ownerPolicy({ deploymentMode: 'self_host', publicBaseUrl: undefined, oidc: null });
  const gated = ownerPolicy({ deploymentMode: 'self_host', publicBaseUrl: 'https://music.example.test', oidc: null });
  const hosted = ownerPolicy({ deploymentMode: 'hosted', publicBaseUrl: 'https://music.example.test', oidc: null });
  const hostedWithUsers = ownerPolicy({ deploymentMode: 'hosted', publicBaseUrl: 'https://music.example.test', oidc: {} });

  it('is the local user on a self-hosted instance without a gate', () => {
    expect(resolveOwner(selfHost, null)).toEqual({ kind: 'local', id: LOCAL_OWNER_ID });
  });

  it('needs an owner session when the gate is on; a user session is no owner session', () => {
    expect(resolveOwner(gated, null)).toBeNull();
    expect(resolveOwner(gated, ownerSession)).toEqual({ kind: 'local', id: LOCAL_OWNER_ID });
    expect(resolveOwner(gated, userSession)).toBeNull();
  });

  it('is anonymous in hosted mode without user sign-in, whatever the session', () => {
    expect(hosted.sessionGate).toBe(false);
    expect(resolveOwner(hosted, null)).toEqual({ kind: 'anonymous' });
    expect(resolveOwner(hosted, ownerSession)).toEqual({ kind: 'anonymous' });
  });

  it('is the signed-in user in hosted mode with user sign-in; an owner session counts for nothing there', () => {
    expect(hostedWithUsers).toEqual({ deploymentMode: 'hosted', sessionGate: true, userSignIn: true });
    expect(resolveOwner(hostedWithUsers, userSession)).toEqual({ kind: 'user', id: userSession.userId, isAdmin: true });
    expect(resolveOwner(hostedWithUsers, ownerSession)).toBeNull();
    expect(resolveOwner(hostedWithUsers, null)).toBeNull();
  });
});

describe('owner session SQL', () => {
  it('only matches live sessions and parameterises every value', () => {
    const statement = touchLiveSession('abc');
    expect(statement.text).toMatch(/expires_at > now\(\)/);
    expect(statement.text).not.toContain('abc');
    expect(statement.values).toEqual(['abc']);
  });

  it('deletes expired sessions in bounded batches', () => {
    const statement = deleteExpiredSessions(50);
    expect(statement.text).toMatch(/limit \?/);
    expect(statement.values).toEqual([50]);
  });
});
