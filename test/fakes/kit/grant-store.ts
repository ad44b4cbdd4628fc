import { issuedSecret } from '../secret-ledger.ts';

/**
 * The OAuth records every fake keeps alike: registered clients, authorization codes, access and
 * refresh tokens. What differs per provider is only the look of its tokens (`TokenFormat`) and
 * which grants its token endpoint offers; the routes of each fake decide that.
 */

export interface OAuthClient {
  readonly clientId: string;
  readonly clientSecret: string | null;
  /** Empty: any http(s) redirect URI is accepted. */
  readonly redirectUris: readonly string[];
}

export interface AccessGrant {
  readonly token: string;
  readonly userId: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
  readonly expiresAt: number;
  expired: boolean;
}

export interface RefreshGrant {
  readonly token: string;
  readonly userId: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
  revoked: boolean;
}

export interface AuthorizationCode {
  readonly code: string;
  readonly userId: string;
  readonly clientId: string;
  readonly redirectUri: string;
  /** The PKCE S256 challenge; null when the client authenticates with its secret instead. */
  readonly codeChallenge: string | null;
  readonly scopes: readonly string[];
  readonly expiresAt: number;
  used: boolean;
}

/** How a provider's tokens look; every value minted is recorded in the suite's secret ledger. */
export interface TokenFormat {
  access(): string;
  refresh(): string;
}

export class GrantStore {
  readonly clients = new Map<string, OAuthClient>();
  readonly codes = new Map<string, AuthorizationCode>();
  readonly accessTokens = new Map<string, AccessGrant>();
  readonly refreshTokens = new Map<string, RefreshGrant>();
  readonly #format: TokenFormat;

  /** `demoClientId`: a public client registered from the start (the demo's and the tests' default). */
  constructor(format: TokenFormat, demoClientId?: string) {
    this.#format = format;
    if (demoClientId !== undefined) this.registerClient({ clientId: demoClientId });
  }

  registerClient(client: { clientId: string; clientSecret?: string | null; redirectUris?: readonly string[] }): void {
    this.clients.set(client.clientId, { clientId: client.clientId, clientSecret: client.clientSecret ?? null, redirectUris: [...(client.redirectUris ?? [])] });
  }

  issueAccessToken(userId: string, clientId: string, scopes: readonly string[], expiresInS: number): AccessGrant {
    const access: AccessGrant = { token: issuedSecret(this.#format.access()), userId, clientId, scopes: [...scopes], expiresAt: Date.now() + expiresInS * 1000, expired: false };
    this.accessTokens.set(access.token, access);
    return access;
  }

  issueRefreshToken(userId: string, clientId: string, scopes: readonly string[]): RefreshGrant {
    const refresh: RefreshGrant = { token: issuedSecret(this.#format.refresh()), userId, clientId, scopes: [...scopes], revoked: false };
    this.refreshTokens.set(refresh.token, refresh);
    return refresh;
  }

  issueTokens(userId: string, clientId: string, scopes: readonly string[], expiresInS: number): { access: AccessGrant; refresh: RefreshGrant } {
    const refresh = this.issueRefreshToken(userId, clientId, scopes);
    return { access: this.issueAccessToken(userId, clientId, scopes, expiresInS), refresh };
  }

  expireAccessToken(token: string): void {
    const grant = this.accessTokens.get(token);
    if (grant) grant.expired = true;
  }

  revokeRefreshToken(token: string): void {
    const grant = this.refreshTokens.get(token);
    if (grant) grant.revoked = true;
  }

  /** The user removes the app's access in their account settings: every token issued to them so far stops working. */
  revokeUser(userId: string): void {
    for (const grant of this.accessTokens.values()) if (grant.userId === userId) grant.expired = true;
    for (const grant of this.refreshTokens.values()) if (grant.userId === userId) grant.revoked = true;
  }
}
