import { describe, expect, it } from 'vitest';
import {
  accountFullName,
  accountName,
  accountPath,
  accountStatusLabel,
  authOutcomeProblem,
  beginBody,
  beginPath,
  describeConnectionFailure,
  formatExpiry,
  formatWait,
  groupAccounts,
  hashWithoutQuery,
  normaliseLabel,
  parseAccount,
  parseAccounts,
  parseAuthOutcome,
  parseChallenge,
  parseCompletion,
  parseConnectionTest,
  parseProviders,
  retryAfterSeconds,
  type AccountView,
  type ProviderRow,
} from '../../../ui/src/api/connections.ts';

const rawAccount = {
  id: 'acct-1',
  provider: 'spotify',
  provider_display_name: 'Spotify',
  plugin_id: 'opl.provider.spotify',
  display_name: 'Ada Lovelace',
  provider_user_id: 'ada',
  account_label: 'Work',
  status: 'connected',
  auth_kind: 'OAUTH_PKCE',
  scopes: ['playlist-read-private'],
  expires_at: '2026-11-21T13:00:00.000Z',
  connected_at: '2026-11-21T12:00:00.000Z',
  demo: true,
};

const rawProvider = {
  name: 'spotify',
  display_name: 'Spotify',
  plugin: { id: 'opl.provider.spotify', version: '1.0.0', signed: true },
  auth_kinds: ['OAUTH_PKCE'],
  capabilities: ['READ_PLAYLISTS'],
  official: true,
  stability: 'stable',
  warning: null,
  demo: true,
  connectable: false,
  connect_unavailable_reason: 'Set OPL_SPOTIFY_CLIENT_ID.',
};

describe('connections API parsing', () => {
  it('parses providers, defaulting the fields an older engine does not send', () => {
    expect(parseProviders({ providers: [rawProvider] })).toEqual([
      {
        name: 'spotify',
        displayName: 'Spotify',
        authKinds: ['OAUTH_PKCE'],
        capabilities: ['READ_PLAYLISTS'],
        official: true,
        stability: 'stable',
        warning: null,
        demo: true,
        connectable: false,
        connectUnavailableReason: 'Set OPL_SPOTIFY_CLIENT_ID.',
      },
    ]);
    const { demo: _demo, connectable: _connectable, connect_unavailable_reason: _reason, ...older } = rawProvider;
    expect(parseProviders({ providers: [older] })?.[0]).toMatchObject({ demo: false, connectable: true, connectUnavailableReason: null });
    expect(parseProviders({ providers: [{ ...rawProvider, auth_kinds: 'OAUTH_PKCE' }] })).toBeUndefined();
    expect(parseProviders([rawProvider])).toBeUndefined();
  });

  it('parses accounts and refuses a malformed one', () => {
    const account = parseAccount(rawAccount);
    expect(account).toMatchObject({ id: 'acct-1', providerDisplayName: 'Spotify', accountLabel: 'Work', scopes: ['playlist-read-private'], demo: true });
    expect(parseAccounts({ accounts: [rawAccount, { ...rawAccount, id: 7 }] })).toBeUndefined();
    expect(parseAccounts({ accounts: [] })).toEqual([]);
    expect(parseAccount({ ...rawAccount, provider_display_name: '' })?.providerDisplayName).toBe('spotify');
    // The engine may not know how an older account signed in, nor which plugin served it.
    expect(parseAccount({ ...rawAccount, auth_kind: null, plugin_id: null })).toMatchObject({ authKind: null, pluginId: '' });
    expect(parseAccount({ ...rawAccount, auth_kind: 7 })).toBeUndefined();
  });

  it('never carries a token field through, even when the engine sent one by mistake', () => {
    const account = parseAccount({ ...rawAccount, access_token: 'secret-token', refresh_token: 'secret-refresh' });
    expect(JSON.stringify(account)).not.toContain('secret');
  });

  it('parses each challenge shape, and refuses a shape with what it needs missing', () => {
    const base = { state: 's1', provider: 'spotify', auth_kind: 'OAUTH_PKCE', expires_at: '2026-11-21T12:10:00Z', instructions: null, demo: false };
    expect(parseChallenge({ ...base, shape: 'redirect', redirect_url: 'https://accounts.example.com/authorize?x=1' })).toMatchObject({
      shape: 'redirect',
      redirectUrl: 'https://accounts.example.com/authorize?x=1',
    });
    expect(parseChallenge({ ...base, shape: 'redirect' })).toBeUndefined();
    expect(parseChallenge({ ...base, shape: 'device_code', user_code: 'WXYZ-1234', verification_url: 'https://example.com/device' })).toMatchObject({
      shape: 'device_code',
      userCode: 'WXYZ-1234',
      pollIntervalS: 5,
    });
    expect(parseChallenge({ ...base, shape: 'device_code', user_code: 'A', verification_url: 'https://e.com', poll_interval_s: 2 })).toMatchObject({ pollIntervalS: 2 });
    const form = parseChallenge({
      ...base,
      shape: 'form',
      form: { fields: [{ name: 'cookie', label: 'Cookie header', secret: true, help: 'From the developer tools' }], submit_label: 'Connect' },
    });
    expect(form).toMatchObject({ shape: 'form', fields: [{ name: 'cookie', secret: true, help: 'From the developer tools' }], submitLabel: 'Connect', developerToken: null });
    expect(parseChallenge({ ...base, shape: 'form', form: { fields: [], submit_label: 'Go' } })).toBeUndefined();
    expect(parseChallenge({ ...base, shape: 'carrier_pigeon' })).toBeUndefined();
  });

  it('tells a finished sign-in from a pending one', () => {
    expect(parseCompletion(200, { status: 'connected', account: rawAccount })).toMatchObject({ status: 'connected', account: { id: 'acct-1' } });
    expect(parseCompletion(202, { status: 'pending', retry_after_s: 3 })).toEqual({ status: 'pending', retryAfterS: 3 });
    expect(parseCompletion(202, { status: 'pending' })).toEqual({ status: 'pending', retryAfterS: null });
    expect(parseCompletion(200, { status: 'connected' })).toBeUndefined();
  });

  it('parses a connection test', () => {
    expect(parseConnectionTest({ ok: false, status: 'reauth_required', display_name: null, checked_at: '2026-11-21T12:00:00Z', problem: { code: 'provider_auth_expired', detail: 'Sign in again.' } })).toEqual({
      ok: false,
      status: 'reauth_required',
      displayName: null,
      checkedAt: '2026-11-21T12:00:00Z',
      problem: { code: 'provider_auth_expired', detail: 'Sign in again.' },
    });
    expect(parseConnectionTest({ ok: true, status: 'connected', display_name: 'Ada', checked_at: 'x', problem: 'nope' })).toBeUndefined();
  });
});

