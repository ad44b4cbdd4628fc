import type { PluginRequestInit, ProviderContext } from '../context.ts';
import { ProviderError, type PluginError } from '../errors.ts';
import { parseJsonOrNull, type FailedResponse } from './error-details.ts';

/**
 * One JSON request through the host's fetch, with every way it can fail turned into the plugin's
 * typed error: no answer at all, a non-2xx answer, a 2xx answer that is not JSON. The host has
 * already read the body within the manifest's response cap; what the errors say is the plugin's.
 */

export interface JsonRequest {
  readonly url: string;
  readonly init?: PluginRequestInit;
  /**
   * The error for a request that got no answer: the host refused it, the connection failed, or
   * the answer was lost (a write may then have been applied). `error` is the host's, whose
   * message may name the URL.
   */
  unreachable(error: unknown): PluginError;
  /** The error for a non-2xx answer. */
  failed(response: FailedResponse): PluginError;
  /** The error for a 2xx answer that is not JSON. */
  unreadable(): PluginError;
  /** An empty 2xx body means null (the default: a 204, a write with no answer) or is unreadable. */
  readonly emptyIsNull?: boolean;
}

/** Sends the request; resolves with the parsed JSON of a 2xx answer. */
export async function requestJson(ctx: ProviderContext, request: JsonRequest): Promise<unknown> {
  let response;
  try {
    response = await ctx.fetch(request.url, request.init);
  } catch (error) {
    throw request.unreachable(error);
  }
  const bodyText = response.text();
  if (response.status < 200 || response.status >= 300) {
    throw request.failed({ status: response.status, headers: response.headers, bodyText, body: parseJsonOrNull(bodyText) });
  }
  if (bodyText.trim() === '' && request.emptyIsNull !== false) return null;
  try {
    return JSON.parse(bodyText) as unknown;
  } catch {
    throw request.unreadable();
  }
}

export interface UnreachableWords {
  /** The provider's name: "Spotify". */
  readonly provider: string;
  readonly what: string;
  /** Whether the request changes something: a lost answer then may mean the change was applied. */
  readonly write: boolean;
  /** What to read to find out whether a lost write was applied (default "the playlist or library"). */
  readonly readBack?: string;
}

/**
 * The common words for a request without an answer: "Could not reach …" for a read, "The answer
 * from … was lost …; read … before retrying" for a write. The host's message (never a
 * credential: the host masks those) says what went wrong.
 */
export function unreachableError(error: unknown, words: UnreachableWords): ProviderError {
  const reason = error instanceof Error ? error.message : 'the request failed';
  if (!words.write) return new ProviderError(`Could not reach ${words.provider} while ${words.what}: ${reason}`);
  return new ProviderError(
    `The answer from ${words.provider} was lost while ${words.what}: ${reason}. The change may or may not have been applied; read ${words.readBack ?? 'the playlist or library'} before retrying.`,
  );
}

/** The host's clock (`ctx.now()`) in milliseconds; 0 if it is unreadable. */
export function nowMs(ctx: Pick<ProviderContext, 'now'>): number {
  const parsed = Date.parse(ctx.now());
  return Number.isNaN(parsed) ? 0 : parsed;
}
