import type { OperationName, Playlist, Track } from '@opl/plugin-sdk';
import type { OperationCallInput, OperationResult } from '@opl/plugin-sdk/schemas';
import type { Logger } from '../../logging/logger.ts';
import type { SqlExecute } from '../../storage/sql/executors.ts';
import { planMirror, type MirrorPlan, type TargetEntry } from './mirror-plan.ts';
import { applyMirrorPlan, StatementStepLedger, type MirrorStepLedger, type MirrorWriteResult } from './mirror-writes.ts';
import { insertMirrorStep, selectRuleMatches, settleMirrorStep } from './mirror.sql.ts';
import { RunEnd } from './run-end.ts';
import { readCollapsed, songKey } from './source-state.ts';
import type { RuleRow } from './sync-views.ts';

/**
 * The mirror half of a run: after the add step (the run's ordinary migration job) it makes the
 * target's own entries follow the source — removals of what the source dropped, then a few moves —
 * and verifies the result by reading the target again.
 *
 * The matches are the migration machinery's: the items of the rule's origin migration and of every
 * run's job say which target song each source entry became (written, or skipped because the target
 * had it). What the rule *owns* (may remove or move) is the songs those jobs wrote, kept in the
 * checkpoint (`target_state.owned`) and trimmed to what is still there after each mirror.
 *
 * Every provider write gets a ledger row (`sync_mirror_step`) before the call and is settled after
 * it. A failure in the middle leaves the rows and the target as they are and the run failed with a
 * retry: the next run reads the target again and plans from what it finds, so it converges without
 * replaying anything blindly.
 */

type Call = <N extends OperationName>(ownerId: string, accountId: string, op: N, input: OperationCallInput<N>) => Promise<OperationResult<N>>;

/**
 * Called right before a mirror run's first destructive provider write (e.g. to take a snapshot).
 * `target` is the target playlist as the plan read it, in full, with nothing written since: a
 * snapshot keeps it instead of reading the target once more.
 */
export type BeforeDestructiveMirrorStep = (context: { ownerId: string; ruleId: string; runId: string; accountId: string; playlistId: string; target: Playlist; removals: number; moves: number }) => Promise<void>;

export interface MirrorReconcilerOptions {
  execute: SqlExecute;
  connections: { call: Call };
  playlists: { read(ownerId: string, accountId: string, playlistId: string, refresh?: boolean): Promise<{ playlist: Playlist }> };
  /** The hook point for an automatic snapshot of the target before mirror writes; none by default. */
  beforeDestructiveMirrorStep?: BeforeDestructiveMirrorStep;
  logger: Logger;
}

/** Titles listed in a preview or a waiting run, per list. */
const LISTED = 50;

export interface MirrorState {
  plan: MirrorPlan;
  /** Songs the rule owns, as of the target just read. */
  owned: Set<string>;
  desired: string[];
  /** Source entries with no match (not found, or waiting for review): they never cause a removal. */
  unmatched: Track[];
  /** Source entries no migration has seen yet (the next run's add step matches and adds them). */
  unseen: Track[];
  target: Playlist;
  titles: Map<string, string>;
  /** A label for each desired song, from its source entry (the target may not have it). */
  sourceTitles: Map<string, string>;
  reads: number;
  /** The source entries the state was computed from. */
  source: readonly Track[];
}

export interface MirrorOutcome {
  kind: 'done' | 'approval';
  owned: string[];
  stats: Record<string, unknown>;
}

const textKey = (track: { artist?: string; title?: string }) => `${(track.artist ?? '').toLowerCase()}\u0000${(track.title ?? '').toLowerCase()}`;
const label = (track: Track) => `${track.artist} – ${track.title}`;

export class MirrorReconciler {
  readonly #o: MirrorReconcilerOptions;

  constructor(options: MirrorReconcilerOptions) {
    this.#o = options;
  }

