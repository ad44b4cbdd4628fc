/**
 * Confirming appends by reading them back. Apple answers an append with 204 and no body, and the
 * tracks "may appear later"; entries have no ids of their own. So after the writes the plugin reads
 * the playlist from where it ended before, and matches what it sent, in order, against what is
 * there now. Pure: the reading is the caller's.
 *
 * Apple makes one request's tracks visible together and silently skips tracks it cannot add (not
 * in the account's storefront). Hence the verdict per sent item:
 * - seen in order after the old end: `confirmed` at that position;
 * - not seen, but something of the same request was: `skipped` (Apple dropped it);
 * - nothing of its request seen yet: `pending` (accepted, not visible yet — never re-sent).
 */

export interface SentItem {
  /** Keys an entry of this track may show (`song:<catalog id>`, `library:<library id>`). */
  readonly keys: readonly string[];
  /** Which request carried it. */
  readonly request: number;
}

export type Verdict = { readonly state: 'confirmed'; readonly position: number } | { readonly state: 'skipped' } | { readonly state: 'pending' };

/**
 * `observed` holds the keys of every entry from `baseline` (the old end) on, in playlist order.
 * Matching is greedy in order: entries that are not ours (an earlier append landing late) are passed over.
 */
export function matchAppended(sent: readonly SentItem[], observed: readonly (readonly string[])[], baseline: number): Verdict[] {
  const positions: (number | null)[] = sent.map(() => null);
  let cursor = 0;
  for (const [index, item] of sent.entries()) {
    for (let at = cursor; at < observed.length; at++) {
      if (observed[at]!.some((key) => item.keys.includes(key))) {
        positions[index] = baseline + at;
        cursor = at + 1;
        break;
      }
    }
  }
  const seenRequests = new Set(sent.filter((_, index) => positions[index] !== null).map((item) => item.request));
  return sent.map((item, index) => {
    const position = positions[index];
    if (position !== null && position !== undefined) return { state: 'confirmed', position };
    return seenRequests.has(item.request) ? { state: 'skipped' } : { state: 'pending' };
  });
}

/** Whether another read could still change the verdicts (some request is not visible at all yet). */
export function anyPending(verdicts: readonly Verdict[]): boolean {
  return verdicts.some((verdict) => verdict.state === 'pending');
}
