import { PluginError, type Playlist } from '@opl/plugin-sdk';
import { SandboxError } from '@opl/plugin-sdk/sandbox';
import { ConnectionError, type AccountView } from '../connections/connection.service.ts';
import { PlaylistLimitError } from '../playlists/playlist-read.service.ts';
import { ImportPreviewError } from './import-preview-error.ts';

/**
 * Reads a provider playlist named by a public link through one of the owner's connected accounts
 * of that provider — the provider's API with the host-attached credential, rate limiter and
 * sandbox, never its web page. Accounts are tried in turn (the one the owner chose, else every
 * connected one): the first that can read the playlist wins; when none can, the answer says what
 * the owner can do (connect an account, reconnect one, or wait for the provider).
 */

export interface ProviderLinkAccess {
  /** The owner's accounts of a provider. */
  accounts(ownerId: string, provider: string): Promise<AccountView[]>;
  /** Reads one playlist with every track, fresh from the provider. */
  read(ownerId: string, accountId: string, playlistId: string): Promise<Playlist>;
}

export interface ProviderLinkTarget {
  provider: string;
  displayName: string;
  playlistId: string;
}

export interface ProviderLinkRead {
  playlist: Playlist;
  account: AccountView;
}

const MAX_MESSAGE = 300;

type Failure = { kind: 'denied' } | { kind: 'reauth'; account: AccountView } | { kind: 'rate_limited'; retryAfterS: number | null; message: string } | { kind: 'failed'; message: string };

function classify(error: unknown, account: AccountView): Failure {
  if (error instanceof ConnectionError) {
    if (error.code === 'auth_expired') return { kind: 'reauth', account };
    if (error.code === 'unknown_account') return { kind: 'denied' };
    return { kind: 'failed', message: error.message };
  }
  if (error instanceof PluginError) {
    switch (error.type) {
      case 'NotFound':
      case 'Unsupported':
      case 'InvalidInput':
        return { kind: 'denied' };
      case 'AuthExpired':
        return { kind: 'reauth', account };
      case 'RateLimited':
        return { kind: 'rate_limited', retryAfterS: error.toData().retry_after_s ?? null, message: error.message.slice(0, MAX_MESSAGE) };
      default:
        return { kind: 'failed', message: error.message.slice(0, MAX_MESSAGE) };
    }
  }
  if (error instanceof SandboxError) return { kind: 'failed', message: `the provider plugin failed (${error.failure})` };
  throw error;
}

export function connectAction(target: ProviderLinkTarget): Record<string, unknown> {
  return { action: { type: 'connect_source_account', provider: target.provider, display_name: target.displayName } };
}

export class ProviderLinkReader {
  readonly #access: ProviderLinkAccess;

  constructor(access: ProviderLinkAccess) {
    this.#access = access;
  }

  async read(ownerId: string, target: ProviderLinkTarget, accountId: string | null): Promise<ProviderLinkRead> {
    const all = await this.#access.accounts(ownerId, target.provider);
    let accounts: AccountView[];
    if (accountId !== null) {
      const chosen = all.find((account) => account.id === accountId);
      if (!chosen) {
        throw new ImportPreviewError('invalid_account', `Account ${accountId.slice(0, 100)} is not one of your connected ${target.displayName} accounts; choose one of them, or leave account_id out.`, {
          ...connectAction(target),
          accounts: all.map((account) => ({ id: account.id, display_name: account.display_name, account_label: account.account_label })),
        });
      }
      accounts = [chosen];
    } else {
      // Healthy connections first; one waiting for reconnection is still tried (its refresh may work).
      accounts = [...all].sort((a, b) => Number(a.status !== 'connected') - Number(b.status !== 'connected'));
    }
    if (accounts.length === 0) {
      throw new ImportPreviewError(
        'needs_connection',
        `This is a ${target.displayName} playlist link. It is read through ${target.displayName} with one of your connected accounts, and no ${target.displayName} account is connected: connect a ${target.displayName} account, then import the link again.`,
        connectAction(target),
      );
    }
    const failures: Failure[] = [];
    for (const account of accounts) {
      try {
        return { playlist: await this.#access.read(ownerId, account.id, target.playlistId), account };
      } catch (error) {
        if (error instanceof PlaylistLimitError) throw new ImportPreviewError('unprocessable', error.message, { provider: target.provider });
        failures.push(classify(error, account));
      }
    }
    const limited = failures.find((failure) => failure.kind === 'rate_limited');
    if (limited) {
      const retry = limited.retryAfterS === null ? null : Math.max(1, Math.ceil(limited.retryAfterS));
      throw new ImportPreviewError('rate_limited', `${target.displayName} asks to slow down: ${limited.message}${retry === null ? ' Try again later.' : ` Try again in ${retry} s.`}`, {
        provider: target.provider,
        ...(retry === null ? {} : { retry_after_s: retry }),
      });
    }
    const failed = failures.find((failure) => failure.kind === 'failed');
    if (failed) throw new ImportPreviewError('upstream_failed', `${target.displayName} could not be read: ${failed.message}${/try again/i.test(failed.message) ? '' : ' Try again later.'}`, { provider: target.provider });
    const reauth = failures.find((failure) => failure.kind === 'reauth');
    if (reauth) {
      const label = reauth.account.account_label ?? reauth.account.display_name ?? target.displayName;
      throw new ImportPreviewError('needs_reconnect', `The ${target.displayName} connection "${label}" needs to be renewed before it can read this playlist: reconnect the account, then import the link again.`, {
        action: { type: 'reconnect_account', provider: target.provider, account_id: reauth.account.id, display_name: target.displayName },
      });
    }
    throw new ImportPreviewError(
      'needs_connection',
      `None of your connected ${target.displayName} accounts can read this playlist: it may be private to someone else, or deleted. Connect the ${target.displayName} account that can see it (or ask its owner to share it), then import the link again.`,
      connectAction(target),
    );
  }
}
