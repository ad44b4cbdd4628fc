import { createHash, randomBytes } from 'node:crypto';
import { AuthExpired, PluginError, type AuthMethod, type Capability, type Manifest, type OperationName, type OperationResult } from '@opl/plugin-sdk';
import type { OperationCallInput } from '@opl/plugin-sdk/schemas';
import type { Logger } from '../../logging/logger.ts';
import type { Execute } from '../../plugins/plugin-store.ts';
import type { Transaction } from '../pacing/rate-limiter.ts';
import { AUTH_STRATEGIES, AuthFlowError, OAuthEndpointError, type AttemptSecrets, type Challenge, type StrategyContext } from './auth/index.ts';
import { credentialAttachments } from './credential-attachment.ts';
import {
  claimAuthAttempt,
  deleteAccount,
  deleteExpiredAuthAttempts,
  insertAuthAttempt,
  lockAccountForRefresh,
  reservePoll,
  selectAccount,
  selectAccounts,
  selectAuthAttempt,
  setAccountStatus,
  setCredentialLabel,
  upsertAccount,
} from './connections.sql.ts';
import type { ProviderClients } from './provider-clients.ts';
import type { AuthKind, CredentialVault, StoredCredential } from './vault/credential-vault.ts';

/**
 * Connected accounts: begin and complete a connection with the provider plugin's auth strategy,
 * keep the credential in the vault, refresh it ahead of expiry (one refresh per account at a time,
 * across processes), and run provider operations for an account with its credential attached by
 * the host — the plugin never sees a token. Every method is scoped to an owner.
 */

/** Refresh when the access token has less than this left. */
const REFRESH_AHEAD_MS = 5 * 60_000;

export interface AccountView {
  id: string;
  provider: string;
  provider_display_name: string;
  plugin_id: string | null;
  display_name: string | null;
  provider_user_id: string | null;
  account_label: string | null;
  status: 'connected' | 'reauth_required';
  auth_kind: AuthKind | null;
  scopes: string[];
  expires_at: string | null;
  connected_at: string;
  demo: boolean;
}

export type ChallengeView = Challenge & { state: string; provider: string; auth_kind: AuthKind; expires_at: string; demo: boolean };

export type CompleteView = { status: 'connected'; account: AccountView } | { status: 'pending'; retry_after_s: number };

/** A connection or account problem the HTTP layer turns into a problem response. */
export class ConnectionError extends Error {
  readonly code:
    | 'unknown_provider'
    | 'unknown_account'
    | 'attempt_not_found'
    | 'attempt_expired'
    | 'not_available'
    | 'header_paste_disabled'
    | 'flow_failed'
    | 'auth_expired'
    | 'provider_unavailable'
    | 'account_mismatch';
  readonly flowCode: AuthFlowError['code'] | null;
  constructor(code: ConnectionError['code'], message: string, flowCode: AuthFlowError['code'] | null = null) {
    super(message);
    this.name = 'ConnectionError';
    this.code = code;
    this.flowCode = flowCode;
  }
}

export interface ConnectionServiceOptions {
  readonly execute: Execute;
  readonly transaction: Transaction;
  readonly vault: CredentialVault;
  readonly plugins: {
    providerPlugin(providerName: string): Manifest | undefined;
    manifest(pluginId: string): Manifest | undefined;
  };
  readonly host: { call<N extends OperationName>(pluginId: string, op: N, input: OperationCallInput<N>, context: object, signal?: AbortSignal): Promise<OperationResult<N>> };
  readonly clients: ProviderClients;
  readonly deploymentMode: 'self_host' | 'hosted';
  readonly attemptTtlMinutes: number;
  /** Real origin → fake provider (demo and tests). */
  readonly originOverrides?: Readonly<Record<string, string>>;
  /** Providers served by in-process demo fakes (`OPL_DEMO`). */
  readonly demoProviders?: ReadonlySet<string>;
  readonly logger: Logger;
  readonly now?: () => Date;
}

export interface BeginOptions {
  readonly accountLabel?: string | null;
  readonly authKind?: AuthKind | null;
  readonly reconnectAccountId?: string | null;
  readonly capabilities?: readonly Capability[] | null;
  readonly userClient?: { client_id: string; client_secret: string | null } | null;
  /** Base URL the provider sends the browser back to (public base URL or this request's origin). */
  readonly redirectBase: string;
}

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');
const iso = (value: unknown) => (value ? new Date(value as string | Date).toISOString() : null);

