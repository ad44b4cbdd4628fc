/**
 * Connections: the provider list (`GET /providers`), connected accounts and the sign-in challenges
 * of `/api/auth/*`, parsed into camelCase so components never read raw JSON, plus the words the
 * Connections page uses for them. Pure: no I/O. Tokens never reach the UI; nothing here holds one.
 */

import type { Problem } from './problem.ts';
import { isRecord, isString, listOf, nullableString, stringList } from './answer-parsing.ts';

export const PROVIDERS_PATH = '/providers';
export const ACCOUNTS_PATH = '/api/auth/accounts';

export function beginPath(provider: string): string {
  return `/api/auth/${encodeURIComponent(provider)}/begin`;
}

export function completePath(provider: string): string {
  return `/api/auth/${encodeURIComponent(provider)}/complete`;
}

export function accountPath(accountId: string): string {
  return `${ACCOUNTS_PATH}/${encodeURIComponent(accountId)}`;
}

export function accountTestPath(accountId: string): string {
  return `${accountPath(accountId)}/test`;
}

/** Kept as strings beyond the known five, so a newer engine's method still shows. */
export type AuthKind = string;

export interface ProviderRow {
  readonly name: string;
  readonly displayName: string;
  readonly authKinds: readonly AuthKind[];
  readonly capabilities: readonly string[];
  readonly official: boolean;
  readonly stability: string;
  readonly warning: string | null;
  /** A simulated service run by the engine itself (`OPL_DEMO=1`). */
  readonly demo: boolean;
  readonly connectable: boolean;
  readonly connectUnavailableReason: string | null;
}

export type AccountStatus = 'connected' | 'reauth_required';

export interface AccountView {
  readonly id: string;
  readonly provider: string;
  readonly providerDisplayName: string;
  readonly pluginId: string;
  readonly displayName: string | null;
  readonly providerUserId: string | null;
  readonly accountLabel: string | null;
  /** `connected`, `reauth_required`, or a newer engine's status shown as it came. */
  readonly status: string;
  /** Null when the engine did not record how the account signed in. */
  readonly authKind: AuthKind | null;
  readonly scopes: readonly string[];
  readonly expiresAt: string | null;
  readonly connectedAt: string;
  readonly demo: boolean;
}

export interface ChallengeField {
  readonly name: string;
  readonly label: string;
  readonly secret: boolean;
  readonly help: string | null;
}

interface ChallengeBase {
  readonly state: string;
  readonly provider: string;
  readonly authKind: AuthKind;
  readonly expiresAt: string;
  readonly instructions: string | null;
  readonly demo: boolean;
}

/** What `POST /api/auth/{provider}/begin` asks of the user, by shape. */
export type AuthChallenge =
  | (ChallengeBase & { readonly shape: 'redirect'; readonly redirectUrl: string })
  | (ChallengeBase & {
      readonly shape: 'device_code';
      readonly userCode: string;
      readonly verificationUrl: string;
      readonly pollIntervalS: number;
    })
  | (ChallengeBase & {
      readonly shape: 'form';
      readonly fields: readonly ChallengeField[];
      readonly submitLabel: string;
      /** For DEVELOPER_USER_TOKEN: the signed developer token the provider's sign-in script needs. */
      readonly developerToken: string | null;
    });

export type Completion = { readonly status: 'connected'; readonly account: AccountView } | { readonly status: 'pending'; readonly retryAfterS: number | null };

export interface ConnectionTest {
  readonly ok: boolean;
  readonly status: string;
  readonly displayName: string | null;
  readonly checkedAt: string;
  readonly problem: { readonly code: string; readonly detail: string } | null;
}

/** What the page sends to begin: all optional but the provider. */
export interface BeginRequest {
  readonly accountLabel: string | null;
  readonly authKind?: AuthKind;
  readonly reconnectAccountId?: string;
}

const positiveNumber = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null);

