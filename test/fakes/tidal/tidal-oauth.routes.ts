import type { ServerResponse } from 'node:http';
import { answerAuthorize, AUTHORIZATION_CODE_TTL_MS, checkPkceCodeRequest, consentPageHtml, escapeHtml, formBody, pkceChallenge, randomId, redirect, redirectUriAllowed, requestedScopes, sendHtml, sendJson, withParams, type AuthorizeStep, type FakeRequest, type PkceAuthorizeParams, type RedirectFlowOptions } from '../kit/index.ts';
import { issuedSecret } from '../secret-ledger.ts';
import { THIRD_PARTY_SCOPES, type TidalState } from './tidal-state.ts';

/**
 * TIDAL's OAuth 2.1 authorization-code flow with PKCE (S256) as a public client:
 * `https://login.tidal.com/authorize` (the consent page) and
 * `https://auth.tidal.com/v1/oauth2/token` (authorization_code and refresh_token grants).
 * Token errors use TIDAL's body: `{status, sub_status, error, error_description}`.
 */

export type { RedirectFlowOptions as OAuthOptions } from '../kit/index.ts';

interface AuthorizeParams extends PkceAuthorizeParams {
  readonly clientId: string;
}

function tokenError(response: ServerResponse, status: number, error: string, subStatus: number, description: string): void {
  sendJson(response, status, { status, sub_status: subStatus, error, error_description: description });
}

/** Checks the authorize request; answers the error page itself and returns null when it is unusable. */
function authorizeParams(state: TidalState, params: URLSearchParams, response: ServerResponse): AuthorizeParams | null {
  const clientId = params.get('client_id') ?? '';
  const redirectUri = params.get('redirect_uri') ?? '';
  const client = state.clients.get(clientId);
  const redirectOk = redirectUriAllowed(client, redirectUri);
  // An unknown client or a bad redirect URI never redirects: the error stays on TIDAL's page.
  if (!client || !redirectOk) {
    sendHtml(response, 400, `<!doctype html><title>TIDAL</title><p>${!client ? 'Unknown client.' : 'Invalid redirect URI.'}</p>`);
    return null;
  }
  const request = checkPkceCodeRequest(params, redirectUri, response, 'PKCE with code_challenge_method=S256 is required');
  if (!request) return null;
  const { state: stateParam, codeChallenge, fail } = request;
  const scopes = (params.get('scope') ?? '').split(/[\s+]+/).filter(Boolean);
  const unknown = scopes.filter((scope) => !(THIRD_PARTY_SCOPES as readonly string[]).includes(scope));
  if (unknown.length) return fail('invalid_scope', `unknown or unavailable scope: ${unknown.join(' ')}`);
  return { clientId, redirectUri, state: stateParam, scopes, codeChallenge };
}

function approve(state: TidalState, params: AuthorizeParams, userId: string, response: ServerResponse): void {
  // Codes are secrets too: the suite-wide scan looks for them in every log line and answer.
  const code = issuedSecret(randomId('', 24));
  state.codes.set(code, { code, userId, clientId: params.clientId, redirectUri: params.redirectUri, codeChallenge: params.codeChallenge, scopes: params.scopes, expiresAt: Date.now() + AUTHORIZATION_CODE_TTL_MS, used: false });
  redirect(response, withParams(params.redirectUri, { code, state: params.state }));
}

function consentPage(state: TidalState, params: URLSearchParams, userId: string): string {
  const scopes = requestedScopes(params);
  const asks = `The app asks for: ${scopes.length ? scopes.map(escapeHtml).join(', ') : 'basic access'}.`;
  return consentPageHtml({ title: 'Log in to TIDAL', heading: 'Allow access to your TIDAL account?', signedInAs: state.users.get(userId)!.username, asks, action: '/authorize', params });
}

const denial = (checked: AuthorizeParams) => withParams(checked.redirectUri, { error: 'access_denied', error_description: 'The user denied access', state: checked.state });
const authorizeStep: AuthorizeStep<TidalState, AuthorizeParams> = { check: authorizeParams, approve, consentPage, denial };

export function handleAuthorize(state: TidalState, options: RedirectFlowOptions, request: FakeRequest, response: ServerResponse): void {
  answerAuthorize(authorizeStep, state, options, request, response);
}

export function handleToken(state: TidalState, options: RedirectFlowOptions, request: FakeRequest, response: ServerResponse): void {
  if (request.method !== 'POST') return tokenError(response, 405, 'invalid_request', 1001, 'Method not allowed');
  const body = formBody(request.body);
  const client = state.clients.get(body['client_id'] ?? '');
  if (!client) return tokenError(response, 401, 'invalid_client', 1002, 'Client not found');
  if (client.clientSecret !== null && body['client_secret'] !== undefined && body['client_secret'] !== client.clientSecret) {
    return tokenError(response, 401, 'invalid_client', 1002, 'Invalid client credentials');
  }
  const answer = (userId: string, scopes: readonly string[], refreshing: boolean) => {
    const common = { token_type: 'Bearer', expires_in: options.accessTokenTtlS, scope: scopes.join(' '), user_id: Number(state.users.get(userId)!.id) };
    if (refreshing) {
      // TIDAL keeps the refresh token on refresh: no new one in the answer.
      const access = state.issueAccessToken(userId, client.clientId, scopes, options.accessTokenTtlS);
      sendJson(response, 200, { access_token: access.token, ...common });
      return;
    }
    const { access, refresh } = state.issueTokens(userId, client.clientId, scopes, options.accessTokenTtlS);
    sendJson(response, 200, { access_token: access.token, refresh_token: refresh.token, ...common });
  };
  switch (body['grant_type']) {
    case 'authorization_code': {
      const code = state.codes.get(body['code'] ?? '');
      if (!code || code.used || code.expiresAt < Date.now() || code.clientId !== client.clientId) return tokenError(response, 400, 'invalid_grant', 11101, 'Invalid authorization code');
      // A replayed code burns itself: the first exchange already consumed it.
      code.used = true;
      if (code.redirectUri !== body['redirect_uri']) return tokenError(response, 400, 'invalid_grant', 11102, 'Redirect URI mismatch');
      if (!body['code_verifier'] || pkceChallenge(body['code_verifier']) !== code.codeChallenge) return tokenError(response, 400, 'invalid_grant', 11103, 'Invalid code verifier');
      return answer(code.userId, code.scopes, false);
    }
    case 'refresh_token': {
      const refresh = state.refreshTokens.get(body['refresh_token'] ?? '');
      if (!refresh || refresh.revoked || refresh.clientId !== client.clientId) return tokenError(response, 400, 'invalid_grant', 11003, 'Token could not be refreshed');
      return answer(refresh.userId, refresh.scopes, true);
    }
    default:
      return tokenError(response, 400, 'unsupported_grant_type', 1003, 'Unsupported grant type');
  }
}