export class ConnectionService {
  readonly #options: ConnectionServiceOptions;
  readonly #now: () => Date;

  constructor(options: ConnectionServiceOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  isDemo(provider: string): boolean {
    return this.#options.demoProviders?.has(provider) ?? false;
  }

  /** What `/providers` shows about connecting a provider. */
  connectInfo(provider: string): { demo: boolean; connectable: boolean; reason: string | null } {
    const { connectable, reason } = this.connectability(provider);
    return { demo: this.isDemo(provider), connectable, reason };
  }

  /** Whether a provider can be connected here, and why not. */
  connectability(provider: string): { connectable: boolean; reason: string | null } {
    const manifest = this.#options.plugins.providerPlugin(provider);
    if (!manifest?.provider) return { connectable: false, reason: `No provider plugin named ${provider} is loaded.` };
    const reasons: string[] = [];
    for (const method of manifest.provider.auth) {
      const reason = AUTH_STRATEGIES[method.kind].unavailableReason(this.#context(provider, manifest, method, 'http://localhost'));
      if (reason === null) return { connectable: true, reason: null };
      reasons.push(reason);
    }
    return { connectable: false, reason: reasons[0] ?? 'This provider declares no way to connect.' };
  }

  async list(ownerId: string, provider: string | null = null): Promise<AccountView[]> {
    const rows = await this.#options.execute(selectAccounts(ownerId, provider));
    return rows.map((row) => this.#view(row));
  }

  async get(ownerId: string, accountId: string): Promise<AccountView> {
    return this.#view(await this.#accountRow(ownerId, accountId));
  }

  async begin(ownerId: string, provider: string, options: BeginOptions): Promise<ChallengeView> {
    const manifest = this.#manifestOf(provider);
    const method = this.#methodFor(manifest, options.authKind ?? null);
    if (options.reconnectAccountId) {
      const account = await this.#accountRow(ownerId, options.reconnectAccountId);
      if (account['provider'] !== provider) throw new ConnectionError('unknown_account', 'That account belongs to another provider.');
    }
    const strategy = AUTH_STRATEGIES[method.kind];
    const context = this.#context(provider, manifest, method, options.redirectBase);
    const unavailable = strategy.unavailableReason(context);
    if (unavailable) throw new ConnectionError(method.kind === 'HEADER_PASTE' && this.#options.deploymentMode === 'hosted' ? 'header_paste_disabled' : 'not_available', unavailable);
    const capabilities = options.capabilities?.length ? options.capabilities.filter((capability) => manifest.provider!.capabilities.includes(capability)) : manifest.provider!.capabilities;
    let begun;
    try {
      begun = await strategy.begin(context, { capabilities, userClient: options.userClient ?? null });
    } catch (error) {
      throw this.#flowError(error);
    }
    // Redirect flows carry their own `state` to the provider; the others get one for the UI.
    const state = typeof begun.secrets['state'] === 'string' ? begun.secrets['state'] : randomBytes(32).toString('base64url');
    const stateHash = hashState(state);
    const ttlS = Math.min(begun.expiresInS, this.#options.attemptTtlMinutes * 60);
    const expiresAt = new Date(this.#now().getTime() + ttlS * 1000);
    const sealed = this.#options.vault.sealAttempt(stateHash, { ...begun.secrets, poll_interval_s: begun.pollIntervalS ?? null } satisfies AttemptSecrets);
    await this.#options.execute(deleteExpiredAuthAttempts());
    await this.#options.execute(
      insertAuthAttempt({
        ownerId,
        stateHash,
        provider,
        pluginId: manifest.id,
        authKind: method.kind,
        accountLabel: cleanLabel(options.accountLabel),
        reconnectAccountId: options.reconnectAccountId ?? null,
        scopes: begun.scopes,
        redirectUri: context.redirectUri,
        sealed: sealed.blob,
        keyId: sealed.keyId,
        nextPollAt: begun.pollIntervalS ? new Date(this.#now().getTime() + begun.pollIntervalS * 1000) : null,
        expiresAt,
      }),
    );
    return { ...begun.challenge, state, provider, auth_kind: method.kind, expires_at: expiresAt.toISOString(), demo: this.isDemo(provider) };
  }

  /**
   * Completes a connection: an OAuth callback (code or error), submitted form values, or a device
   * poll. `ownerId` null is the provider's redirect back, which carries no session: it acts for
   * the owner who began the attempt, named by the unguessable `state`.
   */
  async complete(ownerId: string | null, provider: string, input: { state: string; code?: string | null; error?: string | null; values?: Record<string, string> }): Promise<CompleteView> {
    const stateHash = hashState(input.state);
    const [found] = await this.#options.execute(selectAuthAttempt(stateHash));
    const attempt = found && (ownerId === null || found['owner_id'] === ownerId) && found['provider'] === provider ? found : undefined;
    if (attempt) ownerId = String(attempt['owner_id']);
    if (!attempt || ownerId === null) {
      throw new ConnectionError('attempt_not_found', 'This connection attempt is unknown or was already used. Start connecting again.');
    }
    if (new Date(attempt['expires_at'] as string) <= this.#now()) {
      await this.#options.execute(claimAuthAttempt(String(attempt['id'])));
      throw new ConnectionError('attempt_expired', 'This connection attempt expired. Start connecting again.');
    }
    const manifest = this.#manifestOf(provider);
    const kind = attempt['auth_kind'] as AuthKind;
    const method = this.#methodFor(manifest, kind);
    const strategy = AUTH_STRATEGIES[kind];
    const context = this.#context(provider, manifest, method, '', (attempt['redirect_uri'] as string | null) ?? '');
    if (kind === 'HEADER_PASTE' && this.#options.deploymentMode === 'hosted') throw new ConnectionError('header_paste_disabled', 'Pasting browser headers is disabled on hosted instances.');
    const secrets = this.#options.vault.openAttempt(stateHash, String(attempt['key_id']), attempt['sealed_secrets'] as Uint8Array) as AttemptSecrets;
    const scopes = (attempt['scopes'] as string[] | null) ?? [];
    const attemptId = String(attempt['id']);

    if (kind === 'OAUTH_DEVICE') {
      const interval = Number(secrets['poll_interval_s'] ?? 5);
      const [reserved] = await this.#options.execute(reservePoll(attemptId, interval));
      if (!reserved) return { status: 'pending', retry_after_s: interval };
    } else {
      // One use only: a replayed callback finds nothing to complete.
      const [claimed] = await this.#options.execute(claimAuthAttempt(attemptId));
      if (!claimed) throw new ConnectionError('attempt_not_found', 'This connection attempt was already used. Start connecting again.');
    }

    let outcome;
    try {
      outcome = await strategy.complete(context, secrets, scopes, { code: input.code ?? null, error: input.error ?? null, ...(input.values ? { values: input.values } : {}) });
    } catch (error) {
      if (kind === 'OAUTH_DEVICE') await this.#options.execute(claimAuthAttempt(attemptId));
      throw this.#flowError(error);
    }
    if (outcome.status === 'pending') return { status: 'pending', retry_after_s: outcome.retryAfterS };
    if (kind === 'OAUTH_DEVICE') await this.#options.execute(claimAuthAttempt(attemptId));

    // Who is this? The plugin answers with the credential attached, before anything is stored.
    const credentialParts = outcome.credential;
    const probe: StoredCredential = { ownerId, accountId: 'pending', version: 0, keyId: '', authKind: kind, accountLabel: null, ...credentialParts };
    let identity;
    try {
      identity = await this.#options.host.call(manifest.id, 'testConnection', {}, this.#callContext(manifest, method, probe, context, { id: 'pending', label: null }));
    } catch (error) {
      throw new ConnectionError('flow_failed', `Signed in, but ${manifest.provider!.display_name} refused the first request: ${error instanceof PluginError ? error.message : 'the plugin failed'}.`);
    }
    if (!identity.ok || !identity.account_id) throw new ConnectionError('flow_failed', `Signed in, but ${manifest.provider!.display_name} did not say which account this is.`);

    const reconnectId = (attempt['reconnect_account_id'] as string | null) ?? null;
    if (reconnectId) {
      const existing = await this.#accountRow(ownerId, reconnectId);
      if (existing['provider_user_id'] !== identity.account_id) {
        throw new ConnectionError('account_mismatch', `You signed in as a different ${manifest.provider!.display_name} account than the one being reconnected. Sign in as ${String(existing['display_name'] ?? existing['provider_user_id'])}, or connect it as a new account.`);
      }
    }
    const accountId = await this.#options.transaction(async (execute) => {
      const [row] = await execute(
        upsertAccount({ ownerId, provider, pluginId: manifest.id, providerUserId: identity.account_id!, displayName: identity.display_name, isDemo: this.isDemo(provider) }),
      );
      const id = String(row!['id']);
      await execute(lockAccountForRefresh(id));
      const label = (attempt['account_label'] as string | null) ?? (await this.#options.vault.latest(ownerId, id, execute).catch(() => null))?.accountLabel ?? null;
      await this.#options.vault.store({ ownerId, accountId: id, authKind: kind, accountLabel: label, ...credentialParts }, execute);
      return id;
    });
    this.#options.logger.info({ provider, account: accountId, authKind: kind }, 'provider account connected');
    return { status: 'connected', account: await this.get(ownerId, accountId) };
  }

  async setLabel(ownerId: string, accountId: string, label: string | null): Promise<AccountView> {
    await this.#accountRow(ownerId, accountId);
    await this.#options.execute(setCredentialLabel(ownerId, accountId, cleanLabel(label)));
    return this.get(ownerId, accountId);
  }

  /** Disconnects: revokes at the provider when it can (best effort), then deletes account and credentials. */
  async disconnect(ownerId: string, accountId: string): Promise<void> {
    const row = await this.#accountRow(ownerId, accountId);
    const manifest = this.#options.plugins.providerPlugin(String(row['provider']));
    const stored = await this.#options.vault.latest(ownerId, accountId).catch(() => null);
    if (manifest && stored) {
      const method = manifest.provider!.auth.find((candidate) => candidate.kind === stored.authKind);
      if (method) {
        await AUTH_STRATEGIES[stored.authKind].revoke(this.#context(String(row['provider']), manifest, method, ''), stored).catch((error: unknown) => {
          this.#options.logger.warn({ provider: row['provider'], account: accountId, reason: error instanceof Error ? error.message : 'failed' }, 'revoking the credential at the provider failed; deleting it here anyway');
        });
      }
    }
    await this.#options.execute(deleteAccount(ownerId, accountId));
    this.#options.logger.info({ provider: row['provider'], account: accountId }, 'provider account disconnected');
  }

  /**
   * Runs a provider operation for an account: a fresh credential attached by the host, one
   * refresh-and-retry when the provider says the token expired, and the account marked for
   * reconnection when no refresh helps.
   */
  /** `signal`: the caller gave up; the plugin call in flight is aborted (see `PluginHost.call`). */
  async call<N extends OperationName>(ownerId: string, accountId: string, op: N, input: OperationCallInput<N>, signal?: AbortSignal): Promise<OperationResult<N>> {
    return this.#callWith(await this.#prepare(ownerId, accountId), op, input, signal);
  }

  /**
   * `call` for many operations of one account in a row (a migration's searches): the account row
   * and the credential read for one call serve the next ones for `maxAgeMs`, instead of two
   * database reads per call. A token the provider refuses is refreshed as by `call` (and the next
   * calls read again); a disconnection or a refresh by another process is seen within `maxAgeMs`.
   */
  session(ownerId: string, accountId: string, maxAgeMs = 1_000): <N extends OperationName>(op: N, input: OperationCallInput<N>) => Promise<OperationResult<N>> {
    let ready: { at: number; prepared: Promise<PreparedCall> } | null = null;
    return async (op, input) => {
      const now = Date.now();
      if (ready === null || now - ready.at > maxAgeMs) ready = { at: now, prepared: this.#prepare(ownerId, accountId) };
      const current = ready;
      try {
        return await this.#callWith(await current.prepared, op, input);
      } catch (error) {
        // A refused token or an account that is gone: the next call reads again.
        if (ready === current) ready = null;
        throw error;
      }
    };
  }

  /** What a call needs before the provider: the account (not waiting for reconnection) and a credential not about to expire. */
  async #prepare(ownerId: string, accountId: string): Promise<PreparedCall> {
    const row = await this.#accountRow(ownerId, accountId);
    const provider = String(row['provider']);
    if (row['status'] === 'reauth_required') throw new ConnectionError('auth_expired', `The ${provider} connection needs to be renewed: reconnect the account.`);
    const manifest = this.#manifestOf(provider);
    let stored = await this.#credential(ownerId, accountId, provider);
    if (stored.expiresAt && stored.expiresAt.getTime() - this.#now().getTime() < REFRESH_AHEAD_MS) stored = await this.#refresh(ownerId, accountId, provider, manifest, stored.version);
    return { ownerId, accountId, provider, manifest, stored };
  }

  async #callWith<N extends OperationName>(prepared: PreparedCall, op: N, input: OperationCallInput<N>, signal?: AbortSignal): Promise<OperationResult<N>> {
    const { ownerId, accountId, provider, manifest } = prepared;
    let { stored } = prepared;
    const account = { id: accountId, label: stored.accountLabel };
    for (let attempt = 0; ; attempt++) {
      const method = this.#methodFor(manifest, stored.authKind);
      const context = this.#context(provider, manifest, method, '');
      try {
        const callContext = this.#callContext(manifest, method, stored, context, account);
        return await (signal ? this.#options.host.call(manifest.id, op, input, callContext, signal) : this.#options.host.call(manifest.id, op, input, callContext));
      } catch (error) {
        if (!(error instanceof AuthExpired)) throw error;
        if (attempt > 0) {
          await this.#markReauth(ownerId, accountId, provider);
          throw new ConnectionError('auth_expired', `${manifest.provider!.display_name} no longer accepts this connection: reconnect the account.`);
        }
        stored = await this.#refresh(ownerId, accountId, provider, manifest, stored.version);
        // A session's next calls use the renewed credential too.
        prepared.stored = stored;
      }
    }
  }

  async #credential(ownerId: string, accountId: string, provider: string): Promise<StoredCredential> {
    let stored: StoredCredential | null;
    try {
      stored = await this.#options.vault.latest(ownerId, accountId);
    } catch (error) {
      this.#options.logger.warn({ account: accountId, reason: error instanceof Error ? error.message : 'unreadable' }, 'a stored credential cannot be opened');
      stored = null;
    }
    if (!stored) {
      await this.#markReauth(ownerId, accountId, provider);
      throw new ConnectionError('auth_expired', `The stored ${provider} credential cannot be used: reconnect the account.`);
    }
    return stored;
  }

  /** Renews a credential unless another process already did (then that one is used). */
  async #refresh(ownerId: string, accountId: string, provider: string, manifest: Manifest, staleVersion: number): Promise<StoredCredential> {
    const outcome = await this.#options.transaction(async (execute): Promise<StoredCredential | 'reauth' | Error> => {
      await execute(lockAccountForRefresh(accountId));
      const current = await this.#options.vault.latest(ownerId, accountId, execute);
      if (!current) return 'reauth';
      if (current.version > staleVersion) return current;
      const method = this.#methodFor(manifest, current.authKind);
      let renewed;
      try {
        renewed = await AUTH_STRATEGIES[current.authKind].refresh(this.#context(provider, manifest, method, ''), current);
      } catch (error) {
        if (error instanceof OAuthEndpointError && (error.oauthError === 'invalid_grant' || error.oauthError === 'invalid_client' || error.oauthError === 'unauthorized_client')) return 'reauth';
        return new ConnectionError('provider_unavailable', `${manifest.provider!.display_name} could not renew the connection right now (${error instanceof Error ? error.message : 'failed'}); try again later.`);
      }
      if (!renewed) return 'reauth';
      const version = await this.#options.vault.store({ ownerId, accountId, authKind: current.authKind, accountLabel: current.accountLabel, ...renewed }, execute);
      this.#options.logger.info({ provider, account: accountId, version }, 'provider credential refreshed');
      return { ...current, ...renewed, version };
    });
    if (outcome === 'reauth') {
      await this.#markReauth(ownerId, accountId, provider);
      throw new ConnectionError('auth_expired', `${manifest.provider!.display_name} needs you to sign in again: reconnect the account.`);
    }
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }

  async #markReauth(ownerId: string, accountId: string, provider: string): Promise<void> {
    await this.#options.execute(setAccountStatus(ownerId, accountId, 'reauth_required'));
    this.#options.logger.warn({ provider, account: accountId }, 'provider account needs reconnecting');
  }

  #callContext(manifest: Manifest, method: AuthMethod, stored: StoredCredential, context: StrategyContext, account: { id: string; label: string | null }) {
    const extra = AUTH_STRATEGIES[stored.authKind].callHeaders(context, stored);
    const secret = stored.material.secret.kind === 'token' ? { kind: 'token' as const, access_token: stored.material.secret.access_token, extra_headers: extra } : { kind: 'headers' as const, headers: { ...stored.material.secret.headers, ...extra } };
    return { account, credentials: credentialAttachments(manifest, method, secret) };
  }

  #context(provider: string, manifest: Manifest, method: AuthMethod, redirectBase: string, redirectUri?: string): StrategyContext {
    return {
      provider,
      manifest,
      method,
      client: this.#options.clients[provider] ?? null,
      redirectUri: redirectUri ?? `${redirectBase.replace(/\/+$/, '')}/api/auth/${provider}/callback`,
      originOverrides: this.#options.originOverrides ?? {},
      deploymentMode: this.#options.deploymentMode,
      now: this.#now,
    };
  }

