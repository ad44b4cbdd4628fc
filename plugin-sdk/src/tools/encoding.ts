import { createHash } from 'node:crypto';

/** Encoding helpers shared by keys, signatures and bundles. */

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

/**
 * Strict base64 (standard alphabet, padded): Node's decoder silently skips bad characters, which
 * would let two different strings stand for one key.
 */
export function fromBase64(text: string): Uint8Array | null {
  if (!BASE64.test(text)) return null;
  const bytes = new Uint8Array(Buffer.from(text, 'base64'));
  return toBase64(bytes) === text ? bytes : null;
}

export function isBase64OfLength(text: string, length: number): boolean {
  return fromBase64(text)?.length === length;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Decodes UTF-8, refusing invalid sequences instead of replacing them. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}
