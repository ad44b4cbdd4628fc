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

/** The provider refused for pacing reasons; retry after `retryAfterSeconds`. */
export class RateLimited extends PluginError {
  readonly retryAfterSeconds: number | null;
  constructor(message: string, retryAfterSeconds: number | null = null) {
    super('RateLimited', message);
    this.retryAfterSeconds = retryAfterSeconds;
  }

  override toData(): PluginErrorData {
    return { type: this.type, message: this.message, retry_after_s: this.retryAfterSeconds };
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
      return new RateLimited(data.message, data.retry_after_s ?? null);
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
