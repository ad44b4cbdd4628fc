import { escapeHtml, formBody, consentButtons, pkceChallenge, randomId, withParams, type FakeRequest } from '../kit/index.ts';
import { issuedSecret } from '../secret-ledger.ts';
import { html, json, oauthError, redirectTo, type Reply } from './spotify-responses.ts';
import type { SpotifyState } from './spotify-state.ts';

/**
 * The accounts service: `GET /authorize` (authorization code with PKCE and `state`, a consent page
 * with "Agree"/"Cancel" unless a user is set to approve at once) and `POST /api/token`
 * (`authorization_code` with the verifier checked against the challenge, `refresh_token` with
 * optional rotation), answering errors the way the accounts service does.
 */

/** Every scope the Spotify plugin can ask for: what `createAccount` grants unless told otherwise. */
export const SPOTIFY_PLUGIN_SCOPES = [
  'playlist-read-private',
  'playlist-read-collaborative',
  'playlist-modify-public',
  'playlist-modify-private',
  'user-library-read',
  'user-library-modify',
  'user-follow-read',
] as const;

/** Every scope the Web API description lists; anything else is `invalid_scope`. */
export const KNOWN_SCOPES = new Set<string>([
  ...SPOTIFY_PLUGIN_SCOPES,
  'app-remote-control',
  'user-read-private',
  'user-read-email',
  'user-follow-modify',
  'user-top-read',
  'user-read-playback-position',
  'user-read-playback-state',
  'user-read-recently-played',
  'user-read-currently-playing',
  'user-modify-playback-state',
  'ugc-image-upload',
  'streaming',
]);

const CODE_LIFETIME_MS = 10 * 60_000;

export interface OAuthOptions {
  /** Seconds an access token lives. */
  readonly tokenLifetimeS: number;
  /** Refresh answers carry a new refresh token. */
  readonly rotateRefreshTokens: boolean;
  /** A rotated refresh token stops working (otherwise it stays valid, as it often does). */
  readonly revokeRotatedRefreshTokens: boolean;
}

interface PendingConsent {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly state: string | null;
  readonly codeChallenge: string | null;
  readonly scopes: readonly string[];
  readonly userId: string;
}

/** Client authentication at the token endpoint: HTTP Basic, or `client_id` (+ secret) in the body. */
function clientFromRequest(request: FakeRequest, body: Record<string, string>): { clientId: string | null; secret: string | null } {
  const header = request.headers['authorization'];
  const basic = header ? /^Basic\s+(\S+)$/i.exec(header) : null;
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return { clientId: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  }
  return { clientId: body['client_id'] ?? null, secret: body['client_secret'] ?? null };
}

export class SpotifyOAuth {
  readonly #state: SpotifyState;
  readonly #options: OAuthOptions;
  readonly #pending = new Map<string, PendingConsent>();
  authorizeUser: string | null = null;

  constructor(state: SpotifyState, options: OAuthOptions) {
    this.#state = state;
    this.#options = options;
  }

