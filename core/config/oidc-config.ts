import { z } from 'zod';
import { optionalText as text } from './env-values.ts';

/**
 * The `OPL_OIDC_*` variables: hosted mode's user sign-in through an OpenID Connect provider. Kept
 * beside config.schema.ts (which spreads `oidcEnvShape` into the one schema) so the rules of one
 * feature read together.
 */

const list = z
  .string()
  .trim()
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  );

const issuerUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' && !url.username && !url.password && !url.search && !url.hash;
    } catch {
      return false;
    }
  }, 'must be the https:// issuer identifier of the OpenID provider, without credentials, query or fragment');

const domain = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export const oidcEnvShape = {
  OPL_OIDC_ISSUER: issuerUrl
    .optional()
    .describe('Hosted mode: issuer URL of the OpenID Connect provider users sign in with (discovery reads `/.well-known/openid-configuration` under it). Needs `OPL_OIDC_CLIENT_ID` and `OPL_PUBLIC_BASE_URL`.'),
  OPL_OIDC_CLIENT_ID: text.describe('Client id of this instance at the OpenID provider. Its redirect URI there is `OPL_PUBLIC_BASE_URL/api/auth/oidc/callback`.'),
  OPL_OIDC_CLIENT_SECRET: text.describe('Client secret at the OpenID provider (sent as `client_secret_basic`). Unset: a public client (PKCE only). Never logged.'),
  OPL_OIDC_SCOPES: list
    .default(['openid', 'email', 'profile'])
    .refine((scopes) => scopes.includes('openid'), 'must include openid')
    .refine((scopes) => scopes.every((scope) => /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope)), 'must be scope names separated by commas')
    .describe('Scopes requested at sign-in, comma-separated; must include `openid`.'),
  OPL_OIDC_ALLOWED_DOMAINS: list
    .default([])
    .transform((domains) => domains.map((entry) => entry.toLowerCase()))
    .refine((domains) => domains.every((entry) => domain.test(entry)), 'must be e-mail domains separated by commas (example.com,example.org)')
    .describe('Only users whose verified e-mail address is in one of these domains may sign in (comma-separated). Empty: any.'),
  OPL_OIDC_GROUPS_CLAIM: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_:./-]{1,100}$/, 'must be a claim name')
    .default('groups')
    .describe('ID-token claim that lists the user’s groups (a string or an array of strings).'),
  OPL_OIDC_ALLOWED_GROUPS: list.default([]).describe('Only members of one of these groups may sign in (comma-separated). Empty: any.'),
  OPL_OIDC_ADMIN_GROUPS: list.default([]).describe('Members of one of these groups are admins of this instance (plugin allow-list, quarantine). Empty: only `OPL_ADMIN_TOKEN` administers.'),
};

type OidcEnv = { [K in keyof typeof oidcEnvShape]?: z.output<(typeof oidcEnvShape)[K]> };

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  scopes: string[];
  allowedDomains: string[];
  groupsClaim: string;
  allowedGroups: string[];
  adminGroups: string[];
  /** `OPL_PUBLIC_BASE_URL/api/auth/oidc/callback`, registered at the provider. */
  redirectUri: string;
}

/** The cross-variable rules of OIDC sign-in (called from the schema's superRefine). */
export function checkOidcEnv(env: OidcEnv & { OPL_DEPLOYMENT_MODE: string; OPL_PUBLIC_BASE_URL?: string | undefined }, ctx: z.RefinementCtx): void {
  const named = (['OPL_OIDC_CLIENT_ID', 'OPL_OIDC_CLIENT_SECRET'] as const).filter((name) => env[name] !== undefined);
  if (env.OPL_OIDC_ISSUER === undefined) {
    for (const name of named) ctx.addIssue({ code: 'custom', path: [name], message: 'needs OPL_OIDC_ISSUER' });
    return;
  }
  if (env.OPL_DEPLOYMENT_MODE !== 'hosted') {
    ctx.addIssue({ code: 'custom', path: ['OPL_OIDC_ISSUER'], message: 'is only used in hosted mode (a self-hosted instance has one local owner; set OPL_DEPLOYMENT_MODE=hosted)' });
  }
  if (env.OPL_OIDC_CLIENT_ID === undefined) {
    ctx.addIssue({ code: 'custom', path: ['OPL_OIDC_CLIENT_ID'], message: 'is required with OPL_OIDC_ISSUER (the client id of this instance at the OpenID provider)' });
  }
  if (env.OPL_PUBLIC_BASE_URL === undefined) {
    ctx.addIssue({ code: 'custom', path: ['OPL_PUBLIC_BASE_URL'], message: 'is required with OPL_OIDC_ISSUER (the OpenID provider redirects users back to it)' });
  }
}

export function toOidcConfig(env: OidcEnv, publicBaseUrl: string | undefined): OidcConfig | null {
  if (env.OPL_OIDC_ISSUER === undefined || env.OPL_OIDC_CLIENT_ID === undefined || publicBaseUrl === undefined) return null;
  return {
    issuer: env.OPL_OIDC_ISSUER,
    clientId: env.OPL_OIDC_CLIENT_ID,
    clientSecret: env.OPL_OIDC_CLIENT_SECRET,
    scopes: env.OPL_OIDC_SCOPES ?? ['openid'],
    allowedDomains: env.OPL_OIDC_ALLOWED_DOMAINS ?? [],
    groupsClaim: env.OPL_OIDC_GROUPS_CLAIM ?? 'groups',
    allowedGroups: env.OPL_OIDC_ALLOWED_GROUPS ?? [],
    adminGroups: env.OPL_OIDC_ADMIN_GROUPS ?? [],
    redirectUri: `${publicBaseUrl}/api/auth/oidc/callback`,
  };
}
