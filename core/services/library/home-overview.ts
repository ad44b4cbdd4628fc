import type { SqlExecute } from '../../storage/sql/executors.ts';
import type { AccountView } from '../connections/connection.service.ts';
import { selectActiveJobCount, selectCacheCounts, selectRecentJobs, selectReviewsWaiting, selectRuleCount, selectRulesNeedingAttention } from './home-overview.sql.ts';

/**
 * The Home overview: what a listener checks first — the connected accounts and their health, how
 * much of each library the workspace has read, the recent and running jobs, the sync rules that
 * need attention and the reviews waiting. One cheap read: a few aggregates from the database, no
 * provider call, no workspace grouping (the Library page does that).
 */

/** Recent jobs listed. */
export const OVERVIEW_RECENT_JOBS = 8;

export type AccountHealth = 'ok' | 'reconnect' | 'not_read';

export interface OverviewAccount {
  account_id: string;
  provider: string;
  provider_display_name: string;
  display_name: string | null;
  status: AccountView['status'];
  /** `reconnect`: the connection must be renewed; `not_read`: its playlists were never read into the workspace. */
  health: AccountHealth;
  demo: boolean;
  fetched_at: string | null;
  /** Playlists and liked collections in its cached list; null until it is read. */
  playlists: number | null;
  /** Playlists whose songs are cached. */
  tracks_read: number;
}

export interface OverviewJob {
  id: string;
  name: string | null;
  status: string;
  outcome: string;
  origin: string;
  source_kind: string;
  source_provider: string;
  target_provider: string;
  created_at: string;
  completed_at: string | null;
}

export interface HomeOverview {
  accounts: OverviewAccount[];
  jobs: { active: number; recent: OverviewJob[] };
  sync_rules: {
    total: number;
    needing_attention: { id: string; name: string; status: string; pause_code: string | null; pause_reason: string | null; consecutive_failures: number; source_provider: string; target_provider: string }[];
  };
  reviews: { items: number; jobs: { job_id: string; name: string | null; origin: string; source_provider: string; target_provider: string; created_at: string; items: number }[] };
}

const iso = (value: unknown): string | null => (value === null || value === undefined ? null : new Date(value as string).toISOString());
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export async function homeOverview(execute: SqlExecute, ownerId: string, accounts: readonly AccountView[]): Promise<HomeOverview> {
  const [caches, recent, [active], reviews, rules, [ruleCount]] = await Promise.all([
    execute(selectCacheCounts(ownerId)),
    execute(selectRecentJobs(ownerId, OVERVIEW_RECENT_JOBS)),
    execute(selectActiveJobCount(ownerId)),
    execute(selectReviewsWaiting(ownerId)),
    execute(selectRulesNeedingAttention(ownerId)),
    execute(selectRuleCount(ownerId)),
  ]);
  const cacheOf = new Map(caches.map((row) => [String(row['account_id']), row]));
  const reviewJobs = reviews.map((row) => ({
    job_id: String(row['job_id']),
    name: text(row['name']),
    origin: String(row['origin']),
    source_provider: String(row['source_provider']),
    target_provider: String(row['target_provider']),
    created_at: iso(row['created_at'])!,
    items: Number(row['items']),
  }));
  return {
    accounts: accounts.map((account) => {
      const cache = cacheOf.get(account.id);
      const fetchedAt = iso(cache?.['fetched_at']);
      const playlists = cache?.['playlists'] === null || cache?.['playlists'] === undefined ? null : Number(cache['playlists']);
      return {
        account_id: account.id,
        provider: account.provider,
        provider_display_name: account.provider_display_name,
        display_name: account.display_name ?? account.account_label,
        status: account.status,
        health: account.status !== 'connected' ? 'reconnect' : fetchedAt === null ? 'not_read' : 'ok',
        demo: account.demo,
        fetched_at: fetchedAt,
        playlists,
        tracks_read: Number(cache?.['tracks_read'] ?? 0),
      };
    }),
    jobs: {
      active: Number(active?.['active'] ?? 0),
      recent: recent.map((row) => ({
        id: String(row['id']),
        name: text(row['name']),
        status: String(row['status']),
        outcome: String(row['outcome']),
        origin: String(row['origin']),
        source_kind: String(row['source_kind']),
        source_provider: String(row['source_provider']),
        target_provider: String(row['target_provider']),
        created_at: iso(row['created_at'])!,
        completed_at: iso(row['completed_at']),
      })),
    },
    sync_rules: {
      total: Number(ruleCount?.['total'] ?? 0),
      needing_attention: rules.map((row) => ({
        id: String(row['id']),
        name: String(row['name']),
        status: String(row['status']),
        pause_code: text(row['pause_code']),
        pause_reason: text(row['pause_reason']),
        consecutive_failures: Number(row['consecutive_failures']),
        source_provider: String(row['source_provider']),
        target_provider: String(row['target_provider']),
      })),
    },
    reviews: { items: reviewJobs.reduce((sum, job) => sum + job.items, 0), jobs: reviewJobs },
  };
}