  /** Reads source and target and computes what a mirror would do now (no writes). */
  async state(rule: RuleRow, ownedBefore: readonly string[] | null, sourceTracks: readonly Track[] | null, checkpointCount: number | null = null): Promise<MirrorState> {
    let reads = 0;
    let source = sourceTracks;
    if (!source) {
      source = (await this.#o.playlists.read(rule.ownerId, rule.sourceAccountId, rule.sourcePlaylistId, true)).playlist.tracks;
      reads++;
      // The read-collapse guard of the run's first read, for a source read here (after an approval or a retry).
      if (checkpointCount !== null && readCollapsed(checkpointCount, source.length)) {
        throw new RunEnd({ kind: 'retry', code: 'read_collapse', at: null }, `The source read returned ${source.length} entries where the last checkpoint had ${checkpointCount}; taken as a failed read, not as removals. Nothing was changed; the next run reads again.`);
      }
    }
    const rows = await this.#o.execute(selectRuleMatches(rule.ownerId, rule.originJobId, rule.id, rule.sourcePlaylistId));
    const matchOf = new Map<string, string | null>();
    const textsOfUri = new Map<string, Set<string>>();
    const written = new Set<string>();
    for (const row of rows) {
      const metadata = row['source_metadata'] as Track | null;
      if (!metadata) continue;
      const uri = (row['target_uri'] as string | null) ?? null;
      const status = String(row['status']);
      const usable = uri !== null && (status === 'written' || status === 'skipped' || status === 'matched');
      // A later job's answer replaces an earlier one; a later miss does not erase an earlier match.
      if (usable || !matchOf.has(songKey(metadata, rule.sourceProvider))) matchOf.set(songKey(metadata, rule.sourceProvider), usable ? uri : null);
      if (uri) textsOfUri.set(uri, (textsOfUri.get(uri) ?? new Set()).add(textKey(metadata)));
      if (uri && status === 'written') written.add(uri);
    }
    const desired: string[] = [];
    const seen = new Set<string>();
    const unmatched: Track[] = [];
    const unseen: Track[] = [];
    const sourceTitles = new Map<string, string>();
    for (const track of source) {
      if (track.is_migratable === false) continue;
      const key = songKey(track, rule.sourceProvider);
      if (!matchOf.has(key)) unseen.push(track);
      const uri = matchOf.get(key) ?? null;
      if (uri === null) {
        if (matchOf.has(key)) unmatched.push(track);
        continue;
      }
      if (!seen.has(uri)) {
        desired.push(uri);
        sourceTitles.set(uri, label(track));
      }
      seen.add(uri);
    }
    const { playlist: target } = await this.#o.playlists.read(rule.ownerId, rule.targetAccountId, rule.targetPlaylistId, true);
    reads++;
    const entries: TargetEntry[] = target.tracks.map((track, index) => ({ uri: track.provider_uris[rule.targetProvider] ?? `unaddressable:${index}`, itemId: track.source_item_id }));
    const present = new Set(entries.map((entry) => entry.uri));
    // The origin migration and the runs' jobs wrote these; trimmed to what the target still has.
    const owned = new Set([...(ownedBefore ?? written)].filter((uri) => present.has(uri)));
    const unmatchedTexts = new Set([...unmatched, ...unseen].map(textKey));
    const protectedUris = new Set([...owned].filter((uri) => [...(textsOfUri.get(uri) ?? [])].some((text) => unmatchedTexts.has(text))));
    const plan = planMirror({ target: entries, desired, owned, protectedUris, removesForeign: rule.mirrorRemovesForeign });
    const titles = new Map(target.tracks.map((track, index) => [entries[index]!.uri, label(track)]));
    return { plan, owned, desired, unmatched, unseen, target, titles, sourceTitles, reads, source };
  }

  /**
   * What a preview shows: the next run's additions (new source entries, and matched songs the
   * target lost, which mirror adds back), removals and moves, and what stays untouched.
   */
  describe(rule: RuleRow, state: MirrorState) {
    const { plan, titles } = state;
    const named = (uri: string) => ({ uri, title: titles.get(uri) ?? uri });
    const added = [...state.unseen.map(label), ...plan.adds.map((add) => state.sourceTitles.get(add.uri) ?? add.uri)];
    return {
      add: added.slice(0, LISTED).map((title) => ({ title })),
      add_count: added.length,
      remove: plan.removals.slice(0, LISTED).map((removal) => named(removal.uri)),
      remove_count: plan.removals.length,
      move: plan.moves.slice(0, LISTED).map((move) => ({ ...named(move.uri), from: move.from, to: move.insertBefore > move.from ? move.insertBefore - 1 : move.insertBefore })),
      move_count: plan.moves.length,
      unmatched: state.unmatched.slice(0, LISTED).map((track) => ({ title: label(track) })),
      unmatched_count: state.unmatched.length,
      kept_shared: plan.keptShared.slice(0, LISTED).map(named),
      kept_unmatched: plan.keptUnmatched.slice(0, LISTED).map(named),
      foreign_entries: plan.foreign,
      removal_cap: rule.mirrorMaxRemovals,
      needs_approval: plan.removals.length > rule.mirrorMaxRemovals,
    };
  }

  /**
   * One mirror pass for a run: plan, wait for approval when it would remove more than the rule's
   * cap (and more than the owner approved), else remove, move (or replace where the target cannot
   * move), and verify.
   */
  async reconcile(rule: RuleRow, runId: string, ownedBefore: readonly string[] | null, approvedRemovals: number, sourceTracks: readonly Track[] | null, held: () => void, checkpointCount: number | null = null): Promise<MirrorOutcome> {
    const state = await this.state(rule, ownedBefore, sourceTracks, checkpointCount);
    held();
    const { plan } = state;
    const report = { kept_shared: plan.keptShared.length, kept_unmatched: plan.keptUnmatched.length, unmatched: state.unmatched.length, foreign_entries: plan.foreign };
    if (plan.removals.length > rule.mirrorMaxRemovals && plan.removals.length > approvedRemovals) {
      return { kind: 'approval', owned: [...state.owned], stats: { mirror: 'awaiting_approval', planned_removals: plan.removals.length, planned_moves: plan.moves.length, removal_cap: rule.mirrorMaxRemovals, preview: this.describe(rule, state), ...report } };
    }
    const steps = mirrorRunLedger(this.#o.execute, rule, runId);
    const applied = await this.#apply(rule, runId, state, steps, held);
    let { calls } = applied;
    // Verification: the target read again must need nothing more. A target that put the re-added
    // songs at its end instead of their place gets one more pass of moves.
    let after = applied.wrote ? await this.state(rule, [...state.owned, ...applied.added], state.source) : state;
    let reads = state.reads + (after === state ? 0 : after.reads);
    if (applied.added.length > 0 && after.plan.removals.length === 0 && after.plan.adds.length === 0 && after.plan.moves.length > 0) {
      const placed = await this.#apply(rule, runId, after, steps, held);
      calls += placed.calls;
      after = await this.state(rule, [...after.owned], state.source);
      reads += after.reads;
    }
    const left = after.plan.removals.length + after.plan.moves.length + after.plan.adds.length;
    if (left > 0) throw new RunEnd({ kind: 'retry', code: 'mirror_unverified', at: null }, `After the mirror writes the target still differs from the source (${after.plan.removals.length} removals, ${after.plan.moves.length} moves, ${after.plan.adds.length} additions left); the next run reads it again and continues.`);
    return {
      kind: 'done',
      owned: [...after.owned],
      stats: { mirror: 'done', removed: plan.removals.length, moved: applied.replaced ? 0 : plan.moves.length, readded: applied.added.length, replaced: applied.replaced, mirror_calls: calls, mirror_reads: reads, ...report },
    };
  }

  /**
   * The writes of one plan (the shared mirror writer), ledgered in `sync_mirror_step` and ended as
   * a run ends: a partial write is retried by the next run, an unaddressable target fails the run.
   */
  #apply(rule: RuleRow, runId: string, state: MirrorState, steps: MirrorStepLedger, held: () => void): Promise<MirrorWriteResult> {
    const { plan } = state;
    return applyMirrorPlan(plan, {
      playlistId: rule.targetPlaylistId,
      snapshotId: state.target.snapshot_id,
      call: (op, input) => this.#call(rule, op, input),
      ledger: steps,
      held,
      beforeDestructive: async () => this.#o.beforeDestructiveMirrorStep?.({ ownerId: rule.ownerId, ruleId: rule.id, runId, accountId: rule.targetAccountId, playlistId: rule.targetPlaylistId, target: state.target, removals: plan.removals.length, moves: plan.moves.length }),
      failure: (code, retryable, message) => new RunEnd(retryable ? { kind: 'retry', code, at: null } : { kind: 'fail', code }, message),
    });
  }

  #call<N extends OperationName>(rule: RuleRow, op: N, input: OperationCallInput<N>): Promise<OperationResult<N>> {
    return this.#o.connections.call(rule.ownerId, rule.targetAccountId, op, input);
  }
}

/** The mirror run's ledger: `sync_mirror_step` rows of the rule and run. */
function mirrorRunLedger(execute: SqlExecute, rule: RuleRow, runId: string): MirrorStepLedger {
  return new StatementStepLedger(
    async (seq, kind, payload) => String((await execute(insertMirrorStep({ ownerId: rule.ownerId, ruleId: rule.id, runId, seq, kind, payload })))[0]!['id']),
    async (stepId, status, error) => {
      await execute(settleMirrorStep(stepId, status, error));
    },
  );
}