function parseProvider(value: unknown): ProviderRow | undefined {
  if (!isRecord(value)) return undefined;
  const { name, display_name: displayName, official = false, stability = 'stable', demo = false, connectable = true } = value;
  const authKinds = stringList(value['auth_kinds']);
  const capabilities = stringList(value['capabilities'] ?? []);
  const warning = nullableString(value['warning']);
  const reason = nullableString(value['connect_unavailable_reason']);
  if (!isString(name) || !isString(displayName) || !authKinds || !capabilities || warning === undefined || reason === undefined) return undefined;
  if (typeof official !== 'boolean' || !isString(stability) || typeof demo !== 'boolean' || typeof connectable !== 'boolean') return undefined;
  return { name, displayName, authKinds, capabilities, official, stability, warning, demo, connectable, connectUnavailableReason: reason };
}

/** `GET /providers` → `{ providers: [...] }`; undefined when the body does not have that shape. */
export function parseProviders(body: unknown): ProviderRow[] | undefined {
  if (!isRecord(body)) return undefined;
  return listOf(body['providers'], parseProvider);
}

export function parseAccount(value: unknown): AccountView | undefined {
  if (!isRecord(value)) return undefined;
  const { id, provider, plugin_id: pluginId, status, auth_kind: authKind, connected_at: connectedAt, demo = false } = value;
  const providerDisplayName = value['provider_display_name'];
  const displayName = nullableString(value['display_name']);
  const providerUserId = nullableString(value['provider_user_id']);
  const accountLabel = nullableString(value['account_label']);
  const expiresAt = nullableString(value['expires_at']);
  const scopes = stringList(value['scopes'] ?? []);
  if (!isString(id) || !isString(provider) || !isString(status) || !isString(connectedAt) || typeof demo !== 'boolean') return undefined;
  if (authKind !== null && authKind !== undefined && !isString(authKind)) return undefined;
  if (displayName === undefined || providerUserId === undefined || accountLabel === undefined || expiresAt === undefined || !scopes) return undefined;
  return {
    id,
    provider,
    providerDisplayName: isString(providerDisplayName) && providerDisplayName !== '' ? providerDisplayName : provider,
    pluginId: isString(pluginId) ? pluginId : '',
    displayName,
    providerUserId,
    accountLabel,
    status,
    authKind: isString(authKind) ? authKind : null,
    scopes,
    expiresAt,
    connectedAt,
    demo,
  };
}

/** `GET /api/auth/accounts` → `{ accounts: [...] }`. */
export function parseAccounts(body: unknown): AccountView[] | undefined {
  if (!isRecord(body)) return undefined;
  return listOf(body['accounts'], parseAccount);
}

function parseField(value: unknown): ChallengeField | undefined {
  if (!isRecord(value)) return undefined;
  const { name, label, secret = false } = value;
  const help = nullableString(value['help']);
  if (!isString(name) || name === '' || !isString(label) || typeof secret !== 'boolean' || help === undefined) return undefined;
  return { name, label, secret, help };
}

/** The challenge of `POST …/begin`; undefined when its shape is unknown or a field it needs is missing. */
export function parseChallenge(body: unknown): AuthChallenge | undefined {
  if (!isRecord(body)) return undefined;
  const { state, provider, auth_kind: authKind, shape, expires_at: expiresAt, demo = false } = body;
  const instructions = nullableString(body['instructions']);
  if (!isString(state) || !isString(provider) || !isString(authKind) || !isString(expiresAt) || instructions === undefined || typeof demo !== 'boolean') {
    return undefined;
  }
  const base: ChallengeBase = { state, provider, authKind, expiresAt, instructions, demo };
  if (shape === 'redirect') {
    const redirectUrl = body['redirect_url'];
    return isString(redirectUrl) && URL.canParse(redirectUrl, 'http://localhost/') ? { ...base, shape, redirectUrl } : undefined;
  }
  if (shape === 'device_code') {
    const { user_code: userCode, verification_url: verificationUrl } = body;
    if (!isString(userCode) || userCode === '' || !isString(verificationUrl)) return undefined;
    return { ...base, shape, userCode, verificationUrl, pollIntervalS: positiveNumber(body['poll_interval_s']) ?? 5 };
  }
  if (shape === 'form') {
    const form = body['form'];
    if (!isRecord(form)) return undefined;
    const fields = listOf(form['fields'], parseField);
    const submitLabel = form['submit_label'];
    const developerToken = nullableString(body['developer_token']);
    if (!fields || fields.length === 0 || developerToken === undefined) return undefined;
    return { ...base, shape, fields, submitLabel: isString(submitLabel) && submitLabel.trim() !== '' ? submitLabel : 'Connect', developerToken };
  }
  return undefined;
}

