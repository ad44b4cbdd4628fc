import { PluginError } from '@opl/plugin-sdk';
import { SandboxError } from '@opl/plugin-sdk/sandbox';
import { ConnectionError } from '../../services/connections/connection.service.ts';
import { PlaylistLimitError } from '../../services/playlists/playlist-read.service.ts';
import { AppError } from '../errors/index.ts';

/**
 * Turns connection and provider failures into problem responses with a next action. Plugin error
 * messages are already free of raw HTTP details and credentials (the sandbox redacts them); they
 * are still cut short here.
 */
export function providerProblem(error: unknown): unknown {
  if (error instanceof ConnectionError) {
    switch (error.code) {
      case 'unknown_provider':
      case 'unknown_account':
      case 'attempt_not_found':
        return new AppError('not_found', error.message);
      case 'attempt_expired':
        return new AppError('auth_attempt_expired', error.message);
      case 'not_available':
        return new AppError('provider_not_configured', error.message);
      case 'header_paste_disabled':
        return new AppError('header_paste_disabled', error.message);
      case 'auth_expired':
        return new AppError('provider_auth_expired', error.message, { extensions: { action: { type: 'reconnect_account' } } });
      case 'account_mismatch':
        return new AppError('account_mismatch', error.message);
      case 'provider_unavailable':
        return new AppError('provider_unavailable', error.message);
      case 'flow_failed':
        return new AppError('auth_failed', error.message, { extensions: { reason: error.flowCode ?? 'failed' } });
    }
  }
  if (error instanceof PluginError) {
    const message = error.message.slice(0, 500);
    switch (error.type) {
      case 'NotFound':
        return new AppError('not_found', `The provider says: ${message}`);
      case 'RateLimited': {
        const retry = error.toData().retry_after_s ?? null;
        return new AppError('provider_rate_limited', `${message}${retry ? ` Try again in ${retry} s.` : ' Try again later.'}`, {
          ...(retry ? { headers: { 'retry-after': String(Math.ceil(retry)) }, extensions: { retry_after_s: retry } } : {}),
        });
      }
      case 'AuthExpired':
        return new AppError('provider_auth_expired', 'The provider no longer accepts this connection: reconnect the account.', { extensions: { action: { type: 'reconnect_account' } } });
      case 'Unsupported':
        return new AppError('provider_unsupported', message);
      case 'InvalidInput':
        return new AppError('unprocessable_content', message);
      default:
        return new AppError('provider_unavailable', `The provider failed: ${message} Try again later.`);
    }
  }
  if (error instanceof SandboxError) return new AppError('provider_unavailable', `The provider plugin failed (${error.failure}). Try again later; an admin can see the plugin's state on the Plugins page.`);
  if (error instanceof PlaylistLimitError) return new AppError('unprocessable_content', error.message);
  return error;
}
