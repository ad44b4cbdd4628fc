import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../core/config/index.ts';
import { decideClaims } from '../../../core/services/users/index.ts';

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env, '/srv/opl');
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

const HOSTED = { OPL_DEPLOYMENT_MODE: 'hosted', OPL_PUBLIC_BASE_URL: 'https://music.example.org' };
const ISSUER = { OPL_OIDC_ISSUER: 'https://id.example.org/realms/music', OPL_OIDC_CLIENT_ID: 'opl' };

describe('OPL_OIDC_* configuration', () => {
  it('reads a provider with its defaults; the redirect URI hangs off the public base URL', () => {
    const config = loadConfig({ ...HOSTED, ...ISSUER, OPL_OIDC_CLIENT_SECRET: 'the-client-secret' }, '/srv/opl');
    expect(config.oidc).toEqual({
      issuer: 'https://id.example.org/realms/music',
      clientId: 'opl',
      clientSecret: 'the-client-secret',
      scopes: ['openid', 'email', 'profile'],
      allowedDomains: [],
      groupsClaim: 'groups',
      allowedGroups: [],
      adminGroups: [],
      redirectUri: 'https://music.example.org/api/auth/oidc/callback',
    });
    expect(loadConfig(HOSTED, '/srv/opl').oidc).toBeNull();
  });

  it('reads lists: scopes, domains (lower-cased), groups', () => {
    const config = loadConfig({ ...HOSTED, ...ISSUER, OPL_OIDC_SCOPES: 'openid, email,groups', OPL_OIDC_ALLOWED_DOMAINS: 'Example.org,example.net', OPL_OIDC_ALLOWED_GROUPS: 'listeners', OPL_OIDC_ADMIN_GROUPS: 'admins,ops' }, '/x');
    expect(config.oidc).toMatchObject({ scopes: ['openid', 'email', 'groups'], allowedDomains: ['example.org', 'example.net'], allowedGroups: ['listeners'], adminGroups: ['admins', 'ops'] });
  });

  it('refuses incomplete or misplaced provider settings, saying what is missing', () => {
    expect(problemsOf({ ...HOSTED, OPL_OIDC_ISSUER: 'https://id.example.org' })).toEqual([expect.stringMatching(/^OPL_OIDC_CLIENT_ID: is required with OPL_OIDC_ISSUER/)]);
    expect(problemsOf({ OPL_DEPLOYMENT_MODE: 'hosted', ...ISSUER })).toEqual([expect.stringMatching(/^OPL_PUBLIC_BASE_URL: is required with OPL_OIDC_ISSUER/)]);
    expect(problemsOf({ OPL_PUBLIC_BASE_URL: 'https://music.example.org', OPL_OWNER_SECRET: 'a-long-owner-secret', ...ISSUER })).toEqual([expect.stringMatching(/^OPL_OIDC_ISSUER: is only used in hosted mode/)]);
    expect(problemsOf({ ...HOSTED, OPL_OIDC_CLIENT_ID: 'opl' })).toEqual([expect.stringMatching(/^OPL_OIDC_CLIENT_ID: needs OPL_OIDC_ISSUER/)]);
    expect(problemsOf({ ...HOSTED, ...ISSUER, OPL_OIDC_ISSUER: 'http://id.example.org' })[0]).toMatch(/^OPL_OIDC_ISSUER: must be the https:\/\/ issuer/);
    expect(problemsOf({ ...HOSTED, ...ISSUER, OPL_OIDC_SCOPES: 'email,profile' })[0]).toMatch(/^OPL_OIDC_SCOPES: must include openid/);
    expect(problemsOf({ ...HOSTED, ...ISSUER, OPL_OIDC_ALLOWED_DOMAINS: 'example.org,not a domain' })[0]).toMatch(/^OPL_OIDC_ALLOWED_DOMAINS: must be e-mail domains/);
  });

  it('never echoes the client secret in a configuration problem', () => {
    const problems = problemsOf({ ...HOSTED, OPL_OIDC_CLIENT_SECRET: 'super-secret-value' });
    expect(problems.join('\n')).not.toContain('super-secret-value');
  });

  it('a hosted instance with a public URL needs no owner secret', () => {
    expect(problemsOf(HOSTED)).toEqual([]);
  });
});

describe('decideClaims', () => {
  const policy = { allowedDomains: [], groupsClaim: 'groups', allowedGroups: [], adminGroups: ['admins'] };

  it('lets anyone in without rules; admins by group (a string or a list)', () => {
    expect(decideClaims({ sub: 'a', email: 'a@x.test', name: 'A' }, policy)).toEqual({ allowed: true, email: 'a@x.test', displayName: 'A', isAdmin: false });
    expect(decideClaims({ sub: 'a', groups: 'admins' }, policy)).toMatchObject({ allowed: true, isAdmin: true, email: null });
    expect(decideClaims({ sub: 'a', groups: ['x', 'admins'], preferred_username: 'ally' }, policy)).toMatchObject({ isAdmin: true, displayName: 'ally' });
  });

  it('allowed domains need a verified address of one of them', () => {
    const domains = { ...policy, allowedDomains: ['example.org'] };
    expect(decideClaims({ email: 'a@Example.ORG', email_verified: true }, domains)).toMatchObject({ allowed: true });
    expect(decideClaims({ email: 'a@example.org', email_verified: false }, domains)).toMatchObject({ allowed: false });
    expect(decideClaims({ email: 'a@example.org' }, domains)).toMatchObject({ allowed: false });
    expect(decideClaims({ email: 'a@example.org.evil.test', email_verified: true }, domains)).toMatchObject({ allowed: false });
    expect(decideClaims({ email: 'a@evil.test@example.org', email_verified: true }, domains)).toMatchObject({ allowed: true });
    expect(decideClaims({ email_verified: true }, domains)).toMatchObject({ allowed: false, reason: expect.stringMatching(/example\.org/) });
  });

  it('allowed groups need membership of one', () => {
    const groups = { ...policy, allowedGroups: ['listeners'] };
    expect(decideClaims({ groups: ['listeners'] }, groups)).toMatchObject({ allowed: true });
    expect(decideClaims({ groups: ['others'] }, groups)).toMatchObject({ allowed: false, reason: expect.stringMatching(/listeners/) });
    expect(decideClaims({ groups: [42] }, groups)).toMatchObject({ allowed: false });
  });
});
