/**
 * Feedback-loop guard. Rules are edges from a source collection to a target collection (an
 * account's playlist, or its liked songs); a new rule may not close a cycle. A→B beside B→A is
 * the inverse rule peers' users hit (each run copies the other's additions back, for ever);
 * A→B, B→C, C→A loops the same way through more services.
 */

export interface SyncEdge {
  ruleId: string;
  source: { accountId: string; playlistId: string };
  target: { accountId: string; playlistId: string };
}

const key = (endpoint: { accountId: string; playlistId: string }) => `${endpoint.accountId}\u0000${endpoint.playlistId}`;

/**
 * The existing rules that, with `candidate`, would form a cycle (in order from the candidate's
 * target back to its source), or null when there is none.
 */
export function cycleThrough(existing: readonly SyncEdge[], candidate: Omit<SyncEdge, 'ruleId'>): SyncEdge[] | null {
  const from = new Map<string, SyncEdge[]>();
  for (const edge of existing) {
    const list = from.get(key(edge.source)) ?? [];
    list.push(edge);
    from.set(key(edge.source), list);
  }
  const goal = key(candidate.source);
  const seen = new Set<string>();
  const walk = (at: string, path: SyncEdge[]): SyncEdge[] | null => {
    if (at === goal) return path;
    if (seen.has(at)) return null;
    seen.add(at);
    for (const edge of from.get(at) ?? []) {
      const found = walk(key(edge.target), [...path, edge]);
      if (found) return found;
    }
    return null;
  };
  return walk(key(candidate.target), []);
}
