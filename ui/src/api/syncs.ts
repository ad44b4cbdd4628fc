/**
 * The sync endpoints (`/api/syncs`): rules that keep a migrated playlist up to date, their runs.
 * Parsed into camelCase with the words the pages use. Pure: no I/O.
 */

export const SYNCS_PATH = '/api/syncs';
/** Rule and run changes as server-sent events (`rule`, `run`). */
export const SYNC_EVENTS_PATH = `${SYNCS_PATH}/events`;
/** History's "Keep in sync" hands the chosen migration to the Sync page under this key. */
export const KEEP_IN_SYNC_KEY = 'opl.sync.migration-id';

export function syncPath(ruleId: string, action: '' | 'pause' | 'resume' | 'run' | 'preview' = ''): string {
  return `${SYNCS_PATH}/${encodeURIComponent(ruleId)}${action ? `/${action}` : ''}`;
}

/** Lets a mirror run over its removal cap go on. */
export function approvePath(ruleId: string, runId: string): string {
  return `${syncPath(ruleId)}/runs/${encodeURIComponent(runId)}/approve`;
}

export type Schedule = { readonly kind: 'interval'; readonly everyMinutes: number } | { readonly kind: 'daily'; readonly at: string; readonly timeZone: string };

export interface SyncRule {
  readonly id: string;
  readonly name: string;
  readonly sourceProvider: string;
  readonly targetProvider: string;
  readonly targetAccountId: string;
  readonly sourceAccountId: string;
  readonly sourcePlaylistId: string;
  readonly collectionKind: 'PLAYLIST' | 'LIKED_TRACKS';
  readonly mode: 'add_only' | 'mirror';
  readonly status: 'active' | 'paused' | 'review_required' | 'approval_required';
  readonly pauseReason: string | null;
  readonly action: { readonly type: 'reconnect' | 'resume'; readonly accountId: string | null } | { readonly type: 'approve'; readonly runId: string } | null;
  readonly schedule: Schedule;
  readonly nextRunAt: string | null;
  readonly lastRunAt: string | null;
  readonly activeRun: { readonly id: string; readonly status: string; readonly migrationJobId: string | null } | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function parseSchedule(value: unknown): Schedule | undefined {
  if (!isRecord(value)) return undefined;
  if (value['kind'] === 'interval' && typeof value['every_minutes'] === 'number') return { kind: 'interval', everyMinutes: value['every_minutes'] };
  if (value['kind'] === 'daily' && typeof value['at'] === 'string' && typeof value['time_zone'] === 'string') return { kind: 'daily', at: value['at'], timeZone: value['time_zone'] };
  return undefined;
}

export function parseRule(value: unknown): SyncRule | undefined {
  if (!isRecord(value) || typeof value['id'] !== 'string' || !isRecord(value['source']) || !isRecord(value['target'])) return undefined;
  const schedule = parseSchedule(value['schedule']);
  const status = value['status'];
  if (!schedule || (status !== 'active' && status !== 'paused' && status !== 'review_required' && status !== 'approval_required')) return undefined;
  const actionType = isRecord(value['action']) ? value['action']['type'] : null;
  const approveRun = isRecord(value['action']) ? text(value['action']['run_id']) : null;
  const action: SyncRule['action'] =
    isRecord(value['action']) && (actionType === 'reconnect' || actionType === 'resume')
      ? { type: actionType, accountId: text(value['action']['account_id']) }
      : actionType === 'approve' && approveRun
        ? { type: 'approve', runId: approveRun }
        : null;
  const run = isRecord(value['active_run']) && typeof value['active_run']['id'] === 'string' ? { id: value['active_run']['id'], status: String(value['active_run']['status']), migrationJobId: text(value['active_run']['migration_job_id']) } : null;
  return {
    id: value['id'],
    name: text(value['name']) ?? '',
    sourceProvider: String(value['source']['provider']),
    sourceAccountId: String(value['source']['account_id']),
    sourcePlaylistId: String(value['source']['playlist_id']),
    collectionKind: value['collection_kind'] === 'LIKED_TRACKS' ? 'LIKED_TRACKS' : 'PLAYLIST',
    targetProvider: String(value['target']['provider']),
    targetAccountId: String(value['target']['account_id']),
    mode: value['mode'] === 'mirror' ? 'mirror' : 'add_only',
    status,
    pauseReason: text(value['pause_reason']),
    action,
    schedule,
    nextRunAt: text(value['next_run_at']),
    lastRunAt: text(value['last_run_at']),
    activeRun: run,
  };
}

export function parseRules(value: unknown): SyncRule[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const rules = value.map(parseRule);
  return rules.every((rule) => rule !== undefined) ? (rules) : undefined;
}

export function scheduleLabel(schedule: Schedule): string {
  if (schedule.kind === 'daily') return `Daily at ${schedule.at} (${schedule.timeZone})`;
  const minutes = schedule.everyMinutes;
  if (minutes % 1440 === 0) return minutes === 1440 ? 'Every day' : `Every ${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? 'Every hour' : `Every ${minutes / 60} hours`;
  return `Every ${minutes} minutes`;
}

export function ruleStateLabel(rule: SyncRule): string {
  if (rule.status === 'review_required') return 'Waiting for your review';
  if (rule.status === 'approval_required') return 'Waiting for your approval of removals';
  if (rule.status === 'paused') return `Paused: ${rule.pauseReason ?? 'by you'}`;
  if (rule.activeRun) return rule.activeRun.status === 'queued' ? 'Run queued' : 'Running';
  return 'Active';
}

/**
 * Whether a migration can start a rule: completed (not failed) and read from a connected account.
 * The engine checks the rest (one whole playlist, a target playlist written) and says why not.
 */
export function canStartRule(job: { readonly status: string; readonly outcome: string; readonly sourceKind: string }): boolean {
  return job.status === 'completed' && job.outcome !== 'failed' && job.sourceKind === 'provider';
}

/** What a mirror run of a rule would do now (`GET /api/syncs/{id}/preview`). */
export interface MirrorPreview {
  readonly canMirror: boolean;
  readonly reason: string | null;
  readonly add: readonly string[];
  readonly addCount: number;
  readonly remove: readonly string[];
  readonly removeCount: number;
  readonly moveCount: number;
  readonly unmatchedCount: number;
  readonly foreignEntries: number;
  readonly removalCap: number;
  readonly needsApproval: boolean;
}

const titles = (value: unknown): string[] => (Array.isArray(value) ? value.flatMap((item) => (isRecord(item) && typeof item['title'] === 'string' ? [item['title']] : [])) : []);
const count = (value: unknown): number => (typeof value === 'number' ? value : 0);

export function parseMirrorPreview(value: unknown): MirrorPreview | undefined {
  if (!isRecord(value) || typeof value['can_mirror'] !== 'boolean') return undefined;
  return {
    canMirror: value['can_mirror'],
    reason: text(value['mirror_unavailable_reason']),
    add: titles(value['add']),
    addCount: count(value['add_count']),
    remove: titles(value['remove']),
    removeCount: count(value['remove_count']),
    moveCount: count(value['move_count']),
    unmatchedCount: count(value['unmatched_count']),
    foreignEntries: count(value['foreign_entries']),
    removalCap: count(value['removal_cap']),
    needsApproval: value['needs_approval'] === true,
  };
}

/** The body of `POST /api/syncs`. */
export function createRuleRequest(migrationId: string, schedule: Schedule): Record<string, unknown> {
  return {
    migration_job_id: migrationId,
    mode: 'add_only',
    schedule: schedule.kind === 'interval' ? { kind: 'interval', every_minutes: schedule.everyMinutes } : { kind: 'daily', at: schedule.at, time_zone: schedule.timeZone },
  };
}
