import { PluginError, type OperationName } from '@opl/plugin-sdk';
import type { OperationCallInput, OperationResult } from '@opl/plugin-sdk/schemas';
import type { MirrorPlan } from './mirror-plan.ts';

/**
 * The provider writes of one mirror plan (`planMirror`), shared by every caller that makes a
 * playlist follow an ordered list of songs: a mirror sync run, and a snapshot rewind ("this
 * playlist as it was at time T"). Removals, then the fewest single-entry moves (or, where the
 * target refuses moves before any has been made, the one full replacement), then the songs the
 * target lacks, each at its place.
 *
 * Every write goes through a ledger: a row `intended` before the call, settled `done` or `failed`
 * after it. A crash or a lost answer leaves an `intended` row; the caller's next pass reads the
 * target again and plans from what it finds, so nothing is replayed blindly and a write the
 * provider already applied is never made twice.
 */

export type MirrorStepKind = 'remove' | 'move' | 'replace' | 'add';

/** Where the ledger rows go: one implementation per caller (its own table), the same protocol. */
export interface MirrorStepLedger {
  call<T>(kind: MirrorStepKind, payload: Record<string, unknown>, work: () => Promise<T>): Promise<T>;
}

/** The ledger protocol over any pair of statements: `insert` returns the row's id, `settle` records the outcome. */
export class StatementStepLedger implements MirrorStepLedger {
  readonly #insert: (seq: number, kind: MirrorStepKind, payload: Record<string, unknown>) => Promise<string>;
  readonly #settle: (stepId: string, status: 'done' | 'failed', error: string | null) => Promise<void>;
  #seq = 0;

  constructor(insert: (seq: number, kind: MirrorStepKind, payload: Record<string, unknown>) => Promise<string>, settle: (stepId: string, status: 'done' | 'failed', error: string | null) => Promise<void>) {
    this.#insert = insert;
    this.#settle = settle;
  }

  async call<T>(kind: MirrorStepKind, payload: Record<string, unknown>, work: () => Promise<T>): Promise<T> {
    const stepId = await this.#insert(this.#seq++, kind, payload);
    try {
      const result = await work();
      await this.#settle(stepId, 'done', null);
      return result;
    } catch (error) {
      // Failed as far as the answer says; whether the provider applied it is settled by the next read.
      await this.#settle(stepId, 'failed', error instanceof Error ? error.message.slice(0, 1_000) : String(error));
      throw error;
    }
  }
}

/** A provider call on the target account. */
export type TargetCall = <N extends OperationName>(op: N, input: OperationCallInput<N>) => Promise<OperationResult<N>>;

export interface MirrorWriteContext {
  playlistId: string;
  /** The target's snapshot id as read (providers that version playlists check it on writes). */
  snapshotId: string | null;
  call: TargetCall;
  ledger: MirrorStepLedger;
  /** Called after each provider write (a lease renewal, a heartbeat). */
  held: () => void;
  /** Called once before the first removal or move (an automatic snapshot of the target). */
  beforeDestructive?: (plan: MirrorPlan) => Promise<void>;
  /** The caller's error for a write the provider did not (fully) apply; `retryable` false: no later pass can do better. */
  failure: (code: 'mirror_partial' | 'mirror_unaddressable', retryable: boolean, message: string) => Error;
}

export interface MirrorWriteResult {
  calls: number;
  replaced: boolean;
  added: string[];
  wrote: boolean;
}

/** Removals sent per `removeTracks` call. */
const REMOVE_BATCH = 100;

export async function applyMirrorPlan(plan: MirrorPlan, context: MirrorWriteContext): Promise<MirrorWriteResult> {
  const { call, ledger, held, playlistId } = context;
  let calls = 0;
  if (plan.removals.length + plan.moves.length > 0) await context.beforeDestructive?.(plan);
  let snapshot = context.snapshotId;
  for (let start = 0; start < plan.removals.length; start += REMOVE_BATCH) {
    const batch = plan.removals.slice(start, start + REMOVE_BATCH);
    const items = batch.flatMap((removal) => removal.positions.map((position, at) => ({ uri: removal.uri, target_item_id: removal.itemIds[at] ?? null, position })));
    const result = await ledger.call('remove', { uris: batch.map((removal) => removal.uri), snapshot_id: snapshot }, () => call('removeTracks', { playlist_id: playlistId, items, snapshot_id: snapshot }));
    calls++;
    held();
    const failed = result.results.filter((item) => !item.ok);
    if (failed.length > 0) throw context.failure('mirror_partial', true, `${failed.length} removals were not applied (${failed[0]!.error?.message ?? 'no reason given'}); the next pass reads the target again and continues.`);
    snapshot = result.snapshot_id ?? snapshot;
  }
  let moved = 0;
  for (const move of plan.moves) {
    try {
      const result = await ledger.call('move', { uri: move.uri, range_start: move.from, insert_before: move.insertBefore, snapshot_id: snapshot }, () =>
        call('moveTracks', { playlist_id: playlistId, range_start: move.from, range_length: 1, insert_before: move.insertBefore, snapshot_id: snapshot, item_id: move.entryIds?.item ?? null, before_item_id: move.entryIds?.before ?? null, item_uri: move.entryIds ? move.uri : null }),
      );
      snapshot = result.snapshot_id ?? snapshot;
      calls++;
      moved++;
      held();
    } catch (error) {
      // A target that cannot move entries gets the one full replacement — before any move only.
      if (!(error instanceof PluginError && error.type === 'Unsupported') || moved > 0) throw error;
      if (plan.finalUris.some((uri) => uri.startsWith('unaddressable:'))) throw context.failure('mirror_unaddressable', false, 'The target holds entries without a song URI (local files), so its order can only be changed by moving entries, which this provider cannot do.');
      // The replacement is the whole result, the songs added back included.
      await ledger.call('replace', { count: plan.finalUris.length, readded: plan.adds.length }, () => call('replacePlaylistTracks', { playlist_id: playlistId, uris: plan.finalUris }));
      return { calls: calls + 1, replaced: true, added: plan.adds.map((add) => add.uri), wrote: true };
    }
  }
  if (plan.adds.length > 0) {
    // One ledgered call: a crash after the provider applied it leaves the songs on the target,
    // where the next pass's read finds them (present songs are never added again).
    const items = plan.adds.map((add) => ({ uri: add.uri, position: add.position }));
    const result = await ledger.call('add', { uris: items.map((item) => item.uri), positions: items.map((item) => item.position) }, () => call('addTracks', { playlist_id: playlistId, items }));
    calls++;
    held();
    const failed = result.results.filter((item) => !item.ok);
    if (failed.length > 0) throw context.failure('mirror_partial', true, `${failed.length} songs were not added back (${failed[0]!.error?.message ?? 'no reason given'}); the next pass reads the target again and continues.`);
  }
  return { calls, replaced: false, added: plan.adds.map((add) => add.uri), wrote: calls > 0 };
}
