import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { z } from 'zod';
import type { OidcConfig } from '../../config/oidc-config.ts';
import type { SqlExecute } from '../../storage/sql/executors.ts';
import { decideClaims } from './oidc-claims.ts';
import { deleteExpiredAttempts, insertAttempt, selectUser, takeAttempt, upsertUser } from './users.sql.ts';

/**
 * Hosted mode's user sign-in through an OpenID provider (openid-client, a certified relying
 * party): discovery, authorization code with PKCE, `state` and `nonce`, and validation of the ID
 * token (signature against the provider's published keys, issuer, audience, expiry, nonce).
 *
 * A sign-in in progress lives in PostgreSQL (any engine process may receive the callback): the
 * hash of its `state`, the hash of a browser cookie it is bound to, and its PKCE verifier and
 * nonce sealed by the credential vault. The callback takes it out in one statement, so it works
 * once; an unknown, used, expired or foreign attempt is refused before the provider is asked.
 */

export type OidcSignInErrorCode = 'oidc_attempt_invalid' | 'oidc_sign_in_failed' | 'oidc_user_not_allowed' | 'oidc_provider_unavailable';

export class OidcSignInError extends Error {
  readonly code: OidcSignInErrorCode;

  constructor(code: OidcSignInErrorCode, message: string) {
    super(message);
    this.name = 'OidcSignInError';
    this.code = code;
  }
}

/** A completed sign-in: the user, and the ID token to seal with their session (for the provider's sign-out). */
export interface SignedIn {
  user: User;
  idToken: string;
}

/** The sealed ID token of a session, as the session store keeps it. */
export interface SealedIdToken {
  keyId: string;
  blob: Uint8Array;
}

export interface User {
  id: string;
  email: string | null;
  displayName: string | null;
  isAdmin: boolean;
}

/** Seals and opens the attempt secrets (the credential vault's attempt sealing). */
export interface AttemptSealer {
  sealAttempt(stateHash: string, secrets: unknown): { keyId: string; blob: Uint8Array };
  openAttempt(stateHash: string, keyId: string, blob: Uint8Array): unknown;
}

export interface OidcSignInOptions {
  config: OidcConfig;
  execute: SqlExecute;
  vault: AttemptSealer;
  /** Tests: the fetch the relying party uses (one that trusts the test provider's certificate). */
  fetch?: client.CustomFetch;
  clock?: () => Date;
}

const ATTEMPT_TTL_MS = 10 * 60_000;
const attemptSecrets = z.object({ verifier: z.string().min(43).max(128), nonce: z.string().min(1).max(256) }).strict();
const idTokenSecret = z.object({ id_token: z.string().min(1).max(16_384) }).strict();
const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
/** Query values of a callback are short; anything longer is no answer of ours. */
const MAX_PARAMETER = 2048;

export class OidcSignIn {
  readonly #config: OidcConfig;
  readonly #execute: SqlExecute;
  readonly #vault: AttemptSealer;
  readonly #fetch: client.CustomFetch | undefined;
  readonly #clock: () => Date;
  #discovered: Promise<client.Configuration> | null = null;

  constructor(options: OidcSignInOptions) {
    this.#config = options.config;
    this.#execute = options.execute;
    this.#vault = options.vault;
    this.#fetch = options.fetch;
    this.#clock = options.clock ?? (() => new Date());
  }