  #manifestOf(provider: string): Manifest {
    const manifest = this.#options.plugins.providerPlugin(provider);
    if (!manifest?.provider) throw new ConnectionError('unknown_provider', `No provider plugin named "${provider}" is loaded.`);
    return manifest;
  }

  #methodFor(manifest: Manifest, kind: AuthKind | null): AuthMethod {
    const methods = manifest.provider!.auth;
    const method = kind ? methods.find((candidate) => candidate.kind === kind) : methods.find((candidate) => !(candidate.kind === 'HEADER_PASTE' && this.#options.deploymentMode === 'hosted')) ?? methods[0];
    if (!method) throw new ConnectionError('not_available', `${manifest.provider!.display_name} does not offer ${kind ?? 'any'} sign-in.`);
    return method;
  }

  async #accountRow(ownerId: string, accountId: string): Promise<Record<string, unknown>> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(accountId)) throw new ConnectionError('unknown_account', 'No such connected account.');
    const [row] = await this.#options.execute(selectAccount(ownerId, accountId));
    if (!row) throw new ConnectionError('unknown_account', 'No such connected account.');
    return row;
  }

  #flowError(error: unknown): ConnectionError {
    if (error instanceof ConnectionError) return error;
    if (error instanceof AuthFlowError) return new ConnectionError(error.code === 'not_available' ? 'not_available' : 'flow_failed', error.message, error.code);
    this.#options.logger.error({ err: error }, 'connection step failed');
    return new ConnectionError('flow_failed', 'The connection step failed unexpectedly.');
  }

  #view(row: Record<string, unknown>): AccountView {
    const provider = String(row['provider']);
    const manifest = this.#options.plugins.providerPlugin(provider);
    return {
      id: String(row['id']),
      provider,
      provider_display_name: manifest?.provider?.display_name ?? provider,
      plugin_id: (row['plugin_id'] as string | null) ?? null,
      display_name: (row['display_name'] as string | null) ?? null,
      provider_user_id: (row['provider_user_id'] as string | null) ?? null,
      account_label: (row['account_label'] as string | null) ?? null,
      status: row['status'] === 'reauth_required' ? 'reauth_required' : 'connected',
      auth_kind: (row['auth_kind'] as AuthKind | null) ?? null,
      scopes: (row['scopes'] as string[] | null) ?? [],
      expires_at: iso(row['expires_at']),
      connected_at: iso(row['created_at'])!,
      demo: Boolean(row['is_demo']),
    };
  }
}

/** An account's call, read and ready (see `ConnectionService.session`). */
interface PreparedCall {
  ownerId: string;
  accountId: string;
  provider: string;
  manifest: Manifest;
  stored: StoredCredential;
}

function cleanLabel(label: string | null | undefined): string | null {
  const trimmed = label?.trim();
  return trimmed ? trimmed.slice(0, 100) : null;
}
