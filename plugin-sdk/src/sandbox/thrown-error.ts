import { PLUGIN_ERROR_TYPES, type PluginErrorData, type PluginErrorType } from '../errors.ts';

/**
 * What the prelude reports about a value a plugin threw. The prelude only reads plain fields (it
 * never calls `toString` or `toData` on plugin objects), and this module decides on the host what
 * survives: a known typed error keeps its type, anything else becomes a `ProviderError` whose
 * message is bounded and says what kind of value was thrown.
 */
export interface ThrownDescription {
  /** The thrown value was an `Error` of the isolate. */
  is_error?: unknown;
  type?: unknown;
  name?: unknown;
  message?: unknown;
  retry_after_s?: unknown;
  /** `typeof` the thrown value when it was not an object. */
  thrown?: unknown;
}

export const MAX_ERROR_MESSAGE = 1_000;

function bounded(text: string): string {
  return text.length > MAX_ERROR_MESSAGE ? `${text.slice(0, MAX_ERROR_MESSAGE - 1)}…` : text;
}

function isKnownType(value: unknown): value is PluginErrorType {
  return typeof value === 'string' && (PLUGIN_ERROR_TYPES as readonly string[]).includes(value);
}

export function errorDataFromThrown(description: unknown, redact: (text: string) => string): PluginErrorData {
  const thrown = (typeof description === 'object' && description !== null ? description : {}) as ThrownDescription;
  const message = typeof thrown.message === 'string' ? redact(thrown.message) : null;
  if (thrown.is_error === true && isKnownType(thrown.type) && message !== null) {
    const data: PluginErrorData = { type: thrown.type, message: bounded(message) };
    if (thrown.type === 'RateLimited') {
      const retry = thrown.retry_after_s;
      data.retry_after_s = typeof retry === 'number' && Number.isFinite(retry) && retry >= 0 ? Math.min(retry, 86_400) : null;
    }
    return data;
  }
  if (message !== null) {
    const name = typeof thrown.name === 'string' && /^[A-Za-z][A-Za-z0-9_]{0,40}$/.test(thrown.name) ? thrown.name : 'Error';
    return { type: 'ProviderError', message: bounded(`the plugin failed: ${name}: ${message}`) };
  }
  const kind = typeof thrown.thrown === 'string' && /^[a-z]{1,12}$/.test(thrown.thrown) ? thrown.thrown : 'unknown';
  return { type: 'ProviderError', message: `the plugin failed by throwing a non-error value (${kind})` };
}