  /** The provider's metadata, discovered once; a failed discovery is tried again next time. */
  #provider(): Promise<client.Configuration> {
    if (this.#discovered === null) {
      const { issuer, clientId, clientSecret } = this.#config;
      const discovered = client
        .discovery(new URL(issuer), clientId, { redirect_uris: [this.#config.redirectUri], response_types: ['code'] }, clientSecret === undefined ? client.None() : client.ClientSecretBasic(clientSecret), {
          ...(this.#fetch ? { [client.customFetch]: this.#fetch } : {}),
          // The ID token's signature is verified against the provider's keys even though it comes
          // straight from the token endpoint over TLS (which the spec would allow to skip).
          execute: [client.enableNonRepudiationChecks],
          timeout: 15,
        })
        .catch((error: unknown) => {
          this.#discovered = null;
          throw new OidcSignInError('oidc_provider_unavailable', `The OpenID provider ${issuer} could not be discovered (${describe(error)}). Try again later, or ask the administrator to check OPL_OIDC_ISSUER.`);
        });
      this.#discovered = discovered;
    }
    return this.#discovered;
  }

  /**
   * Starts a sign-in: the provider URL to send the browser to, and the browser token to set as
   * an HttpOnly cookie (the callback must come back with it).
   */
  async begin(): Promise<{ url: string; browserToken: string; maxAgeSeconds: number }> {
    const provider = await this.#provider();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const verifier = client.randomPKCECodeVerifier();
    const browserToken = randomBytes(32).toString('base64url');
    const stateHash = sha256(state);
    const sealed = this.#vault.sealAttempt(stateHash, { verifier, nonce });
    await this.#execute(insertAttempt(stateHash, sha256(browserToken), sealed.keyId, sealed.blob, new Date(this.#clock().getTime() + ATTEMPT_TTL_MS)));
    const url = client.buildAuthorizationUrl(provider, {
      redirect_uri: this.#config.redirectUri,
      scope: this.#config.scopes.join(' '),
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, browserToken, maxAgeSeconds: ATTEMPT_TTL_MS / 1000 };
  }

  /** Completes a sign-in from the callback URL the provider sent the browser to. */
  async complete(callbackUrl: URL, browserToken: string | undefined): Promise<SignedIn> {
    const state = callbackUrl.searchParams.get('state');
    if (!state || state.length > MAX_PARAMETER || [...callbackUrl.searchParams.values()].some((value) => value.length > MAX_PARAMETER)) {
      throw new OidcSignInError('oidc_attempt_invalid', 'The callback names no sign-in attempt of this instance (its `state` is missing). Start again from the sign-in page.');
    }
    const stateHash = sha256(state);
    const [row] = await this.#execute(takeAttempt(stateHash));
    if (!row) throw new OidcSignInError('oidc_attempt_invalid', 'This sign-in attempt is unknown or was already used (the `state` does not match one). Start again from the sign-in page.');
    if (new Date(row['expires_at'] as string | Date) <= this.#clock()) throw new OidcSignInError('oidc_attempt_invalid', 'This sign-in attempt expired. Start again from the sign-in page.');
    if (!browserToken || browserToken.length > 256 || sha256(browserToken) !== row['browser_hash']) {
      throw new OidcSignInError('oidc_attempt_invalid', 'This sign-in was started in another browser (or its cookie is gone). Start again from the sign-in page in this browser.');
    }
    const secrets = attemptSecrets.parse(this.#vault.openAttempt(stateHash, String(row['key_id']), new Uint8Array(row['sealed_secrets'] as Buffer)));
    const provider = await this.#provider();
    let claims: Record<string, unknown>;
    let issuer: string;
    let idTokenText: string;
    try {
      const tokens = await client.authorizationCodeGrant(provider, callbackUrl, { pkceCodeVerifier: secrets.verifier, expectedState: state, expectedNonce: secrets.nonce, idTokenExpected: true });
      const idToken = tokens.claims();
      if (!idToken || !tokens.id_token) throw new OidcSignInError('oidc_sign_in_failed', 'The OpenID provider sent no ID token.');
      idTokenText = tokens.id_token;
      issuer = idToken.iss;
      // Scope claims (e-mail, groups) often come only from the userinfo endpoint; its subject must match.
      const userinfo = provider.serverMetadata().userinfo_endpoint ? await client.fetchUserInfo(provider, tokens.access_token, idToken.sub) : {};
      claims = { ...userinfo, ...idToken };
    } catch (error) {
      if (error instanceof OidcSignInError) throw error;
      throw refusal(error);
    }
    const decision = decideClaims(claims, this.#config);
    if (!decision.allowed) throw new OidcSignInError('oidc_user_not_allowed', decision.reason);
    const [user] = await this.#execute(upsertUser(issuer, String(claims['sub']), decision, this.#clock()));
    return { user: toUser(user!), idToken: idTokenText };
  }

  /**
   * Seals a sign-in's ID token for its session, bound to the session's token hash: it is kept only
   * as the `id_token_hint` of the provider's end-session request at sign-out.
   */
  sealIdToken(sessionTokenHash: string, idToken: string): SealedIdToken {
    return this.#vault.sealAttempt(`owner-session:${sessionTokenHash}`, { id_token: idToken });
  }

  /**
   * Where to send the browser after our session ended so the provider ends its own (RP-initiated
   * logout): null when the provider advertises no `end_session_endpoint`, or the session kept no
   * ID token. The provider sends the browser back to the instance's start page.
   */
  async endSessionUrl(sessionTokenHash: string, sealed: SealedIdToken | null): Promise<string | null> {
    if (sealed === null) return null;
    const provider = await this.#provider().catch(() => null);
    if (provider?.serverMetadata().end_session_endpoint === undefined) return null;
    const opened = idTokenSecret.safeParse(this.#vault.openAttempt(`owner-session:${sessionTokenHash}`, sealed.keyId, sealed.blob));
    if (!opened.success) return null;
    return client.buildEndSessionUrl(provider, { id_token_hint: opened.data.id_token, post_logout_redirect_uri: new URL('/', this.#config.redirectUri).href }).href;
  }

  async user(id: string): Promise<User | null> {
    const [row] = await this.#execute(selectUser(id));
    return row ? toUser(row) : null;
  }

  /** Drops sign-ins that were begun and never finished. */
  async purge(): Promise<void> {
    await this.#execute(deleteExpiredAttempts(this.#clock()));
  }
}

function toUser(row: Record<string, unknown>): User {
  return { id: String(row['id']), email: (row['email'] as string | null) ?? null, displayName: (row['display_name'] as string | null) ?? null, isAdmin: row['is_admin'] === true };
}

/**
 * The library's own messages are fixed texts (never token contents), so they explain a refusal
 * safely. openid-client wraps the precise one (which claim failed) as the cause of a general one.
 */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const precise = error instanceof client.ClientError && error.cause instanceof Error ? error.cause : error;
  return precise.message.slice(0, 300);
}

function refusal(error: unknown): OidcSignInError {
  if (error instanceof client.AuthorizationResponseError) {
    return new OidcSignInError('oidc_sign_in_failed', `The OpenID provider refused the sign-in (${error.error}). Start again from the sign-in page.`);
  }
  if (error instanceof client.ResponseBodyError) {
    return new OidcSignInError('oidc_sign_in_failed', `The OpenID provider refused the authorization code (${error.error}): it was already used, has expired, or was not issued for this sign-in. Start again from the sign-in page.`);
  }
  if (error instanceof TypeError && !(error instanceof client.ClientError)) {
    return new OidcSignInError('oidc_provider_unavailable', `The OpenID provider could not be reached (${describe(error)}). Try again later.`);
  }
  return new OidcSignInError('oidc_sign_in_failed', `The OpenID provider's answer failed validation: ${describe(error)}. Start again from the sign-in page.`);
}
