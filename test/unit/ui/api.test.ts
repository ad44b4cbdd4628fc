import { describe, expect, it } from 'vitest';
import { describeDeploymentMode, endSessionUrlOf, needsSignIn, parseMe, signInMethodOf, userLabel } from '../../../ui/src/api/me.ts';
import { networkProblem, toProblem } from '../../../ui/src/api/problem.ts';
import { checkLabel, interpretReadiness } from '../../../ui/src/api/readiness.ts';

describe('readiness', () => {
  const up = { status: 'up' };

  it('is Ready when the engine says ready with every check up', () => {
    const snapshot = interpretReadiness(200, { status: 'ready', checks: { database: up, job_queue: up } });
    expect(snapshot.state).toBe('ready');
    expect(snapshot.checks.map((check) => [check.label, check.up])).toEqual([
      ['Database', true],
      ['Job queue', true],
    ]);
  });

  it('is Degraded on 503 and names what is down, with its detail', () => {
    const snapshot = interpretReadiness(503, {
      status: 'not_ready',
      checks: { database: up, job_queue: { status: 'down', detail: 'queue not started' } },
    });
    expect(snapshot.state).toBe('degraded');
    expect(snapshot.reason).toBe('Not working: Job queue.');
    expect(snapshot.checks[1]).toEqual({ name: 'job_queue', label: 'Job queue', up: false, detail: 'queue not started' });
  });

  it('is Degraded when a 200 answer still reports a check down', () => {
    expect(interpretReadiness(200, { status: 'ready', checks: { database: { status: 'down' } } }).state).toBe('degraded');
  });

  it('is Offline when there is no readiness document', () => {
    expect(interpretReadiness(0, undefined)).toMatchObject({ state: 'offline', reason: 'The engine did not answer.' });
    expect(interpretReadiness(502, undefined).reason).toMatch(/HTTP status 502/);
    expect(interpretReadiness(200, { status: 'ready', checks: { database: { status: 'maybe' } } }).state).toBe('offline');
    expect(interpretReadiness(200, { status: 'ok' }).state).toBe('offline');
  });

  it('labels unknown checks readably', () => {
    expect(checkLabel('plugin_host')).toBe('Plugin host');
  });
});

describe('GET /api/me', () => {
  const me = { owner_id: 'local', deployment_mode: 'self_host', session: { required: false, authenticated: false } };

  it('parses the documented shape', () => {
    expect(parseMe(me)).toEqual({ ownerId: 'local', recipient: null, deploymentMode: 'self_host', session: { required: false, authenticated: false, signIn: 'none' }, user: null });
    expect(parseMe({ ...me, owner_id: null, deployment_mode: 'hosted' })?.ownerId).toBeNull();
    // A share session: the recipient of one share, and whether it still answers.
    expect(parseMe({ ...me, owner_id: 'recipient:1', recipient: { share_id: 's1', share_name: 'Mix', status: 'ended' } })?.recipient).toEqual({ shareId: 's1', shareName: 'Mix', status: 'ended' });
  });

  it('rejects anything else', () => {
    expect(parseMe(null)).toBeUndefined();
    expect(parseMe({ ...me, deployment_mode: 'cloud' })).toBeUndefined();
    expect(parseMe({ ...me, owner_id: 3 })).toBeUndefined();
    expect(parseMe({ ...me, session: { required: 'yes', authenticated: false } })).toBeUndefined();
  });

  it('reads the signed-in user and the sign-in method of a hosted instance', () => {
    const hosted = parseMe({ owner_id: 'u-1', deployment_mode: 'hosted', session: { required: true, authenticated: true, sign_in: 'oidc' }, user: { id: 'u-1', email: 'a@example.org', display_name: null, is_admin: true } })!;
    expect(hosted.session.signIn).toBe('oidc');
    expect(hosted.user).toEqual({ id: 'u-1', email: 'a@example.org', displayName: null, isAdmin: true });
    expect(userLabel(hosted.user!)).toBe('a@example.org');
    expect(parseMe({ ...me, user: { id: 3 } })).toBeUndefined();
    expect(parseMe({ ...me, session: { required: true, authenticated: false } })?.session.signIn).toBe('owner_secret');
  });

  it('reads the sign-in method a 401 names', () => {
    expect(signInMethodOf({ code: 'session_required', sign_in: { method: 'oidc', url: '/api/auth/oidc/login' } })).toBe('oidc');
    expect(signInMethodOf({ code: 'session_required', sign_in: { method: 'owner_secret' } })).toBe('owner_secret');
    expect(signInMethodOf(undefined)).toBe('owner_secret');
  });

  it('asks for sign-in only when the gate is on and there is no session', () => {
    const parsed = (required: boolean, authenticated: boolean) => parseMe({ ...me, session: { required, authenticated } })!;
    expect(needsSignIn(parsed(true, false))).toBe(true);
    expect(needsSignIn(parsed(true, true))).toBe(false);
    expect(needsSignIn(parsed(false, false))).toBe(false);
  });

  it('describes deployment modes in words', () => {
    expect(describeDeploymentMode('self_host')).toMatch(/Self-hosted/);
    expect(describeDeploymentMode('hosted')).toMatch(/Hosted/);
  });
});

describe('DELETE /api/session', () => {
  it('names the provider’s end-session URL only when it is an https URL', () => {
    const url = 'https://id.example.org/session/end?id_token_hint=x&post_logout_redirect_uri=https%3A%2F%2Fmusic.example.org%2F';
    expect(endSessionUrlOf({ end_session_url: url })).toBe(url);
    expect(endSessionUrlOf(undefined)).toBeUndefined();
    expect(endSessionUrlOf({ end_session_url: 'javascript:alert(1)' })).toBeUndefined();
    expect(endSessionUrlOf({ end_session_url: 'not a url' })).toBeUndefined();
    expect(endSessionUrlOf({ end_session_url: 3 })).toBeUndefined();
  });
});

describe('problems', () => {
  it('keeps the fields of a problem document', () => {
    expect(
      toProblem(401, { type: 'about:blank', title: 'Invalid owner secret', status: 401, detail: 'Wrong secret.', code: 'invalid_owner_secret' }),
    ).toEqual({ type: 'about:blank', title: 'Invalid owner secret', status: 401, detail: 'Wrong secret.', code: 'invalid_owner_secret' });
  });

  it('puts a bare status into words', () => {
    expect(toProblem(502, '<html>Bad gateway</html>')).toEqual({
      title: 'The engine is not available',
      status: 502,
      detail: 'The engine answered with HTTP status 502.',
    });
    expect(toProblem(500, { title: '' }).title).toBe('The engine ran into a problem');
  });

  it('explains a network failure', () => {
    expect(networkProblem()).toMatchObject({ status: 0, code: 'network_error', title: 'Cannot reach the engine' });
  });
});