/** `POST …/complete`: 200 connected with the account, or 202 pending. */
export function parseCompletion(status: number, body: unknown): Completion | undefined {
  if (!isRecord(body)) return undefined;
  if (status === 202 || body['status'] === 'pending') return { status: 'pending', retryAfterS: positiveNumber(body['retry_after_s']) };
  if (body['status'] !== 'connected') return undefined;
  const account = parseAccount(body['account']);
  return account ? { status: 'connected', account } : undefined;
}

export function parseConnectionTest(body: unknown): ConnectionTest | undefined {
  if (!isRecord(body)) return undefined;
  const { ok, status, checked_at: checkedAt } = body;
  const displayName = nullableString(body['display_name']);
  const problem = body['problem'];
  if (typeof ok !== 'boolean' || !isString(status) || !isString(checkedAt) || displayName === undefined) return undefined;
  let parsedProblem: ConnectionTest['problem'] = null;
  if (isRecord(problem)) {
    if (!isString(problem['code'])) return undefined;
    parsedProblem = { code: problem['code'], detail: isString(problem['detail']) ? problem['detail'] : '' };
  } else if (problem !== null && problem !== undefined) {
    return undefined;
  }
  return { ok, status, displayName, checkedAt, problem: parsedProblem };
}

/** The body of `POST …/begin`, in the API's snake_case; absent options are left out. */
export function beginBody(request: BeginRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { account_label: request.accountLabel };
  if (request.authKind !== undefined) body['auth_kind'] = request.authKind;
  if (request.reconnectAccountId !== undefined) body['reconnect_account_id'] = request.reconnectAccountId;
  return body;
}

/** A label the user typed: trimmed, and empty means none. */
export function normaliseLabel(input: string): string | null {
  const trimmed = input.trim().replace(/\s+/g, ' ');
  return trimmed === '' ? null : trimmed;
}

/** How an account is named to the user: its label first, then the service's display name, then its id there. */
export function accountName(account: AccountView): string {
  return account.accountLabel ?? account.displayName ?? account.providerUserId ?? `${account.providerDisplayName} account`;
}

/** `Work (Ada Lovelace) on Spotify`: unambiguous in a confirmation or an announcement. */
export function accountFullName(account: AccountView): string {
  const base = account.accountLabel && account.displayName ? `${account.accountLabel} (${account.displayName})` : accountName(account);
  return `${base} on ${account.providerDisplayName}`;
}

export function needsReconnect(account: AccountView): boolean {
  return account.status === 'reauth_required';
}

export function accountStatusLabel(status: string): string {
  if (status === 'connected') return 'Connected';
  if (status === 'reauth_required') return 'Sign-in expired';
  return status;
}

const AUTH_KIND_LABELS: Readonly<Record<string, string>> = {
  OAUTH_PKCE: 'Sign in on the service’s website',
  OAUTH_DEVICE: 'Enter a code on another device',
  HEADER_PASTE: 'Paste request headers from a signed-in browser (self-hosted only)',
  DEVELOPER_USER_TOKEN: 'Sign in with the service’s own sign-in window',
  LONG_LIVED_TOKEN: 'Paste an access token',
};

export function authKindLabel(kind: AuthKind | null): string {
  if (kind === null) return 'Sign-in method not recorded';
  return AUTH_KIND_LABELS[kind] ?? kind;
}

