import { AuthFlowError, scopesFor, type AuthStrategy, type StrategyContext } from './auth-strategy.ts';
import { OAuthEndpointError, deviceAuthorizationSchema, parseTokenResponse, postForm } from './oauth-http.ts';
import { clientAuth, credentialFromTokens, refreshWithToken, revokeToken } from './oauth-pkce.strategy.ts';

/**
 * OAUTH_DEVICE (RFC 8628): the engine asks for a device code, the user enters the short user code
 * at the provider's verification page on any device, and the engine polls the token endpoint at
 * the provider's interval until the user approved, denied, or the code expired. Used where the
 * provider offers no redirect flow to third parties (YouTube Music's TV clients); the client may
 * be the user's own (`userClient`), which is then kept sealed with the credential for refreshes.
 */

const GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

function clientFor(context: StrategyContext, userClient: { client_id: string; client_secret: string | null } | null) {
  if (userClient) return userClient;
  if (context.client?.client_id) return { client_id: context.client.client_id, client_secret: context.client.client_secret ?? null };
  throw new AuthFlowError('not_available', `no OAuth client is configured for ${context.provider}: bring your own client id (and secret), or add one to OPL_PROVIDER_CLIENTS_FILE`);
}

export const oauthDeviceStrategy: AuthStrategy = {
  kind: 'OAUTH_DEVICE',

  unavailableReason(context) {
    return context.method.device ? null : `${context.manifest.name} declares OAUTH_DEVICE without device endpoints.`;
  },

  async begin(context, request) {
    const device = context.method.device;
    if (!device) throw new AuthFlowError('not_available', `${context.manifest.name} declares OAUTH_DEVICE without device endpoints`);
    const client = clientFor(context, request.userClient);
    const scopes = scopesFor(context.method, request.capabilities);
    const auth = clientAuth(context, client);
    let answer;
    try {
      const json = await postForm(device.device_authorization_url, { ...auth.form, client_id: client.client_id, ...(scopes.length ? { scope: scopes.join(' ') } : {}) }, { originOverrides: context.originOverrides, ...(auth.basicAuth ? { basicAuth: auth.basicAuth } : {}) });
      answer = deviceAuthorizationSchema.parse(json);
    } catch (error) {
      if (error instanceof OAuthEndpointError) throw new AuthFlowError('provider_refused', `The provider did not start the device sign-in: ${error.message}`);
      throw new AuthFlowError('provider_refused', 'The provider answered the device sign-in with something unexpected.');
    }
    const verification = answer.verification_uri ?? answer.verification_url;
    if (!verification) throw new AuthFlowError('provider_refused', 'The provider did not say where to enter the code.');
    const interval = answer.interval ?? 5;
    return {
      challenge: { shape: 'device_code', user_code: answer.user_code, verification_url: verification, poll_interval_s: interval, instructions: `Open ${verification} on any device, enter the code, and allow access. This page waits for you.` },
      secrets: { device_code: answer.device_code, client_id: client.client_id, client_secret: client.client_secret },
      scopes,
      expiresInS: answer.expires_in,
      pollIntervalS: interval,
    };
  },

  async complete(context, secrets, scopes) {
    const device = context.method.device;
    if (!device || typeof secrets['device_code'] !== 'string' || typeof secrets['client_id'] !== 'string') throw new AuthFlowError('invalid_callback', 'This connection attempt has no device code.');
    const client = { client_id: secrets['client_id'], client_secret: typeof secrets['client_secret'] === 'string' ? secrets['client_secret'] : null };
    const auth = clientAuth(context, client);
    try {
      const json = await postForm(device.token_url, { grant_type: GRANT, device_code: secrets['device_code'], ...auth.form, client_id: client.client_id }, { originOverrides: context.originOverrides, ...(auth.basicAuth ? { basicAuth: auth.basicAuth } : {}) });
      const userClient = context.client?.client_id === client.client_id ? null : client;
      return { status: 'done', credential: credentialFromTokens(context, parseTokenResponse(json, new URL(device.token_url).origin), scopes, null, userClient) };
    } catch (error) {
      if (!(error instanceof OAuthEndpointError)) throw error;
      if (error.oauthError === 'authorization_pending') return { status: 'pending', retryAfterS: 5 };
      if (error.oauthError === 'slow_down') return { status: 'pending', retryAfterS: 10 };
      if (error.oauthError === 'access_denied') throw new AuthFlowError('access_denied', 'Access was not granted at the provider.');
      if (error.oauthError === 'expired_token') throw new AuthFlowError('expired', 'The code expired before it was entered. Start again.');
      throw new AuthFlowError('provider_refused', `The provider did not complete the device sign-in: ${error.message}`);
    }
  },

  async refresh(context, stored) {
    return refreshWithToken(context, stored, stored.material.client ?? clientFor(context, null));
  },

  async revoke(context, stored) {
    await revokeToken(context, stored, stored.material.client ?? (context.client?.client_id ? clientFor(context, null) : null));
  },

  callHeaders() {
    return {};
  },
};
