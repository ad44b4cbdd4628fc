import { randomBytes } from 'node:crypto';
import { escapeHtml, formBody, randomId, type FakeRequest } from '../fake-provider.ts';
import { issuedSecret } from '../secret-ledger.ts';
import { html, json, oauthError, type Reply } from './ytmusic-responses.ts';
import { DEMO_CLIENT_ID, YOUTUBE_SCOPE, type DeviceGrant, type YtState } from './ytmusic-state.ts';

/**
 * Google's OAuth 2.0 device flow for TV and limited-input clients, as YouTube Music's unofficial
 * clients use it: `POST /device/code` (oauth2.googleapis.com) hands out a device code and a user
 * code, the user enters the code at `https://www.google.com/device` and allows access, and the
 * client polls `POST /token` with `grant_type=urn:ietf:params:oauth:grant-type:device_code`
 * (428 `authorization_pending`, 403 `slow_down` / `access_denied`, 400 `expired_token`) until it
 * receives an access and a refresh token. Refreshing keeps the refresh token (Google does not
 * rotate them). Clients must send their secret; `opl-demo-client` is accepted with any secret.
 */

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const VERIFICATION_URL = 'https://www.google.com/device';

export interface DeviceFlowOptions {
  readonly tokenLifetimeS: number;
  /** Seconds clients must wait between polls. */
  readonly intervalS: number;
  /** Seconds a device code stays valid. */
  readonly codeLifetimeS: number;
}

function userCode(): string {
  const letters = 'BCDFGHJKLMNPQRSTVWXZ';
  const bytes = randomBytes(9);
  const chars = [...bytes].map((byte) => letters[byte % letters.length]!);
  return `${chars.slice(0, 3).join('')}-${chars.slice(3, 6).join('')}-${chars.slice(6, 9).join('')}`;
}

export class DeviceFlow {
  readonly #state: YtState;
  readonly #options: DeviceFlowOptions;
  /** When set, a device code is approved as this user at its first poll (tests and the demo). */
  autoApproveUser: string | null = null;
  /** Who approves on the verification page when nobody is set: the newest account. */
  pageUser: string | null = null;

  constructor(state: YtState, options: DeviceFlowOptions) {
    this.#state = state;
    this.#options = options;
  }