describe('requests the page sends', () => {
  it('builds paths with the ids encoded', () => {
    expect(beginPath('spotify')).toBe('/api/auth/spotify/begin');
    expect(accountPath('a/b c')).toBe('/api/auth/accounts/a%2Fb%20c');
  });

  it('sends only the options given', () => {
    expect(beginBody({ accountLabel: null })).toEqual({ account_label: null });
    expect(beginBody({ accountLabel: 'Work', authKind: 'OAUTH_DEVICE', reconnectAccountId: 'acct-1' })).toEqual({
      account_label: 'Work',
      auth_kind: 'OAUTH_DEVICE',
      reconnect_account_id: 'acct-1',
    });
  });

  it('normalises a typed label; empty means none', () => {
    expect(normaliseLabel('   ')).toBeNull();
    expect(normaliseLabel('  Work   phone ')).toBe('Work phone');
  });
});

describe('hash query of the sign-in callback', () => {
  it('reads a connected account', () => {
    expect(parseAuthOutcome('#/connections?connected=acct-1')).toEqual({ kind: 'connected', accountId: 'acct-1' });
    expect(parseAuthOutcome('#connections/?connected=acct%201')).toEqual({ kind: 'connected', accountId: 'acct 1' });
  });

  it('reads a refusal with its message and optional provider', () => {
    expect(parseAuthOutcome('#/connections?auth_error=access_denied&message=You%20said%20no')).toEqual({
      kind: 'failed',
      code: 'access_denied',
      message: 'You said no',
      provider: null,
    });
    expect(parseAuthOutcome('#/connections?auth_error=auth_attempt_expired&provider=tidal')).toEqual({
      kind: 'failed',
      code: 'auth_attempt_expired',
      message: null,
      provider: 'tidal',
    });
    // A refusal wins over a success in the same query.
    expect(parseAuthOutcome('#/connections?connected=a&auth_error=x')?.kind).toBe('failed');
  });

  it('finds nothing without a query, with an empty one, or on another area', () => {
    for (const hash of ['', '#/connections', '#/connections?', '#/connections?connected=', '#/import?connected=acct-1', '#/connections?other=1']) {
      expect(parseAuthOutcome(hash), hash).toBeUndefined();
    }
  });

  it('cleans the query off the hash', () => {
    expect(hashWithoutQuery('#/connections?connected=acct-1')).toBe('#/connections');
    expect(hashWithoutQuery('#/connections')).toBe('#/connections');
  });

  it('puts a refusal into words, keeping the engine’s message', () => {
    expect(authOutcomeProblem({ kind: 'failed', code: 'access_denied', message: 'Denied on the consent page.', provider: null })).toEqual({
      title: 'The service did not grant access',
      status: 0,
      code: 'access_denied',
      detail: 'Denied on the consent page.',
    });
    expect(authOutcomeProblem({ kind: 'failed', code: 'weird', message: null, provider: null }).title).toBe('The account was not connected');
  });
});