/** Accounts in provider order (as `/providers` lists them, unknown providers last), then by name. */
export function groupAccounts(accounts: readonly AccountView[], providers: readonly ProviderRow[]): { provider: string; displayName: string; demo: boolean; accounts: AccountView[] }[] {
  const order = new Map(providers.map((provider, index) => [provider.name, index]));
  const groups = new Map<string, { provider: string; displayName: string; demo: boolean; accounts: AccountView[] }>();
  for (const account of accounts) {
    let group = groups.get(account.provider);
    if (!group) {
      const row = providers.find((provider) => provider.name === account.provider);
      group = { provider: account.provider, displayName: row?.displayName ?? account.providerDisplayName, demo: row?.demo ?? account.demo, accounts: [] };
      groups.set(account.provider, group);
    }
    group.accounts.push(account);
  }
  const rank = (name: string) => order.get(name) ?? Number.MAX_SAFE_INTEGER;
  return [...groups.values()]
    .sort((a, b) => rank(a.provider) - rank(b.provider) || a.displayName.localeCompare(b.displayName))
    .map((group) => ({ ...group, accounts: group.accounts.sort((a, b) => accountName(a).localeCompare(accountName(b))) }));
}

/** What the engine's callback tells the page through the hash: `#/connections?connected=<id>` or `?auth_error=<code>&message=<text>`. */
export type AuthOutcome =
  | { readonly kind: 'connected'; readonly accountId: string }
  | { readonly kind: 'failed'; readonly code: string; readonly message: string | null; readonly provider: string | null };

/**
 * Reads the outcome of a redirect sign-in from a `location.hash`; undefined when the hash carries
 * none or points at another area. A failure wins over a success if both are (oddly) present.
 */
