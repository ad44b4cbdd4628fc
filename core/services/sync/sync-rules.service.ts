import type { Manifest, Track } from '@opl/plugin-sdk';
import { z } from 'zod';
import { providerView } from '../../plugins/provider-view.ts';
import type { SqlExecute, SqlTransaction } from '../../storage/sql/executors.ts';
import type { MigrationService } from '../migrations/index.ts';
import { selectItemsOfCollection } from '../migrations/migration-jobs.sql.ts';
import { PLAYLIST_SNAPSHOTS_KEY } from '../migrations/playlist-snapshot.ts';
import { LIKED_PLAYLIST_ID } from '../playlists/playlist-read.service.ts';
import { detailExpired } from '../migrations/migration-views.ts';
import { SyncError } from './sync-errors.ts';
import { cycleThrough, type SyncEdge } from './sync-graph.ts';
import { firstSlot, scheduleSchema, type Schedule } from './sync-schedule.ts';
import { sourceState } from './source-state.ts';
import {
  deleteRule,
  insertRule,
  insertRun,
  lockOwnerRules,
  pauseRule,
  resumeRule,
  selectActiveRun,
  selectCheckpoint,
  setRuleStatus,
  selectRule,
  selectRules,
  selectRun,
  selectRuns,
  endRun,
  updateRuleSettings,
  upsertCheckpoint,
} from './sync.sql.ts';
import { approveRun } from './mirror.sql.ts';
import type { MirrorReconciler } from './mirror-reconciler.ts';
import { ruleRow, ruleView, runView, type RuleRow, type RuleView, type RunView } from './sync-views.ts';

/**
 * The API side of sync: rules made from a finished migration, their settings, pause and resume,
 * "run now", and the run history. The scheduler and the runs themselves are `SyncScheduler` and
 * `SyncRunner`.
 */

const mirrorSettingsSchema = z
  .object({
    max_removals: z.number().int().min(0).max(10_000).optional().describe('A mirror run that would remove more entries than this waits for your approval (default 20)'),
    removes_foreign: z.boolean().optional().describe('Also remove and order entries the rule did not write (your own additions on the target). Default false'),
  })
  .strict()
  .meta({ id: 'SyncMirrorSettings' });

export const createRuleSchema = z
  .object({
    migration_job_id: z.uuid().describe('A completed migration of one whole playlist (or the liked songs) from a connected account'),
    mode: z.enum(['add_only', 'mirror']).default('add_only'),
    schedule: scheduleSchema,
    mirror: mirrorSettingsSchema.optional(),
  })
  .strict()
  .meta({ id: 'CreateSyncRule' });

export const updateRuleSchema = z
  .object({ mode: z.enum(['add_only', 'mirror']).optional(), schedule: scheduleSchema.optional(), mirror: mirrorSettingsSchema.optional() })
  .strict()
  .refine((body) => body.mode !== undefined || body.schedule !== undefined || body.mirror !== undefined, 'say what to change: mode, schedule and/or mirror settings')
  .meta({ id: 'UpdateSyncRule' });

export type CreateRule = z.output<typeof createRuleSchema>;
export type UpdateRule = z.output<typeof updateRuleSchema>;

export interface SyncRulesOptions {
  execute: SqlExecute;
  transaction: SqlTransaction;
  migrations: Pick<MigrationService, 'job' | 'resume'>;
  catalogue: { providerPlugin(provider: string): Manifest | undefined };
  /** Mirror previews (reads source and target, writes nothing). */
  mirror: Pick<MirrorReconciler, 'state' | 'describe'>;
  /** Queues the run (the `sync.run` job). */
  enqueueRun(runId: string): Promise<void>;
  clock: () => Date;
}

/** Removals a mirror run may make without asking, unless the rule says otherwise. */
export const DEFAULT_MAX_REMOVALS = 20;

function scheduleColumns(schedule: Schedule) {
  return schedule.kind === 'interval'
    ? { scheduleKind: 'interval' as const, intervalMinutes: schedule.every_minutes, dailyAt: null, timeZone: null }
    : { scheduleKind: 'daily' as const, intervalMinutes: null, dailyAt: schedule.at, timeZone: schedule.time_zone };
}

export class SyncRulesService {
  readonly #o: SyncRulesOptions;

  constructor(options: SyncRulesOptions) {
    this.#o = options;
  }

