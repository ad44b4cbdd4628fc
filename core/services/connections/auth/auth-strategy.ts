import type { AuthMethod, Capability, Manifest } from '@opl/plugin-sdk';
import { wireUrl } from '@opl/plugin-sdk/sandbox';
import type { ProviderClient } from '../provider-clients.ts';
import type { AuthKind, CredentialMaterial, StoredCredential } from '../vault/credential-vault.ts';

/**
 * One way of connecting an account (the spec's AuthKind), driven by the plugin's manifest. A
 * strategy turns `begin` into a challenge the UI renders (redirect, device code or form) plus
 * secrets the engine keeps sealed until `complete`; `complete` turns the user's answer into a
 * credential; `refresh` renews one ahead of expiry; `revoke` tells the provider on disconnect.
 * Strategies do no storage: the connection service owns attempts, accounts and the vault.
 */

export interface StrategyContext {
  readonly provider: string;
  readonly manifest: Manifest;
  readonly method: AuthMethod;
  /** The engine's registration at this provider (client id, secret, developer key), if any. */
  readonly client: ProviderClient | null;
  /** Where the provider sends the browser back (`…/api/auth/<provider>/callback`). */
  readonly redirectUri: string;
  /** Real origin → fake (demo and tests): for the engine's requests and the browser's redirect. */
  readonly originOverrides: Readonly<Record<string, string>>;
  readonly deploymentMode: 'self_host' | 'hosted';
  readonly now: () => Date;
}

export interface FormField {
  readonly name: string;
  readonly label: string;
  readonly secret: boolean;
  readonly help: string | null;
}

/** What the UI renders. Shapes from the spec: redirect, device_code, form. */
export type Challenge =
  | { readonly shape: 'redirect'; readonly redirect_url: string; readonly instructions: string | null }
  | { readonly shape: 'device_code'; readonly user_code: string; readonly verification_url: string; readonly poll_interval_s: number; readonly instructions: string | null }
  | { readonly shape: 'form'; readonly form: { readonly fields: FormField[]; readonly submit_label: string }; readonly instructions: string | null; readonly developer_token?: string };

/** Kept sealed between begin and complete. JSON only. */
export type AttemptSecrets = Readonly<Record<string, string | number | null>>;

export interface BeginRequest {
  /** Capabilities the user wants this connection for; scopes are the minimum they need. */
  readonly capabilities: readonly Capability[];
  /** Device flow with a client the user brings (YouTube Music's "TVs and limited input" client). */
  readonly userClient: { readonly client_id: string; readonly client_secret: string | null } | null;
}

export interface BeginResult {
  readonly challenge: Challenge;
  readonly secrets: AttemptSecrets;
  readonly scopes: readonly string[];
  readonly expiresInS: number;
  /** Device flow: how often the engine may poll the token endpoint. */
  readonly pollIntervalS?: number;
}

/** The user's answer: an OAuth callback (code/error) or submitted form values; nothing for a device poll. */
export interface CompleteInput {
  readonly code?: string | null;
  readonly error?: string | null;
  readonly values?: Readonly<Record<string, string>>;
}

export interface NewCredentialParts {
  readonly material: CredentialMaterial;
  readonly refreshToken: string | null;
  readonly expiresAt: Date | null;
  readonly scopes: readonly string[];
}

export type CompleteResult = { readonly status: 'pending'; readonly retryAfterS: number } | { readonly status: 'done'; readonly credential: NewCredentialParts };

export interface AuthStrategy {
  readonly kind: AuthKind;
  /** A sentence when this strategy cannot be used here (hosted mode, missing client); else null. */
  unavailableReason(context: StrategyContext): string | null;
  begin(context: StrategyContext, request: BeginRequest): Promise<BeginResult>;
  complete(context: StrategyContext, secrets: AttemptSecrets, scopes: readonly string[], input: CompleteInput): Promise<CompleteResult>;
  /** A renewed credential, or null when this kind cannot be refreshed (the user reconnects). */
  refresh(context: StrategyContext, stored: StoredCredential): Promise<NewCredentialParts | null>;
  /** Best effort: tells the provider the credential is no longer wanted. */
  revoke(context: StrategyContext, stored: StoredCredential): Promise<void>;
  /** Headers that come with every call besides the stored secret (e.g. a fresh developer JWT). */
  callHeaders(context: StrategyContext, stored: StoredCredential): Record<string, string>;
}

/** A user-facing failure of a connection step (bad callback, denied consent, invalid form). */
export class AuthFlowError extends Error {
  readonly code: 'access_denied' | 'invalid_callback' | 'invalid_form' | 'expired' | 'provider_refused' | 'not_available' | 'account_mismatch';
  constructor(code: AuthFlowError['code'], message: string) {
    super(message);
    this.name = 'AuthFlowError';
    this.code = code;
  }
}

/** The minimal scopes for the requested capabilities (plus the method's base scopes), sorted, unique. */
export function scopesFor(method: AuthMethod, capabilities: readonly Capability[]): string[] {
  const scopes = new Set(method.base_scopes);
  for (const capability of capabilities) for (const scope of method.scopes[capability] ?? []) scopes.add(scope);
  return [...scopes].sort();
}

/** The URL the browser is sent to, pointed at the fake provider in demo mode and tests. */
export function browserUrl(url: URL, overrides: Readonly<Record<string, string>>): string {
  return wireUrl(url, overrides).toString();
}
