import { createHash, randomBytes } from 'node:crypto';
import { AuthFlowError, browserUrl, scopesFor, type AttemptSecrets, type AuthStrategy, type NewCredentialParts, type StrategyContext } from './auth-strategy.ts';
import type { StoredCredential } from '../vault/credential-vault.ts';
import { OAuthEndpointError, parseTokenResponse, postForm, type TokenResponse } from './oauth-http.ts';

/**
 * OAUTH_PKCE: authorization code with PKCE (S256) and `state`. The browser goes to the provider's
 * authorization URL; the provider sends it back to the engine's callback with a code, which the
 * engine exchanges (with the verifier only it knows) at the token endpoint.
 */

const ATTEMPT_TTL_S = 15 * 60;

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function endpoints(context: StrategyContext) {
  const oauth = context.method.oauth;
  if (!oauth) throw new AuthFlowError('not_available', `${context.manifest.name} declares OAUTH_PKCE without OAuth endpoints`);
  return oauth;
}

/** Client authentication at the token endpoint, as the manifest says (under the provider's parameter names). */
export function clientAuth(context: StrategyContext, client: { client_id: string; client_secret: string | null }): { form: Record<string, string>; basicAuth: { user: string; password: string } | undefined } {
  const mode = context.method.token_endpoint_auth;
  const names = context.method.oauth?.param_names ?? { client_id: 'client_id', client_secret: 'client_secret' };
  if (mode === 'none' || !client.client_secret) return { form: { [names.client_id]: client.client_id }, basicAuth: undefined };
  if (mode === 'client_secret_post') return { form: { [names.client_id]: client.client_id, [names.client_secret]: client.client_secret }, basicAuth: undefined };
  return { form: {}, basicAuth: { user: client.client_id, password: client.client_secret } };
}

/** A token endpoint request in the manifest's dialect: form POST or GET query, plus its fixed extra parameters. */
export function requestTokens(context: StrategyContext, tokenUrl: string, grant: Record<string, string>, auth: ReturnType<typeof clientAuth>): Promise<unknown> {
  const oauth = context.method.oauth;
  return postForm(tokenUrl, { ...oauth?.token_params, ...grant, ...auth.form }, { originOverrides: context.originOverrides, asQuery: oauth?.token_request === 'get_query', ...(auth.basicAuth ? { basicAuth: auth.basicAuth } : {}) });
}

export function credentialFromTokens(context: StrategyContext, tokens: TokenResponse, requestedScopes: readonly string[], previousRefresh: string | null = null, client: { client_id: string; client_secret: string | null } | null = null): NewCredentialParts {
  return {
    material: { secret: { kind: 'token', access_token: tokens.access_token }, client },
    // Providers that do not rotate refresh tokens leave it out of the refresh answer.
    refreshToken: tokens.refresh_token ?? previousRefresh,
    expiresAt: tokens.expires_in ? new Date(context.now().getTime() + tokens.expires_in * 1000) : null,
    scopes: tokens.scope ? tokens.scope.split(/[\s,]+/).filter(Boolean).sort() : [...requestedScopes],
  };
}

function configuredClient(context: StrategyContext): { client_id: string; client_secret: string | null } {
  const id = context.client?.client_id;
  if (!id) throw new AuthFlowError('not_available', `no OAuth client is configured for ${context.provider}: add {"${context.provider}": {"client_id": "…"}} to the file named by OPL_PROVIDER_CLIENTS_FILE`);
  return { client_id: id, client_secret: context.client?.client_secret ?? null };
}

function secretsOf(state: string, verifier: string | null): AttemptSecrets {
  return verifier === null ? { state } : { state, code_verifier: verifier };
}

