import type { AuthKind } from '../vault/credential-vault.ts';
import type { AuthStrategy } from './auth-strategy.ts';
import { developerUserTokenStrategy } from './developer-user-token.strategy.ts';
import { headerPasteStrategy } from './header-paste.strategy.ts';
import { longLivedTokenStrategy } from './long-lived-token.strategy.ts';
import { oauthDeviceStrategy } from './oauth-device.strategy.ts';
import { oauthPkceStrategy } from './oauth-pkce.strategy.ts';

export * from './auth-strategy.ts';
export { OAuthEndpointError } from './oauth-http.ts';

/** Every connection strategy, by the spec's AuthKind. */
export const AUTH_STRATEGIES: Readonly<Record<AuthKind, AuthStrategy>> = {
  OAUTH_PKCE: oauthPkceStrategy,
  OAUTH_DEVICE: oauthDeviceStrategy,
  HEADER_PASTE: headerPasteStrategy,
  DEVELOPER_USER_TOKEN: developerUserTokenStrategy,
  LONG_LIVED_TOKEN: longLivedTokenStrategy,
};
