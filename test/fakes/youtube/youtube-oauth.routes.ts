import type { ServerResponse } from 'node:http';
import { answerAuthorize, AUTHORIZATION_CODE_TTL_MS, checkPkceCodeRequest, consentPageHtml, escapeHtml, formBody, pkceChallenge, randomId, redirect, redirectUriAllowed, requestedScopes, sendHtml, sendJson, withParams, type AuthorizeStep, type FakeRequest, type PkceAuthorizeParams, type RedirectFlowOptions } from '../kit/index.ts';
import { issuedSecret } from '../secret-ledger.ts';
import { KNOWN_SCOPES, type OAuthClient, type YoutubeState } from './youtube-state.ts';

/**
 * Google's OAuth 2.0 for the YouTube Data API: the consent page at
 * `https://accounts.google.com/o/oauth2/v2/auth` (authorization code with PKCE S256; `access_type=
 * offline` is what earns a refresh token) and the token endpoint at
 * `https://oauth2.googleapis.com/token` (authorization_code and refresh_token grants; refreshing
 * returns no new refresh token), plus `/revoke`. Token errors use Google's body:
 * `{error, error_description}`.
 */

export type { RedirectFlowOptions as OAuthOptions } from '../kit/index.ts';

interface AuthorizeParams extends PkceAuthorizeParams {
  readonly client: OAuthClient;
  readonly offline: boolean;
}

function errorPage(response: ServerResponse, code: string, text: string): void {
  sendHtml(response, 400, `<!doctype html><title>Error 400 (OAuth2 Error)</title><h1>Access blocked: authorization error</h1><p>Error 400: ${escapeHtml(code)}</p><p>${escapeHtml(text)}</p>`);
}

function authorizeParams(state: YoutubeState, params: URLSearchParams, response: ServerResponse): AuthorizeParams | null {
  const client = state.clients.get(params.get('client_id') ?? '');
  if (!client) {
    errorPage(response, 'invalid_client', 'The OAuth client was not found.');
    return null;
  }
  const redirectUri = params.get('redirect_uri') ?? '';
  const redirectOk = redirectUriAllowed(client, redirectUri);
  // Google never redirects to an unregistered URI: the error stays on its own page.
  if (!redirectOk) {
    errorPage(response, 'redirect_uri_mismatch', 'The redirect URI in the request does not match the ones authorized for the OAuth client.');
    return null;
  }
  const request = checkPkceCodeRequest(params, redirectUri, response, 'Missing or invalid code_challenge (S256)');
  if (!request) return null;
  const { state: stateParam, codeChallenge, fail } = request;
  const scopes = requestedScopes(params);
  if (scopes.length === 0) return fail('invalid_request', 'Missing required parameter: scope');
  const unknown = scopes.filter((scope) => !(KNOWN_SCOPES as readonly string[]).includes(scope));
  if (unknown.length) return fail('invalid_scope', `Some requested scopes were invalid. {invalid=[${unknown.join(', ')}]}`);
  return { client, redirectUri, state: stateParam, scopes, codeChallenge, offline: params.get('access_type') === 'offline' };
}

// Google only hands out refresh tokens for offline access; codes remember whether it was asked for.
const offlineCodes = new WeakSet<object>();

function approve(state: YoutubeState, params: AuthorizeParams, userId: string, response: ServerResponse): void {
  const code = issuedSecret(`4/${randomId('', 30)}`);
  const record = { code, userId, clientId: params.client.clientId, redirectUri: params.redirectUri, codeChallenge: params.codeChallenge, scopes: params.scopes, expiresAt: Date.now() + AUTHORIZATION_CODE_TTL_MS, used: false };
  state.codes.set(code, record);
  if (params.offline) offlineCodes.add(record);
  redirect(response, withParams(params.redirectUri, { state: params.state, code, scope: params.scopes.join(' ') }));
}

function consentPage(state: YoutubeState, params: URLSearchParams, userId: string): string {
  const allowed = requestedScopes(params).map((scope) => escapeHtml(scope.endsWith('youtube.readonly') ? 'View your YouTube account' : scope.endsWith('/youtube') ? 'Manage your YouTube account' : scope));
  const asks = `This will allow the app to: ${allowed.join(', ')}.`;
  return consentPageHtml({ title: 'Sign in - Google Accounts', heading: 'Open Playlist Engine wants to access your Google Account', signedInAs: state.channels.get(userId)!.title, asks, action: '/o/oauth2/v2/auth', params });
}