  #clientOk(clientId: string | undefined, secret: string | undefined, secretRequired: boolean): boolean {
    if (!clientId) return false;
    if (clientId === DEMO_CLIENT_ID) return true;
    const client = this.#state.clients.get(clientId);
    if (!client) return false;
    return !secretRequired || client.clientSecret === null || client.clientSecret === secret;
  }

  deviceCode(request: FakeRequest): Reply {
    const form = formBody(request.body);
    if (!this.#clientOk(form['client_id'], undefined, false)) return oauthError(401, 'invalid_client', 'The OAuth client was not found.');
    const scopes = (form['scope'] ?? '').split(/\s+/).filter(Boolean);
    if (scopes.length === 0 || scopes.some((scope) => !scope.startsWith('https://www.googleapis.com/auth/'))) return oauthError(400, 'invalid_scope', 'Some requested scopes were invalid.');
    const grant: DeviceGrant = {
      deviceCode: issuedSecret(randomId('AH-1Ng', 48)),
      userCode: userCode(),
      clientId: form['client_id']!,
      scopes,
      expiresAt: Date.now() + this.#options.codeLifetimeS * 1000,
      status: 'pending',
      userId: null,
      polls: 0,
      lastPollAt: 0,
    };
    this.#state.deviceCodes.set(grant.deviceCode, grant);
    return json(200, { device_code: grant.deviceCode, user_code: grant.userCode, expires_in: this.#options.codeLifetimeS, interval: this.#options.intervalS, verification_url: VERIFICATION_URL });
  }

  token(request: FakeRequest): Reply {
    const form = formBody(request.body);
    if (!this.#clientOk(form['client_id'], form['client_secret'], true)) return oauthError(401, 'invalid_client', 'Unauthorized');
    if (form['grant_type'] === DEVICE_GRANT) return this.#pollDevice(form);
    if (form['grant_type'] === 'refresh_token') {
      const refresh = this.#state.refreshTokens.get(form['refresh_token'] ?? '');
      if (!refresh || refresh.revoked || refresh.clientId !== form['client_id']) return oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
      const access = this.#state.issueAccessToken(refresh.userId, refresh.clientId, refresh.scopes, this.#options.tokenLifetimeS);
      return json(200, { access_token: access.token, expires_in: this.#options.tokenLifetimeS, scope: refresh.scopes.join(' '), token_type: 'Bearer' });
    }
    return oauthError(400, 'unsupported_grant_type', 'Invalid grant_type: ' + String(form['grant_type'] ?? '').slice(0, 80));
  }

  #pollDevice(form: Record<string, string>): Reply {
    const grant = this.#state.deviceCodes.get(form['device_code'] ?? '');
    if (!grant || grant.clientId !== form['client_id']) return oauthError(400, 'invalid_grant', 'Malformed auth code.');
    const now = Date.now();
    if (grant.expiresAt < now) return oauthError(400, 'expired_token', 'Expired device code.');
    grant.polls += 1;
    const tooSoon = grant.polls > 1 && now - grant.lastPollAt < this.#options.intervalS * 1000 - 250;
    grant.lastPollAt = now;
    if (grant.status === 'denied') return oauthError(403, 'access_denied', 'Forbidden');
    if (grant.status === 'pending') {
      if (tooSoon) return oauthError(403, 'slow_down', 'Forbidden');
      // The demo user "enters the code" while the engine waits for its first answer.
      if (this.autoApproveUser) {
        grant.status = 'approved';
        grant.userId = this.autoApproveUser;
      }
      return oauthError(428, 'authorization_pending', 'Precondition Required');
    }
    this.#state.deviceCodes.delete(grant.deviceCode);
    const { access, refresh } = this.#state.issueTokens(grant.userId!, grant.clientId, grant.scopes, this.#options.tokenLifetimeS);
    return json(200, { access_token: access.token, expires_in: this.#options.tokenLifetimeS, refresh_token: refresh.token, scope: grant.scopes.join(' '), token_type: 'Bearer' });
  }

  /** The verification page: enter the code, then Allow or Deny. */
  page(request: FakeRequest): Reply {
    const prefilled = request.url.searchParams.get('user_code') ?? '';
    const user = this.pageUser ? this.#state.users.get(this.pageUser) : null;
    if (!user) return html(200, '<!doctype html><title>Sign in</title><p>No Google account is signed in on this device.</p>');
    return html(
      200,
      `<!doctype html><html lang="en"><title>Connect a device</title><h1>Connect a device</h1><p>Signed in as ${escapeHtml(user.name)}</p>` +
        `<form method="post" action="/device"><label>Enter the code displayed on your device <input name="user_code" value="${escapeHtml(prefilled)}" autocomplete="off"></label>` +
        `<p>The app wants to manage your YouTube account (${escapeHtml(YOUTUBE_SCOPE)}).</p>` +
        '<button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="deny">Deny</button></form></html>',
    );
  }

  decide(request: FakeRequest): Reply {
    const form = formBody(request.body);
    const code = (form['user_code'] ?? '').trim().toUpperCase();
    const grant = [...this.#state.deviceCodes.values()].find((candidate) => candidate.userCode === code);
    if (!grant || grant.expiresAt < Date.now()) return html(400, '<!doctype html><title>Invalid code</title><p>That code is invalid or has expired. Check the code and try again.</p>');
    if (!this.pageUser || !this.#state.users.has(this.pageUser)) return html(400, '<!doctype html><title>Sign in</title><p>No Google account is signed in on this device.</p>');
    if (form['decision'] === 'deny') {
      grant.status = 'denied';
      return html(200, '<!doctype html><title>Access denied</title><p>You denied access. You can close this window.</p>');
    }
    grant.status = 'approved';
    grant.userId = this.pageUser;
    return html(200, '<!doctype html><title>Success</title><p>Success! Your device is connected. You can close this window.</p>');
  }
}
