/**
 * A source playlist's migration status against a target account ("Reruns and duplicates" rule 2),
 * from the migration ledger and sync rules. Pure: the caller reads the ledger rows and rules.
 *
 * - `in_sync`: a healthy (active) sync rule copies this playlist into the target account.
 * - otherwise by the ledger: of the source's migratable songs (`total`), how many reached the target
 *   account from this very playlist (`migrated`: written, or found already there) in jobs that read
 *   the live playlist (snapshot restores never count): none → `not_migrated`, some →
 *   `partially_migrated`, all → `migrated`. An empty playlist counts as migrated once a job wrote it.
 * When the tracks were not read yet, `total` is the list's track count and `migrated` the ledger's
 * distinct songs of this playlist (at most the total): approximate, and said so (`exact: false`).
 */

export const MIGRATION_STATES = ['not_migrated', 'partially_migrated', 'migrated', 'in_sync'] as const;
export type MigrationState = (typeof MIGRATION_STATES)[number];

export interface MigrationStatus {
  state: MigrationState;
  migrated: number;
  total: number;
  exact: boolean;
  target_account_id: string;
  /** The sync rule into the target account, healthy or not. */
  sync_rule: { id: string; status: string } | null;
}

export interface StatusInput {
  /** The source's songs as `[track id or null, migratable]`; null when not read yet. */
  tracks: readonly (readonly [string | null, boolean])[] | null;
  trackCount: number | null;
  /** Source track ids of this playlist the ledger shows in the target account. */
  migratedIds: ReadonlySet<string>;
  /** A job wrote this playlist into the target account (its lineage exists). */
  hasLineage: boolean;
  rule: { id: string; status: string } | null;
}

export function migrationStatus(targetAccountId: string, input: StatusInput): MigrationStatus {
  let total: number;
  let migrated: number;
  if (input.tracks) {
    const migratable = input.tracks.filter(([, ok]) => ok);
    total = migratable.length;
    migrated = migratable.filter(([id]) => id !== null && input.migratedIds.has(id)).length;
  } else {
    total = input.trackCount ?? 0;
    migrated = Math.min(total, input.migratedIds.size);
  }
  const base = { migrated, total, exact: input.tracks !== null, target_account_id: targetAccountId, sync_rule: input.rule };
  if (input.rule?.status === 'active') return { state: 'in_sync', ...base };
  if (total === 0) return { state: input.hasLineage ? 'migrated' : 'not_migrated', ...base };
  if (migrated === 0) return { state: 'not_migrated', ...base };
  return { state: migrated >= total ? 'migrated' : 'partially_migrated', ...base };
}
