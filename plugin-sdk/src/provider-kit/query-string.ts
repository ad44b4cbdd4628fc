/**
 * Query strings built by hand: the sandbox has no `URL` or `URLSearchParams`.
 */

export type QueryValue = string | number | boolean | null | undefined;

/**
 * `?name=value&…`, or '' when nothing is left: null, undefined and empty values are left out,
 * values are percent-encoded and names kept as written (JSON:API's `filter[isrc]` stays readable).
 */
export function queryString(params: Readonly<Record<string, QueryValue>>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === null || value === undefined || value === '') continue;
    parts.push(`${name}=${encodeURIComponent(String(value))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** A page size the provider accepts: `requested` rounded down and held within 1…`max`. */
export function clampPageSize(requested: number, max: number): number {
  return Math.max(1, Math.min(max, Math.floor(requested)));
}