describe('expiry and waiting in words', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');

  it('says when a token expires, relative to now', () => {
    expect(formatExpiry(null, now)).toBe('Does not expire');
    expect(formatExpiry('2026-11-21T12:00:30Z', now)).toBe('In less than a minute');
    expect(formatExpiry('2026-11-21T12:45:00Z', now)).toBe('In 45 minutes');
    expect(formatExpiry('2026-11-21T13:00:00Z', now)).toBe('In 1 hour');
    expect(formatExpiry('2026-11-21T15:00:00Z', now)).toBe('In 3 hours');
    expect(formatExpiry('2026-11-25T12:00:00Z', now)).toBe('In 4 days');
    expect(formatExpiry('2026-11-21T11:55:00Z', now)).toBe('Expired 5 minutes ago');
    expect(formatExpiry('2026-11-21T11:59:50Z', now)).toBe('Just expired');
    expect(formatExpiry('not a date', now)).toBe('not a date');
  });

  it('says how long to wait before retrying', () => {
    expect(formatWait(0.2)).toBe('in 1 second');
    expect(formatWait(30)).toBe('in 30 seconds');
    expect(formatWait(120)).toBe('in 2 minutes');
    expect(formatWait(7200)).toBe('in 2 hours');
  });
});

describe('failures and next actions', () => {
  it('offers Reconnect for an expired sign-in', () => {
    const failure = describeConnectionFailure(409, { title: 'Sign-in expired', status: 409, code: 'provider_auth_expired' }, {});
    expect(failure).toMatchObject({ reconnect: true, retry: false });
  });

  it('says when to retry a rate-limited read', () => {
    const body = { status: 429, code: 'provider_rate_limited', retry_after_s: 42 };
    expect(retryAfterSeconds(body)).toBe(42);
    const failure = describeConnectionFailure(429, { title: 'Rate limited', status: 429, code: 'provider_rate_limited' }, body);
    expect(failure.nextSteps).toEqual(['The service asks to wait. Try again in 42 seconds.']);
    expect(failure.retry).toBe(true);
    expect(describeConnectionFailure(429, { title: 'Rate limited', status: 429 }, {}).nextSteps[0]).toMatch(/in a minute/);
  });

  it('explains hosted refusals and missing configuration without a retry button', () => {
    expect(describeConnectionFailure(403, { title: 'No', status: 403, code: 'header_paste_disabled' }, {})).toMatchObject({ retry: false, reconnect: false });
    expect(describeConnectionFailure(409, { title: 'No client', status: 409, code: 'provider_not_configured' }, {}).nextSteps[0]).toMatch(/variable named above/);
    expect(describeConnectionFailure(410, { title: 'Gone', status: 410, code: 'auth_attempt_expired' }, {}).nextSteps[0]).toMatch(/Start the sign-in again/);
  });

  it('offers a retry when the service was unavailable', () => {
    expect(describeConnectionFailure(502, { title: 'Down', status: 502, code: 'provider_unavailable' }, {})).toMatchObject({ retry: true });
    expect(describeConnectionFailure(0, { title: 'Offline', status: 0 }, undefined)).toMatchObject({ retry: true });
  });
});

describe('accounts as the page lists them', () => {
  const account = (overrides: Partial<AccountView>): AccountView => ({ ...(parseAccount(rawAccount) as AccountView), ...overrides });
  const provider = (name: string, displayName: string): ProviderRow => ({
    name,
    displayName,
    authKinds: ['OAUTH_PKCE'],
    capabilities: [],
    official: true,
    stability: 'stable',
    warning: null,
    demo: false,
    connectable: true,
    connectUnavailableReason: null,
  });

  it('names an account by label, then display name, then user id', () => {
    expect(accountName(account({}))).toBe('Work');
    expect(accountName(account({ accountLabel: null }))).toBe('Ada Lovelace');
    expect(accountName(account({ accountLabel: null, displayName: null }))).toBe('ada');
    expect(accountName(account({ accountLabel: null, displayName: null, providerUserId: null }))).toBe('Spotify account');
    expect(accountFullName(account({}))).toBe('Work (Ada Lovelace) on Spotify');
    expect(accountFullName(account({ accountLabel: null }))).toBe('Ada Lovelace on Spotify');
  });

  it('labels statuses, keeping unknown ones', () => {
    expect(accountStatusLabel('connected')).toBe('Connected');
    expect(accountStatusLabel('reauth_required')).toBe('Sign-in expired');
    expect(accountStatusLabel('suspended')).toBe('suspended');
  });

  it('groups accounts in provider order, then by name', () => {
    const groups = groupAccounts(
      [
        account({ id: '1', provider: 'spotify', accountLabel: 'Work' }),
        account({ id: '2', provider: 'tidal', providerDisplayName: 'TIDAL', accountLabel: 'Home' }),
        account({ id: '3', provider: 'spotify', accountLabel: 'Home' }),
        account({ id: '4', provider: 'gone', providerDisplayName: 'Old service', accountLabel: 'x' }),
      ],
      [provider('tidal', 'TIDAL'), provider('spotify', 'Spotify')],
    );
    expect(groups.map((group) => group.provider)).toEqual(['tidal', 'spotify', 'gone']);
    expect(groups[1]?.accounts.map((item) => item.id)).toEqual(['3', '1']);
    expect(groups[2]?.displayName).toBe('Old service');
  });
});