  authorize(request: FakeRequest): Reply {
    const query = request.url.searchParams;
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    const client = this.#state.clients.get(clientId);
    // Without a known client and redirect URI there is nowhere safe to send an error: show it.
    if (!client) return html(400, errorPage('INVALID_CLIENT: Invalid client'));
    if (!redirectUri || !URL.canParse(redirectUri) || (client.redirectUris.length > 0 && !client.redirectUris.includes(redirectUri))) {
      return html(400, errorPage('INVALID_CLIENT: Invalid redirect URI'));
    }
    const stateParam = query.get('state');
    const fail = (error: string): Reply => redirectTo(withParams(redirectUri, { error, state: stateParam }));
    if (query.get('response_type') !== 'code') return fail('unsupported_response_type');
    const scopes = (query.get('scope') ?? '').split(/[\s+]+/).filter(Boolean);
    if (scopes.some((scope) => !KNOWN_SCOPES.has(scope))) return fail('invalid_scope');
    const challenge = query.get('code_challenge');
    const method = query.get('code_challenge_method');
    if (challenge !== null && method !== 'S256') return fail('invalid_request');
    // A public client (no secret) can only use the code flow with PKCE.
    if (challenge === null && client.clientSecret === null) return fail('invalid_request');

    const preset = this.authorizeUser !== null && this.#state.users.has(this.authorizeUser) ? this.authorizeUser : null;
    const userId = preset ?? this.#state.userOrder.at(-1) ?? this.#state.createUser('Fake Spotify User').id;
    const consent: PendingConsent = { clientId, redirectUri, state: stateParam, codeChallenge: challenge, scopes, userId };
    if (preset !== null) return redirectTo(this.#approve(consent));
    const requestId = randomId('consent-', 12);
    this.#pending.set(requestId, consent);
    return html(200, consentPage(requestId, this.#state.users.get(userId)?.displayName ?? userId, scopes));
  }

  /** The consent form's answer (`POST /authorize`). */
  decide(request: FakeRequest): Reply {
    const body = formBody(request.body);
    const consent = this.#pending.get(body['request'] ?? '');
    if (!consent) return html(400, errorPage('This authorization request has expired. Start again from the app.'));
    this.#pending.delete(body['request']!);
    if (body['decision'] !== 'agree') return redirectTo(withParams(consent.redirectUri, { error: 'access_denied', state: consent.state }));
    return redirectTo(this.#approve(consent));
  }

  #approve(consent: PendingConsent): string {
    const code = issuedSecret(randomId('AQC', 32));
    this.#state.codes.set(code, {
      code,
      clientId: consent.clientId,
      redirectUri: consent.redirectUri,
      codeChallenge: consent.codeChallenge,
      scopes: consent.scopes,
      userId: consent.userId,
      expiresAt: Date.now() + CODE_LIFETIME_MS,
      used: false,
    });
    return withParams(consent.redirectUri, { code, state: consent.state });
  }

  token(request: FakeRequest): Reply {
    if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      return oauthError(400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
    }
    const body = formBody(request.body);
    const { clientId, secret } = clientFromRequest(request, body);
    const client = clientId ? this.#state.clients.get(clientId) : undefined;
    if (!client) return oauthError(400, 'invalid_client', 'Invalid client');
    if (client.clientSecret !== null && secret !== null && secret !== client.clientSecret) return oauthError(400, 'invalid_client', 'Invalid client secret');

    const grantType = body['grant_type'];
    if (grantType === 'authorization_code') return this.#codeGrant(body, client.clientId, client.clientSecret !== null && secret === client.clientSecret);
    if (grantType === 'refresh_token') return this.#refreshGrant(body, client.clientId);
    if (!grantType) return oauthError(400, 'unsupported_grant_type', 'grant_type parameter is missing');
    return oauthError(400, 'unsupported_grant_type', `grant_type must be client_credentials, authorization_code or refresh_token`);
  }

  #codeGrant(body: Record<string, string>, clientId: string, clientAuthenticated: boolean): Reply {
    const code = this.#state.codes.get(body['code'] ?? '');
    if (!code || code.clientId !== clientId) return oauthError(400, 'invalid_grant', 'Invalid authorization code');
    if (code.used || code.expiresAt < Date.now()) return oauthError(400, 'invalid_grant', 'Authorization code expired');
    if (code.redirectUri !== body['redirect_uri']) return oauthError(400, 'invalid_grant', 'Invalid redirect URI');
    if (code.codeChallenge !== null) {
      const verifier = body['code_verifier'];
      if (!verifier) return oauthError(400, 'invalid_request', 'code_verifier required');
      if (pkceChallenge(verifier) !== code.codeChallenge) return oauthError(400, 'invalid_grant', 'code_verifier was incorrect');
    } else if (!clientAuthenticated) {
      return oauthError(400, 'invalid_client', 'Invalid client');
    }
    code.used = true;
    const { access, refresh } = this.#state.issueTokens(code.userId, clientId, code.scopes, this.#options.tokenLifetimeS);
    return json(200, { access_token: access.token, token_type: 'Bearer', expires_in: this.#options.tokenLifetimeS, refresh_token: refresh.token, scope: code.scopes.join(' ') });
  }

  #refreshGrant(body: Record<string, string>, clientId: string): Reply {
    const presented = body['refresh_token'] ?? '';
    const grant = this.#state.refreshTokens.get(presented);
    if (!grant || grant.clientId !== clientId) return oauthError(400, 'invalid_grant', 'Invalid refresh token');
    if (grant.revoked) return oauthError(400, 'invalid_grant', 'Refresh token revoked');
    const access = this.#state.issueAccessToken(grant.userId, clientId, grant.scopes, this.#options.tokenLifetimeS);
    const answer: Record<string, unknown> = { access_token: access.token, token_type: 'Bearer', expires_in: this.#options.tokenLifetimeS, scope: grant.scopes.join(' ') };
    if (this.#options.rotateRefreshTokens) {
      const next = this.#state.issueRefreshToken(grant.userId, clientId, grant.scopes);
      if (this.#options.revokeRotatedRefreshTokens) grant.revoked = true;
      answer['refresh_token'] = next.token;
    }
    return json(200, answer);
  }
}

function errorPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error - Spotify (fake)</title></head><body><main><h1>Oops! Something went wrong</h1><p>${escapeHtml(message)}</p></main></body></html>`;
}

function consentPage(requestId: string, userName: string, scopes: readonly string[]): string {
  const items = scopes.map((scope) => `<li>${escapeHtml(scope)}</li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Authorize - Spotify (fake)</title></head>
<body><main>
<h1>Connect Open Playlist Engine to your Spotify account</h1>
<p>Logged in as <strong>${escapeHtml(userName)}</strong>. This is a fake Spotify for tests and the demo.</p>
<p>The app asks to:</p><ul>${items || '<li>read your public profile</li>'}</ul>
<form method="post" action="/authorize">
<input type="hidden" name="request" value="${escapeHtml(requestId)}">
${consentButtons('cancel')}
</form>
</main></body></html>`;
}
