import { describe, expect, it } from 'vitest';
import { LOCAL_OWNER_ID, resolveOwner } from '../../../core/services/owner/owner.ts';
import { deleteExpiredSessions, touchLiveSession } from '../../../core/services/owner/owner-session.sql.ts';

describe('resolveOwner', () => {
  it('is the local user on a self-hosted instance without a gate', () => {
    expect(resolveOwner({ deploymentMode: 'self_host', sessionGate: false }, false)).toEqual({ kind: 'local', id: LOCAL_OWNER_ID });
  });

  it('needs a valid session when the gate is on', () => {
    expect(resolveOwner({ deploymentMode: 'self_host', sessionGate: true }, false)).toBeNull();
    expect(resolveOwner({ deploymentMode: 'self_host', sessionGate: true }, true)).toEqual({ kind: 'local', id: LOCAL_OWNER_ID });
  });

  it('is anonymous in hosted mode until user authentication exists', () => {
    expect(resolveOwner({ deploymentMode: 'hosted', sessionGate: false }, false)).toEqual({ kind: 'anonymous' });
    expect(resolveOwner({ deploymentMode: 'hosted', sessionGate: true }, true)).toEqual({ kind: 'anonymous' });
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
