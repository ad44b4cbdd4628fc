import { Buffer } from 'node:buffer';

/**
 * Masks credential values wherever plugin-visible or logged text could carry them: log lines,
 * error messages, and response bodies or headers a server might echo a token back in. It works on
 * the literal values the host attached, so it needs no guess about what a token looks like.
 */

export const REDACTED = '[REDACTED]';

/** Parts of a header value shorter than this are not treated as secrets on their own. */
const MIN_SECRET_PART = 8;

export interface CredentialLike {
  readonly headers?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly token?: string | null;
}

/** Every value a set of credentials could leak: whole header values and their long parts (`Bearer <token>`). */
export function secretsOf(credentials: readonly CredentialLike[]): string[] {
  const secrets = new Set<string>();
  const add = (value: string) => {
    if (value.length === 0) return;
    secrets.add(value);
    for (const part of value.split(/[\s,;=]+/)) if (part.length >= MIN_SECRET_PART) secrets.add(part);
  };
  for (const credential of credentials) {
    for (const value of Object.values(credential.headers ?? {})) add(value);
    for (const value of Object.values(credential.query ?? {})) {
      add(value);
      // A URL carries the value percent-encoded.
      add(encodeURIComponent(value));
    }
    if (credential.token) add(credential.token);
  }
  // Longest first, so a whole value is replaced before any part of it.
  return [...secrets].sort((a, b) => b.length - a.length);
}

export interface Redactor {
  readonly active: boolean;
  readonly text: (value: string) => string;
  readonly bytes: (value: Uint8Array) => Uint8Array;
}

const encoder = new TextEncoder();

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength).indexOf(needle, from);
}

export function createRedactor(secrets: readonly string[]): Redactor {
  const needles = secrets.filter((secret) => secret.length > 0);
  const byteNeedles = needles.map((secret) => encoder.encode(secret));
  const replacement = encoder.encode(REDACTED);
  return {
    active: needles.length > 0,
    text: (value) => {
      let result = value;
      for (const secret of needles) if (result.includes(secret)) result = result.split(secret).join(REDACTED);
      return result;
    },
    bytes: (value) => {
      let result = value;
      for (const needle of byteNeedles) {
        let at = indexOfBytes(result, needle, 0);
        if (at < 0) continue;
        const parts: Uint8Array[] = [];
        let from = 0;
        while (at >= 0) {
          parts.push(result.subarray(from, at), replacement);
          from = at + needle.length;
          at = indexOfBytes(result, needle, from);
        }
        parts.push(result.subarray(from));
        result = new Uint8Array(Buffer.concat(parts));
      }
      return result;
    },
  };
}