export const oauthPkceStrategy: AuthStrategy = {
  kind: 'OAUTH_PKCE',

  unavailableReason(context) {
    if (!context.method.oauth) return `${context.manifest.name} declares OAUTH_PKCE without OAuth endpoints.`;
    if (!context.client?.client_id) return `No OAuth client is configured for ${context.provider}. Register an app with the provider and add its client id to OPL_PROVIDER_CLIENTS_FILE.`;
    return null;
  },

  async begin(context, request) {
    const oauth = endpoints(context);
    const client = configuredClient(context);
    const { verifier, challenge } = pkcePair();
    const state = randomBytes(32).toString('base64url');
    const scopes = scopesFor(context.method, request.capabilities);
    const url = new URL(oauth.authorization_url);
    const params: Record<string, string> = {
      ...context.method.authorize_params,
      [oauth.param_names.client_id]: client.client_id,
      response_type: 'code',
      redirect_uri: context.redirectUri,
      state,
    };
    // Providers without PKCE (Deezer) authenticate the exchange with the client secret instead.
    if (oauth.pkce) Object.assign(params, { code_challenge: challenge, code_challenge_method: 'S256' });
    if (scopes.length > 0) params[oauth.param_names.scope] = scopes.join(oauth.scope_separator);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return {
      challenge: { shape: 'redirect', redirect_url: browserUrl(url, context.originOverrides), instructions: `Sign in to ${context.manifest.provider?.display_name ?? context.provider} and allow access; you will come back here.` },
      // `state` is the attempt's key (the service stores only its hash); the verifier stays sealed.
      secrets: secretsOf(state, oauth.pkce ? verifier : null),
      scopes,
      expiresInS: ATTEMPT_TTL_S,
    };
  },

  async complete(context, secrets, scopes, input) {
    if (input.error) {
      throw new AuthFlowError('access_denied', input.error === 'access_denied' ? 'Access was not granted at the provider.' : `The provider reported an error: ${String(input.error).slice(0, 100)}`);
    }
    const oauth = endpoints(context);
    const verifier = secrets['code_verifier'];
    if (!input.code || (oauth.pkce && typeof verifier !== 'string')) throw new AuthFlowError('invalid_callback', 'The provider sent no authorization code.');
    const client = configuredClient(context);
    const auth = clientAuth(context, client);
    try {
      const grant: Record<string, string> = { grant_type: 'authorization_code', code: input.code, redirect_uri: context.redirectUri };
      if (oauth.pkce && typeof verifier === 'string') grant['code_verifier'] = verifier;
      const json = await requestTokens(context, oauth.token_url, grant, auth);
      return { status: 'done', credential: credentialFromTokens(context, parseTokenResponse(json, new URL(oauth.token_url).origin), scopes) };
    } catch (error) {
      if (error instanceof OAuthEndpointError) throw new AuthFlowError('provider_refused', `The provider did not accept the authorization: ${error.message}`);
      throw error;
    }
  },

  async refresh(context, stored) {
    return refreshWithToken(context, stored, stored.material.client ?? configuredClient(context));
  },

  async revoke(context, stored) {
    await revokeToken(context, stored, stored.material.client ?? (context.client?.client_id ? configuredClient(context) : null));
  },

  callHeaders() {
    return {};
  },
};

/** The refresh_token grant, shared with the device flow. */
export async function refreshWithToken(context: StrategyContext, stored: AttemptlessStored, client: { client_id: string; client_secret: string | null }): Promise<NewCredentialParts | null> {
  const tokenUrl = context.method.oauth?.token_url ?? context.method.device?.token_url;
  if (!stored.refreshToken || !tokenUrl) return null;
  const auth = clientAuth(context, client);
  const json = await requestTokens(context, tokenUrl, { grant_type: 'refresh_token', refresh_token: stored.refreshToken }, auth);
  return credentialFromTokens(context, parseTokenResponse(json, new URL(tokenUrl).origin), stored.scopes, stored.refreshToken, stored.material.client);
}

type AttemptlessStored = Pick<StoredCredential, 'refreshToken' | 'scopes' | 'material'>;

export async function revokeToken(context: StrategyContext, stored: AttemptlessStored, client: { client_id: string; client_secret: string | null } | null): Promise<void> {
  const url = context.method.oauth?.revocation_url;
  if (!url || !client) return;
  const auth = clientAuth(context, client);
  const token = stored.refreshToken ?? (stored.material.secret.kind === 'token' ? stored.material.secret.access_token : null);
  if (!token) return;
  await postForm(url, { token, token_type_hint: stored.refreshToken ? 'refresh_token' : 'access_token', ...auth.form }, { originOverrides: context.originOverrides, ...(auth.basicAuth ? { basicAuth: auth.basicAuth } : {}) });
}
