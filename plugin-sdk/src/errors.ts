/**
 * Typed adapter errors. A plugin throws these; they cross the sandbox boundary as plain data
 * (`PluginErrorData`) and the engine rebuilds them, so raw HTTP errors never leak past an adapter.
 * No zod here: this file is bundled into plugins and must stay small.
 */

export const PLUGIN_ERROR_TYPES = ['RateLimited', 'AuthExpired', 'NotFound', 'Unsupported', 'InvalidInput', 'ProviderError'] as const;
export type PluginErrorType = (typeof PLUGIN_ERROR_TYPES)[number];

export interface PluginErrorData {
  type: PluginErrorType;
  message: string;
  /** Only for `RateLimited`: seconds the provider asked us to wait. */
  retry_after_s?: number | null;
  /** Only for `RateLimited`: set when a daily quota is used up (wait until it resets, not seconds). */
  quota?: QuotaExhaustion | null;
}

/**
 * A used-up daily quota: the request was refused before it was sent (the engine's limiter) or the
 * provider answered that the budget is gone. `bucket` names the manifest's quota bucket
 * (`default`, or e.g. `search`); `resets_at` is when the budget returns, when known.
 */
export interface QuotaExhaustion {
  bucket: string;
  resets_at: string | null;
}

// The quota facts travel inside the message too, because across the sandbox boundary only an
// error's type, message and retry_after_s survive; the host reads them back from the marker.
const QUOTA_MARKER = /\[opl:quota bucket=([a-z][a-z0-9_]{0,31}) resets_at=(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z|unknown)\]/;

function quotaMarker(quota: QuotaExhaustion): string {
  return `[opl:quota bucket=${quota.bucket} resets_at=${quota.resets_at ?? 'unknown'}]`;
}

function parseQuotaMarker(text: string): QuotaExhaustion | null {
  const match = QUOTA_MARKER.exec(text);
  if (!match) return null;
  return { bucket: match[1]!, resets_at: match[2] === 'unknown' ? null : match[2]! };
}

export class PluginError extends Error {
  readonly type: PluginErrorType;
  constructor(type: PluginErrorType, message: string) {
    super(message);
    this.name = type;
    this.type = type;
  }

  toData(): PluginErrorData {
    return { type: this.type, message: this.message };
  }
}

/**
 * The provider refused for pacing reasons; retry after `retryAfterSeconds`. With `quota` set, a
 * daily quota is used up: nothing more of that bucket goes out before `quota.resets_at`.
 */
export class RateLimited extends PluginError {
  readonly retryAfterSeconds: number | null;
  readonly quota: QuotaExhaustion | null;
  constructor(message: string, retryAfterSeconds: number | null = null, quota: QuotaExhaustion | null = null) {
    const marked = quota ?? parseQuotaMarker(message);
    super('RateLimited', quota && !parseQuotaMarker(message) ? `${quotaMarker(quota)} ${message}` : message);
    this.retryAfterSeconds = retryAfterSeconds;
    this.quota = marked;
  }

  override toData(): PluginErrorData {
    return { type: this.type, message: this.message, retry_after_s: this.retryAfterSeconds, ...(this.quota ? { quota: { ...this.quota } } : {}) };
  }

  /** The marker that carries a quota exhaustion in a message (`[opl:quota bucket=… resets_at=…]`). */
  static quotaMarker(quota: QuotaExhaustion): string {
    return quotaMarker(quota);
  }

  /** The quota exhaustion a message carries, if any. */
  static parseQuota(message: string): QuotaExhaustion | null {
    return parseQuotaMarker(message);
  }

  /**
   * A used-up daily quota as a typed error, waiting until `resetsAt` (seconds measured from
   * `nowIso`; unknown when either is missing — the host then fills in the manifest's reset time).
   */
  static quotaExhausted(message: string, bucket = 'default', resetsAt: string | null = null, nowIso: string | null = null): RateLimited {
    let wait: number | null = null;
    if (resetsAt && nowIso) {
      const ms = Date.parse(resetsAt) - Date.parse(nowIso);
      if (Number.isFinite(ms)) wait = Math.max(1, Math.ceil(ms / 1000));
    }
    return new RateLimited(message, wait, { bucket, resets_at: resetsAt });
  }

  /**
   * For plugins: when a failed `ctx.fetch` was the engine refusing the request because the day's
   * quota is used up (nothing was sent), the typed error to throw unchanged; otherwise null.
   */
  static fromQuotaRefusal(error: unknown, nowIso: string | null = null): RateLimited | null {
    const message = error instanceof Error ? error.message : null;
    const quota = message ? parseQuotaMarker(message) : null;
    if (!quota) return null;
    return RateLimited.quotaExhausted(`the daily quota${quota.bucket === 'default' ? '' : ` (${quota.bucket})`} is used up; the request was not sent`, quota.bucket, quota.resets_at, nowIso);
  }
}

/** The credential expired or was revoked; the user must reconnect. */
export class AuthExpired extends PluginError {
  constructor(message = 'the provider credential expired or was revoked') {
    super('AuthExpired', message);
  }
}

export class NotFound extends PluginError {
  constructor(message: string) {
    super('NotFound', message);
  }
}

/** The provider cannot do this (or not for this item). */
export class Unsupported extends PluginError {
  constructor(message: string) {
    super('Unsupported', message);
  }
}

/** The input (a file being parsed, an argument) is not acceptable. */
export class InvalidInput extends PluginError {
  constructor(message: string) {
    super('InvalidInput', message);
  }
}

/** Any other provider failure, already stripped of raw response details. */
export class ProviderError extends PluginError {
  constructor(message: string) {
    super('ProviderError', message);
  }
}

/** Rebuilds a typed error from boundary data (engine side). */
export function pluginErrorFromData(data: PluginErrorData): PluginError {
  switch (data.type) {
    case 'RateLimited':
      return new RateLimited(data.message, data.retry_after_s ?? null, data.quota ?? null);
    case 'AuthExpired':
      return new AuthExpired(data.message);
    case 'NotFound':
      return new NotFound(data.message);
    case 'Unsupported':
      return new Unsupported(data.message);
    case 'InvalidInput':
      return new InvalidInput(data.message);
    case 'ProviderError':
      return new ProviderError(data.message);
  }
}