export function parseAuthOutcome(hash: string): AuthOutcome | undefined {
  const raw = hash.replace(/^#/, '');
  const queryStart = raw.indexOf('?');
  if (queryStart < 0) return undefined;
  const path = raw.slice(0, queryStart).replace(/^\/+/, '').replace(/\/+$/, '').toLowerCase();
  if (path !== 'connections') return undefined;
  const query = new URLSearchParams(raw.slice(queryStart + 1).split('#', 1)[0]);
  const error = query.get('auth_error')?.trim();
  if (error) {
    const message = query.get('message')?.trim();
    const provider = query.get('provider')?.trim();
    return { kind: 'failed', code: error, message: message || null, provider: provider || null };
  }
  const connected = query.get('connected')?.trim();
  if (connected) return { kind: 'connected', accountId: connected };
  return undefined;
}

/** The same hash without its query: what stays in the address bar once the outcome is announced. */
export function hashWithoutQuery(hash: string): string {
  const queryStart = hash.indexOf('?');
  return queryStart < 0 ? hash : hash.slice(0, queryStart);
}

const AUTH_ERROR_TITLES: Readonly<Record<string, string>> = {
  access_denied: 'The service did not grant access',
  auth_attempt_expired: 'The sign-in took too long',
  auth_state_mismatch: 'The sign-in could not be matched to this page',
  invalid_grant: 'The service refused the sign-in',
};

/** A failed redirect sign-in as a Problem for `problem-notice`. */
export function authOutcomeProblem(outcome: Extract<AuthOutcome, { kind: 'failed' }>): Problem {
  return {
    title: AUTH_ERROR_TITLES[outcome.code] ?? 'The account was not connected',
    status: 0,
    code: outcome.code,
    detail: outcome.message ?? 'The sign-in did not complete. Start it again; nothing was stored.',
  };
}

/**
 * When a token expires, in words relative to `now`: "in 45 minutes", "in 3 hours", "5 minutes
 * ago". Null (no expiry known, e.g. a long-lived token) reads "Does not expire". Access tokens are
 * refreshed by the engine ahead of expiry, so the page says when, not that the user must act.
 */
export function formatExpiry(expiresAt: string | null, now: number = Date.now()): string {
  if (expiresAt === null) return 'Does not expire';
  const time = Date.parse(expiresAt);
  if (Number.isNaN(time)) return expiresAt;
  const seconds = Math.round((time - now) / 1000);
  const past = seconds < 0;
  const abs = Math.abs(seconds);
  let amount: string;
  if (abs < 60) return past ? 'Just expired' : 'In less than a minute';
  if (abs < 3600) amount = plural(Math.round(abs / 60), 'minute');
  else if (abs < 48 * 3600) amount = plural(Math.round(abs / 3600), 'hour');
  else amount = plural(Math.round(abs / 86_400), 'day');
  return past ? `Expired ${amount} ago` : `In ${amount}`;
}

/** "in 30 seconds", "in 2 minutes": how long to wait before retrying. */
export function formatWait(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  if (whole < 90) return `in ${plural(whole, 'second')}`;
  if (whole < 5400) return `in ${plural(Math.round(whole / 60), 'minute')}`;
  return `in ${plural(Math.round(whole / 3600), 'hour')}`;
}

function plural(count: number, one: string): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : `${one}s`}`;
}

/** Problem codes of the auth and playlist routes the page answers with an action. */
export const PROVIDER_AUTH_EXPIRED = 'provider_auth_expired';
export const PROVIDER_RATE_LIMITED = 'provider_rate_limited';
export const PROVIDER_UNAVAILABLE = 'provider_unavailable';
export const PROVIDER_NOT_CONFIGURED = 'provider_not_configured';
export const HEADER_PASTE_DISABLED = 'header_paste_disabled';
export const AUTH_ATTEMPT_EXPIRED = 'auth_attempt_expired';

/** `retry_after_s` of a 429 problem body, when the engine gave one. */
export function retryAfterSeconds(body: unknown): number | null {
  if (!isRecord(body)) return null;
  return positiveNumber(body['retry_after_s']);
}

/** What the page offers after a failed request: words, and which buttons make sense. */
export interface ConnectionFailure {
  readonly problem: Problem;
  readonly nextSteps: readonly string[];
  /** Offer "Reconnect" (the account's sign-in expired). */
  readonly reconnect: boolean;
  /** Offer "Try again" (a later attempt may work). */
  readonly retry: boolean;
}

/**
 * Puts a refused connections or playlists request into words with next steps. `body` is the
 * problem document as received (its extensions carry `retry_after_s`).
 */
export function describeConnectionFailure(status: number, problem: Problem, body: unknown): ConnectionFailure {
  const code = problem.code;
  if (code === PROVIDER_AUTH_EXPIRED) {
    return {
      problem,
      nextSteps: ['Reconnect the account: sign in to the service again. Its playlists and settings here stay as they are.'],
      reconnect: true,
      retry: false,
    };
  }
  if (status === 429 || code === PROVIDER_RATE_LIMITED) {
    const wait = retryAfterSeconds(body);
    return {
      problem,
      nextSteps: [wait ? `The service asks to wait. Try again ${formatWait(wait)}.` : 'The service asks to wait. Try again in a minute.'],
      reconnect: false,
      retry: true,
    };
  }
  if (code === PROVIDER_NOT_CONFIGURED) {
    return {
      problem,
      nextSteps: ['The administrator sets the variable named above on the server and restarts the engine; then connect again.'],
      reconnect: false,
      retry: false,
    };
  }
  if (code === HEADER_PASTE_DISABLED) {
    return {
      problem,
      nextSteps: ['Choose another sign-in method if the service offers one. Pasting headers works only on a self-hosted engine.'],
      reconnect: false,
      retry: false,
    };
  }
  if (code === AUTH_ATTEMPT_EXPIRED || status === 410) {
    return { problem, nextSteps: ['Start the sign-in again; the previous attempt is no longer valid.'], reconnect: false, retry: false };
  }
  if (status === 502 || status === 503 || status === 504 || code === PROVIDER_UNAVAILABLE) {
    return { problem, nextSteps: ['The service did not answer properly. Try again in a moment.'], reconnect: false, retry: true };
  }
  if (status === 0) return { problem, nextSteps: ['Check that the engine is running, then try again.'], reconnect: false, retry: true };
  if (status === 404) return { problem, nextSteps: ['Reload the page: it may have been removed elsewhere.'], reconnect: false, retry: false };
  return { problem, nextSteps: status >= 500 ? ['Try again later.'] : [], reconnect: false, retry: status >= 500 };
}
