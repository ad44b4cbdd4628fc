/**
 * Seconds a provider asks to wait, from an HTTP `Retry-After` value: delta-seconds or an HTTP
 * date (RFC 9110, 10.2.3), the date measured against `now` (milliseconds since the epoch, or an
 * ISO timestamp such as `ctx.now()` returns) and never negative. Null when the header is absent or
 * unreadable, or when it asks for more than nine digits of seconds (no real wait is that long).
 */
export function retryAfterSeconds(header: string | undefined, now: number | string): number | null {
  if (header === undefined) return null;
  const text = header.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text);
  // An HTTP date names its day and month; Date.parse would also read "2026", "-5" or "1.5" as dates.
  if (!/[A-Za-z]/.test(text)) return null;
  const at = Date.parse(text);
  const nowMs = typeof now === 'string' ? Date.parse(now) : now;
  if (Number.isNaN(at) || !Number.isFinite(nowMs)) return null;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}