  /** Why mirror cannot keep this target, or null when it can. */
  mirrorRefusal(targetProvider: string, collectionKind: 'PLAYLIST' | 'LIKED_TRACKS'): string | null {
    if (collectionKind === 'LIKED_TRACKS') return 'Saved and liked collections stay add-only: mirror never removes songs from a library.';
    const manifest = this.#o.catalogue.providerPlugin(targetProvider);
    const view = manifest ? providerView(manifest, true) : null;
    if (!view) return `No ${targetProvider} plugin is loaded on this instance.`;
    if (!view.can_mirror) return view.mirror_unavailable_reason;
    if (!view.capabilities.includes('REORDER')) return `${view.display_name} cannot reorder a playlist, so mirror cannot keep the source's order. Use add-only.`;
    return null;
  }

  async create(ownerId: string, request: CreateRule): Promise<RuleView> {
    const job = await this.#o.migrations.job(ownerId, request.migration_job_id);
    if (job.status !== 'completed' || job.outcome === 'failed') throw new SyncError('invalid_origin', `Migration ${job.id} is ${job.status === 'completed' ? 'failed' : job.status}; a sync rule starts from a completed migration.`);
    if (job.sourceKind !== 'provider') throw new SyncError('invalid_origin', 'A sync rule needs a connected source account to read again; this migration came from an import or a draft.');
    const request_ = job.selection['request'] as { playlist_ids?: string[]; tracks?: Record<string, unknown>; saved_album_ids?: string[]; followed_artist_ids?: string[] } | undefined;
    const collections = (job.selection['collections'] as { id: string; kind: string; name: string; target_playlist_id?: string | null }[] | undefined) ?? [];
    const whole = request_ && (request_.playlist_ids?.length ?? 0) === 1 && Object.keys(request_.tracks ?? {}).length === 0 && (request_.saved_album_ids?.length ?? 0) === 0 && (request_.followed_artist_ids?.length ?? 0) === 0;
    if (!whole || collections.length !== 1) throw new SyncError('invalid_origin', 'A sync rule starts from a migration of exactly one whole playlist (no track selection, albums or artists).');
    const collection = collections[0]!;
    const collectionKind = collection.kind === 'LIKED_TRACKS' || collection.id === LIKED_PLAYLIST_ID ? 'LIKED_TRACKS' : 'PLAYLIST';
    const targetPlaylistId = collectionKind === 'LIKED_TRACKS' ? LIKED_PLAYLIST_ID : (collection.target_playlist_id ?? null);
    if (!targetPlaylistId) throw new SyncError('invalid_origin', `Migration ${job.id} wrote no target playlist to keep in sync.`);
    if (request.mode === 'mirror') this.#refuseMirror(job.targetProvider, collectionKind);

    const now = this.#o.clock();
    const checkpoint = detailExpired(job) ? null : await this.#initialState(job.id, collection.id, job.sourceProvider, job.selection);
    const edge = { source: { accountId: job.sourceAccountId, playlistId: collection.id }, target: { accountId: job.targetAccountId, playlistId: targetPlaylistId } };
    const row = await this.#o.transaction(async (execute) => {
      await execute(lockOwnerRules(ownerId));
      const existing = (await execute(selectRules(ownerId))).map(ruleRow);
      this.#refuseLoops(existing, edge, null);
      const [inserted] = await execute(
        insertRule({
          ownerId,
          originJobId: job.id,
          name: collection.name,
          collectionKind,
          sourceProvider: job.sourceProvider,
          sourceAccountId: job.sourceAccountId,
          sourcePlaylistId: collection.id,
          targetProvider: job.targetProvider,
          targetAccountId: job.targetAccountId,
          targetPlaylistId,
          mode: request.mode,
          mirrorMaxRemovals: request.mirror?.max_removals ?? DEFAULT_MAX_REMOVALS,
          mirrorRemovesForeign: request.mirror?.removes_foreign ?? false,
          ...scheduleColumns(request.schedule),
          nextRunAt: firstSlot(request.schedule, now),
        }),
      );
      // The migration is the first checkpoint: the first run adds what the source gained since.
      if (checkpoint) await execute(upsertCheckpoint(ownerId, String(inserted!['id']), null, checkpoint, { playlist_id: targetPlaylistId, from_migration: job.id }, now));
      return inserted!;
    });
    return ruleView(ruleRow(row), null);
  }

  /** The source as the origin migration read it: its entries (the job's items) and snapshot id. */
  async #initialState(jobId: string, collectionId: string, sourceProvider: string, selection: Record<string, unknown>) {
    const rows = await this.#o.execute(selectItemsOfCollection(jobId, 'track', collectionId));
    const snapshot = (selection[PLAYLIST_SNAPSHOTS_KEY] as Record<string, { snapshot_id?: string | null }> | undefined)?.[collectionId];
    const tracks = rows.map((row) => row['source_metadata'] as Track);
    return sourceState(tracks, sourceProvider, snapshot?.snapshot_id ?? null);
  }

  #refuseMirror(targetProvider: string, collectionKind: 'PLAYLIST' | 'LIKED_TRACKS'): void {
    const refusal = this.mirrorRefusal(targetProvider, collectionKind);
    if (refusal) throw new SyncError('mirror_unavailable', refusal, { reason: refusal });
  }

  /** Refuses a rule that repeats another or closes a loop through the owner's other rules. */
  #refuseLoops(existing: readonly RuleRow[], edge: Omit<SyncEdge, 'ruleId'>, exceptRuleId: string | null): void {
    const edges: SyncEdge[] = existing
      .filter((rule) => rule.id !== exceptRuleId)
      .map((rule) => ({ ruleId: rule.id, source: { accountId: rule.sourceAccountId, playlistId: rule.sourcePlaylistId }, target: { accountId: rule.targetAccountId, playlistId: rule.targetPlaylistId } }));
    const twin = edges.find((other) => other.source.accountId === edge.source.accountId && other.source.playlistId === edge.source.playlistId && other.target.accountId === edge.target.accountId && other.target.playlistId === edge.target.playlistId);
    if (twin) throw new SyncError('sync_rule_duplicate', `Rule ${twin.ruleId} already keeps this target in sync with this source.`, { rule_id: twin.ruleId });
    const cycle = cycleThrough(edges, edge);
    if (cycle) {
      const inverse = cycle.length === 1;
      throw new SyncError(
        'sync_rule_cycle',
        inverse
          ? `Rule ${cycle[0]!.ruleId} already syncs the other way (target → source). An inverse rule would copy each side's changes back for ever; keep one direction.`
          : `This rule would close a loop through ${cycle.length} other rules (${cycle.map((step) => step.ruleId).join(' → ')}): changes would travel round for ever. Remove one of them or pick another target.`,
        { rule_ids: cycle.map((step) => step.ruleId), inverse },
      );
    }
  }

  async list(ownerId: string): Promise<RuleView[]> {
    const rules = (await this.#o.execute(selectRules(ownerId))).map(ruleRow);
    return Promise.all(rules.map(async (rule) => ruleView(rule, await this.#activeRun(rule.id))));
  }

  async get(ownerId: string, ruleId: string): Promise<RuleView> {
    const rule = await this.#rule(ownerId, ruleId);
    return ruleView(rule, await this.#activeRun(rule.id));
  }

  async #rule(ownerId: string, ruleId: string): Promise<RuleRow> {
    const [row] = await this.#o.execute(selectRule(ownerId, ruleId));
    if (!row) throw new SyncError('not_found', `No sync rule ${ruleId}.`);
    return ruleRow(row);
  }

  async #activeRun(ruleId: string): Promise<RunView | null> {
    const [row] = await this.#o.execute(selectActiveRun(ruleId));
    return row ? runView(row) : null;
  }

  async update(ownerId: string, ruleId: string, changes: UpdateRule): Promise<RuleView> {
    const rule = await this.#rule(ownerId, ruleId);
    const mode = changes.mode ?? rule.mode;
    if (mode === 'mirror' && rule.mode !== 'mirror') this.#refuseMirror(rule.targetProvider, rule.collectionKind);
    const schedule = changes.schedule ?? rule.schedule;
    const nextRunAt = changes.schedule ? firstSlot(schedule, this.#o.clock()) : new Date(rule.nextRunAt ?? this.#o.clock());
    const mirrorMaxRemovals = changes.mirror?.max_removals ?? rule.mirrorMaxRemovals;
    const mirrorRemovesForeign = changes.mirror?.removes_foreign ?? rule.mirrorRemovesForeign;
    const [row] = await this.#o.execute(updateRuleSettings(ownerId, ruleId, { mode, mirrorMaxRemovals, mirrorRemovesForeign, ...scheduleColumns(schedule), nextRunAt }));
    if (!row) throw new SyncError('not_found', `No sync rule ${ruleId}.`);
    return ruleView(ruleRow(row), await this.#activeRun(ruleId));
  }

  /** Stops scheduling; a queued run that has not started is cancelled (a running one finishes). */
  async pause(ownerId: string, ruleId: string): Promise<RuleView> {
    const rule = await this.#rule(ownerId, ruleId);
    if (rule.status === 'paused') throw new SyncError('sync_state_conflict', `Rule ${ruleId} is paused already.`);
    await this.#o.execute(pauseRule(rule.id, 'user', 'Paused by you.'));
    const active = await this.#activeRun(rule.id);
    // A run waiting for approval ends too: the next run plans again from what it reads then.
    if (active?.status === 'queued' || active?.status === 'approval_required') await this.#o.execute(endRun(active.id, null, { status: 'cancelled', errorCode: 'rule_paused', error: 'The rule was paused before this run started.', stats: undefined }, this.#o.clock()));
    return this.get(ownerId, ruleId);
  }

  /**
   * Schedules a paused rule again: it runs at the next evaluation (catching up what it missed).
   * A run whose migration paused for a reconnect continues instead.
   */
  async resume(ownerId: string, ruleId: string): Promise<RuleView> {
    const rule = await this.#rule(ownerId, ruleId);
    if (rule.status !== 'paused') throw new SyncError('sync_state_conflict', `Rule ${ruleId} is ${rule.status}; only a paused rule can be resumed.`);
    await this.#o.execute(resumeRule(ownerId, ruleId, this.#o.clock()));
    const active = await this.#activeRun(rule.id);
    if (active?.migration_job_id) {
      const job = await this.#o.migrations.job(ownerId, active.migration_job_id);
      if (job.status === 'paused') await this.#o.migrations.resume(ownerId, job.id);
    }
    return this.get(ownerId, ruleId);
  }

  async delete(ownerId: string, ruleId: string): Promise<void> {
    const rows = await this.#o.execute(deleteRule(ownerId, ruleId));
    if (rows.length === 0) throw new SyncError('not_found', `No sync rule ${ruleId}.`);
  }

  /** A run now, beside the schedule; refused while one is queued, running or waiting for review. */
  async runNow(ownerId: string, ruleId: string): Promise<RunView> {
    const rule = await this.#rule(ownerId, ruleId);
    if (rule.status !== 'active') throw new SyncError('sync_state_conflict', rule.status === 'paused' ? `Rule ${ruleId} is paused (${rule.pauseReason ?? 'by you'}); resume it first.` : rule.status === 'approval_required' ? `Rule ${ruleId} waits for your approval of its last run's removals; approve it or pause the rule.` : `Rule ${ruleId} waits for the review of its last run; finish that review first.`);
    const [row] = await this.#o.execute(insertRun(rule.id, ownerId, this.#o.clock(), 'manual'));
    if (!row) throw new SyncError('sync_state_conflict', `Rule ${ruleId} has a run queued or running already.`);
    const run = runView(row);
    await this.#o.enqueueRun(run.id);
    return run;
  }

  /**
   * Lets a mirror run that waits for approval go on: it may remove up to the number it showed
   * (`planned_removals`); if the target changed meanwhile and it would remove more, it waits again.
   */
  async approve(ownerId: string, ruleId: string, runId: string): Promise<RunView> {
    const rule = await this.#rule(ownerId, ruleId);
    const current = await this.run(ownerId, ruleId, runId);
    if (current.status !== 'approval_required') throw new SyncError('sync_state_conflict', `Run ${runId} is ${current.status}; only a run waiting for approval can be approved.`);
    const removals = Number(current.stats['planned_removals'] ?? 0);
    const [row] = await this.#o.execute(approveRun(ownerId, rule.id, runId, removals));
    if (!row) throw new SyncError('sync_state_conflict', `Run ${runId} is no longer waiting for approval.`);
    await this.#o.execute(setRuleStatus(rule.id, 'active', ['approval_required']));
    await this.#o.enqueueRun(runId);
    return runView(row);
  }

  /**
   * What a mirror run would do now, for any rule (so the owner sees it before choosing mirror):
   * additions, removals and moves, and what it leaves alone. Reads both playlists; writes nothing.
   */
  async preview(ownerId: string, ruleId: string) {
    const rule = await this.#rule(ownerId, ruleId);
    const refusal = this.mirrorRefusal(rule.targetProvider, rule.collectionKind);
    const [checkpoint] = await this.#o.execute(selectCheckpoint(rule.id));
    const owned = ((checkpoint?.['target_state'] as { owned?: string[] } | undefined)?.owned ?? null);
    const state = await this.#o.mirror.state(rule, owned, null);
    return { rule_id: rule.id, mode: rule.mode, can_mirror: refusal === null, mirror_unavailable_reason: refusal, ...this.#o.mirror.describe(rule, state) };
  }

  async runs(ownerId: string, ruleId: string, limit: number, offset: number): Promise<RunView[]> {
    await this.#rule(ownerId, ruleId);
    return (await this.#o.execute(selectRuns(ownerId, ruleId, limit, offset))).map(runView);
  }

  async run(ownerId: string, ruleId: string, runId: string): Promise<RunView> {
    const [row] = await this.#o.execute(selectRun(ownerId, runId));
    if (!row || String(row['rule_id']) !== ruleId) throw new SyncError('not_found', `Rule ${ruleId} has no run ${runId}.`);
    return runView(row);
  }
}
