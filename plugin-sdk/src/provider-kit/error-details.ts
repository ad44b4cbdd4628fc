import { at } from './json-readers.ts';

/**
 * What a provider plugin may take from a failed answer for its error messages. Messages must
 * never carry a response body, a header value or prose the provider wrote (it may echo the
 * request, a token or a user's data): only the status, a machine-readable code that matches a
 * strict pattern, and at most a short, plain sentence.
 */

/** A non-2xx answer, as `requestJson` hands it to the plugin's error mapping. */
export interface FailedResponse {
  readonly status: number;
  /** Lowercased header names (`retry-after`). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as sent; for the plugin's own parsing, never for a message. */
  readonly bodyText: string;
  /** The body parsed as JSON; null when it was empty or not JSON. */
  readonly body: unknown;
}

/** What a request is for, in words, so that its typed error can say so. */
export interface RequestPurpose {
  /** A gerund phrase: "reading the playlist's tracks". */
  readonly what: string;
  /** What "not found" means is missing: "playlist" (default "item"). */
  readonly missing?: string;
  /** A permission refusal here means only the playlist's owner (or a collaborator) may do this. */
  readonly ownerOnly?: boolean;
}

/** JSON text parsed, or null when it is empty or not JSON (a failed answer's body is often HTML). */
export function parseJsonOrNull(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * A field of the first entry of an error list in a body: `firstErrorField(body, ['errors'], 'code',
 * /^\d{5}$/)` reads `errors[0].code`. Null unless it is a string that matches `pattern`, which
 * must admit identifiers only (the field then goes into a message).
 */
export function firstErrorField(body: unknown, listPath: readonly string[], field: string, pattern: RegExp): string | null {
  const value = at(body, ...listPath, 0, field);
  return typeof value === 'string' && pattern.test(value) ? value : null;
}

/** `(HTTP 404)`, or `(HTTP 404 40400)` with the provider's error code: the end of a message. */
export function statusSuffix(status: number, code: string | null): string {
  return `(HTTP ${status}${code ? ` ${code}` : ''})`;
}

/** A provider's short description of a failure, kept only when it is a plain short sentence. */
export function safeDetail(message: string | null): string | null {
  if (message === null) return null;
  const trimmed = message.trim();
  return trimmed.length > 0 && trimmed.length <= 160 && /^[\p{L}\p{N} .,:;'’()/_+-]+$/u.test(trimmed) ? trimmed : null;
}
