import { finiteNumber, isRecord, stringOrNull } from './answer-parsing.ts';

/**
 * The Home overview API (`GET /api/library/overview`), parsed into camelCase. Pure: no I/O.
 */

export const OVERVIEW_PATH = '/api/library/overview';

export type AccountHealth = 'ok' | 'reconnect' | 'not_read';

export interface OverviewAccount {
  readonly accountId: string;
  readonly provider: string;
  readonly providerName: string;
  readonly displayName: string | null;
  readonly health: AccountHealth;
  readonly demo: boolean;
  readonly fetchedAt: string | null;
  readonly playlists: number | null;
  readonly tracksRead: number;
}

export interface OverviewJob {
  readonly id: string;
  readonly name: string | null;
  readonly status: string;
  readonly origin: string;
  readonly sourceProvider: string;
  readonly targetProvider: string;
  readonly createdAt: string;
}

export interface OverviewRule {
  readonly id: string;
  readonly name: string;
  readonly status: string;
  readonly pauseReason: string | null;
  readonly consecutiveFailures: number;
  readonly sourceProvider: string;
  readonly targetProvider: string;
}

export interface OverviewReview {
  readonly jobId: string;
  readonly name: string | null;
  readonly sourceProvider: string;
  readonly targetProvider: string;
  readonly items: number;
}

export interface HomeOverview {
  readonly accounts: readonly OverviewAccount[];
  readonly activeJobs: number;
  readonly recentJobs: readonly OverviewJob[];
  readonly ruleCount: number;
  readonly rulesNeedingAttention: readonly OverviewRule[];
  readonly reviewItems: number;
  readonly reviews: readonly OverviewReview[];
}

type Json = Record<string, unknown>;
const str = stringOrNull;
const num = finiteNumber;
const records = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const HEALTH: readonly string[] = ['ok', 'reconnect', 'not_read'];

export function parseOverview(body: unknown): HomeOverview | undefined {
  if (!isRecord(body) || !Array.isArray(body['accounts']) || !isRecord(body['jobs']) || !isRecord(body['sync_rules']) || !isRecord(body['reviews'])) return undefined;
  const accounts: OverviewAccount[] = [];
  for (const entry of body['accounts']) {
    if (!isRecord(entry) || !str(entry['account_id']) || !str(entry['provider']) || !HEALTH.includes(str(entry['health']) ?? '')) return undefined;
    accounts.push({
      accountId: str(entry['account_id'])!,
      provider: str(entry['provider'])!,
      providerName: str(entry['provider_display_name']) ?? str(entry['provider'])!,
      displayName: str(entry['display_name']),
      health: entry['health'] as AccountHealth,
      demo: entry['demo'] === true,
      fetchedAt: str(entry['fetched_at']),
      playlists: num(entry['playlists']),
      tracksRead: num(entry['tracks_read']) ?? 0,
    });
  }
  const { jobs, sync_rules: rules, reviews } = body as { jobs: Json; sync_rules: Json; reviews: Json };
  return {
    accounts,
    activeJobs: num(jobs['active']) ?? 0,
    recentJobs: records(jobs['recent']).map((job) => ({
      id: str(job['id']) ?? '',
      name: str(job['name']),
      status: str(job['status']) ?? '',
      origin: str(job['origin']) ?? 'user',
      sourceProvider: str(job['source_provider']) ?? '',
      targetProvider: str(job['target_provider']) ?? '',
      createdAt: str(job['created_at']) ?? '',
    })),
    ruleCount: num(rules['total']) ?? 0,
    rulesNeedingAttention: records(rules['needing_attention']).map((rule) => ({
      id: str(rule['id']) ?? '',
      name: str(rule['name']) ?? '',
      status: str(rule['status']) ?? '',
      pauseReason: str(rule['pause_reason']),
      consecutiveFailures: num(rule['consecutive_failures']) ?? 0,
      sourceProvider: str(rule['source_provider']) ?? '',
      targetProvider: str(rule['target_provider']) ?? '',
    })),
    reviewItems: num(reviews['items']) ?? 0,
    reviews: records(reviews['jobs']).map((review) => ({
      jobId: str(review['job_id']) ?? '',
      name: str(review['name']),
      sourceProvider: str(review['source_provider']) ?? '',
      targetProvider: str(review['target_provider']) ?? '',
      items: num(review['items']) ?? 0,
    })),
  };
}

const JOB_STATUS_LABELS: Readonly<Record<string, string>> = {
  queued: 'Queued',
  running: 'Running',
  awaiting_review: 'Waiting for your review',
  paused: 'Paused',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function jobStatusLabel(status: string): string {
  return JOB_STATUS_LABELS[status] ?? status;
}

export function healthLabel(account: OverviewAccount): string {
  switch (account.health) {
    case 'reconnect':
      return 'Needs reconnecting';
    case 'not_read':
      return 'Connected; playlists not read yet';
    case 'ok':
      return `Connected; ${account.playlists ?? 0} ${account.playlists === 1 ? 'playlist' : 'playlists'}, ${account.tracksRead} read`;
  }
}

export function ruleAttentionLabel(rule: OverviewRule): string {
  if (rule.status === 'review_required') return 'Waiting for your review';
  if (rule.status === 'paused') return rule.pauseReason ? `Paused: ${rule.pauseReason}` : 'Paused';
  return `${rule.consecutiveFailures} failed ${rule.consecutiveFailures === 1 ? 'run' : 'runs'} in a row`;
}