const denial = (checked: AuthorizeParams) => withParams(checked.redirectUri, { error: 'access_denied', state: checked.state });
const authorizeStep: AuthorizeStep<YoutubeState, AuthorizeParams> = { check: authorizeParams, approve, consentPage, denial };

export function handleAuthorize(state: YoutubeState, options: RedirectFlowOptions, request: FakeRequest, response: ServerResponse): void {
  answerAuthorize(authorizeStep, state, options, request, response);
}

function tokenError(response: ServerResponse, status: number, error: string, description: string): void {
  sendJson(response, status, { error, error_description: description });
}

export function handleToken(state: YoutubeState, options: RedirectFlowOptions, request: FakeRequest, response: ServerResponse): void {
  if (request.method !== 'POST') return tokenError(response, 405, 'invalid_request', 'Method not allowed');
  const body = formBody(request.body);
  let clientId = body['client_id'];
  let clientSecret = body['client_secret'];
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers['authorization'] ?? '');
  if (basic) {
    const [id, secret] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
    clientId = decodeURIComponent(id ?? '');
    clientSecret = decodeURIComponent(secret ?? '');
  }
  const client = state.clients.get(clientId ?? '');
  if (!client) return tokenError(response, 401, 'invalid_client', 'The OAuth client was not found.');
  if (client.clientSecret !== null && clientSecret !== client.clientSecret) return tokenError(response, 401, 'invalid_client', 'Unauthorized');
  switch (body['grant_type']) {
    case 'authorization_code': {
      const code = state.codes.get(body['code'] ?? '');
      if (!code || code.used || code.expiresAt < Date.now() || code.clientId !== client.clientId) return tokenError(response, 400, 'invalid_grant', 'Bad Request');
      code.used = true;
      if (code.redirectUri !== body['redirect_uri']) return tokenError(response, 400, 'redirect_uri_mismatch', 'Bad Request');
      if (!body['code_verifier'] || pkceChallenge(body['code_verifier']) !== code.codeChallenge) return tokenError(response, 400, 'invalid_grant', 'Invalid code verifier.');
      const { access, refresh } = state.issueTokens(code.userId, client.clientId, code.scopes, options.accessTokenTtlS);
      sendJson(response, 200, {
        access_token: access.token,
        expires_in: options.accessTokenTtlS,
        ...(offlineCodes.has(code) ? { refresh_token: refresh.token } : {}),
        scope: code.scopes.join(' '),
        token_type: 'Bearer',
      });
      return;
    }
    case 'refresh_token': {
      const refresh = state.refreshTokens.get(body['refresh_token'] ?? '');
      if (!refresh || refresh.revoked || refresh.clientId !== client.clientId) return tokenError(response, 400, 'invalid_grant', 'Token has been expired or revoked.');
      const access = state.issueAccessToken(refresh.userId, client.clientId, refresh.scopes, options.accessTokenTtlS);
      sendJson(response, 200, { access_token: access.token, expires_in: options.accessTokenTtlS, scope: refresh.scopes.join(' '), token_type: 'Bearer' });
      return;
    }
    default:
      return tokenError(response, 400, 'unsupported_grant_type', 'Invalid grant_type: ' + String(body['grant_type'] ?? '').slice(0, 40));
  }
}

/** `POST /revoke?token=…` (or token in the form): revokes a refresh token and its access tokens, or one access token. */
export function handleRevoke(state: YoutubeState, request: FakeRequest, response: ServerResponse): void {
  const token = request.url.searchParams.get('token') ?? formBody(request.body)['token'] ?? '';
  const refresh = state.refreshTokens.get(token);
  const access = state.accessTokens.get(token);
  if (!refresh && !access) return tokenError(response, 400, 'invalid_token', 'Token expired or revoked');
  if (refresh) {
    refresh.revoked = true;
    for (const candidate of state.accessTokens.values()) if (candidate.userId === refresh.userId && candidate.clientId === refresh.clientId) candidate.expired = true;
  }
  if (access) access.expired = true;
  sendJson(response, 200, {});
}
