/**
 * Idempotency keys for TIDAL mutations. A key must be the same every time the same logical write is
 * sent again (a retry after a lost answer must be recognised and replayed, not applied twice), so
 * it is derived from the write itself. The sandbox has no crypto, hence this small pure hash: two
 * independent 53-bit lanes (cyrb53 with different seeds) give ~106 bits, plenty to keep unrelated
 * writes of one account apart within TIDAL's one-hour replay window.
 */

function cyrb53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A stable key (`opl-` + 28 hex digits) for a write described by `parts`. */
export function idempotencyKey(parts: readonly unknown[]): string {
  const text = JSON.stringify(parts);
  const lane = (seed: number) => cyrb53(text, seed).toString(16).padStart(14, '0');
  return `opl-${lane(0x9e3779b1)}${lane(0x85ebca6b)}`;
}
