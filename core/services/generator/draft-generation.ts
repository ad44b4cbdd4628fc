import { ModelError, type ChatModelClient } from './chat-model.client.ts';
import { generationMessages, songsToAsk, type GenerationSpec, type PreferenceSummary } from './generation-request.ts';
import { fitDuration, resolveIntent, type ResolutionTotals, type ResolvedIntent, type ResolveOptions } from './intent-resolver.ts';
import { abandonPendingItems, deleteDraftItems, refillSlot, selectCancelRequested, settleItem, updateGeneration } from './generation-run.sql.ts';
import { insertDraftItems, type NewDraftItem } from './generator.sql.ts';
import type { GraphTransaction, SqlExecutor } from '../matching/index.ts';
import type { TrackIntent } from './track-intents.ts';

/**
 * One generation of a draft, written to its rows as it goes so that the progress stream (derived
 * from the rows) shows it live: the model's proposals arrive as `pending` items, each becomes
 * resolved, unresolved or removed as it is searched, and the draft's `generation` record says
 * which phase runs and, at the end, what happened. Cancelling stops the model call or the
 * searches; the draft is left in a clear state either way:
 * - stopped before the model answered: the draft keeps what it had (or is `failed`, with
 *   `error.code = model_cancelled`, when it had nothing);
 * - stopped during the searches: the songs not searched yet stay as unresolved, "not searched".
 * The prompt lives in this call's memory only.
 */

export interface GenerationRun {
  ownerId: string;
  draftId: string;
  spec: GenerationSpec;
  preferences: PreferenceSummary | null;
  /** `all`: every item is replaced by new proposals; `open_slots`: only these items (unresolved or removed) get one each. */
  scope: { kind: 'all' } | { kind: 'open_slots'; slotIds: string[]; keep: { title: string; artist: string; uri: string | null }[] };
}

export interface GenerationDependencies {
  execute: SqlExecutor;
  transaction: GraphTransaction;
  model: ChatModelClient;
  demo: boolean;
  resolve: Omit<ResolveOptions, 'controls' | 'taken'>;
}

/** The outcome for a caller that waits: the error that ended it, if any (already recorded on the draft). */
export interface GenerationOutcome {
  error: Error | null;
  cancelled: boolean;
}

const CANCELLED_REASON = 'Not searched: you cancelled the generation.';

function rowOf(item: ResolvedIntent): NewDraftItem {
  return {
    status: item.status,
    approved: item.approved,
    targetUri: item.target?.uri ?? null,
    targetId: item.target?.id ?? null,
    title: item.target?.title ?? item.intent.title,
    artist: item.target?.artist ?? item.intent.artist,
    album: item.target?.album ?? item.intent.album,
    durationS: item.target?.durationS ?? null,
    isrc: item.target?.isrc ?? null,
    explicit: item.target?.explicit ?? null,
    confidence: item.confidence,
    reason: item.reason,
    intent: { ...item.intent },
    candidates: item.candidates,
  };
}

function pendingRow(intent: TrackIntent): NewDraftItem {
  return { status: 'pending', approved: false, targetUri: null, targetId: null, title: intent.title, artist: intent.artist, album: intent.album, durationS: null, isrc: null, explicit: null, confidence: null, reason: null, intent: { ...intent } };
}

/** A message fit for the draft's record and the UI: a model error says what happened, never what was said; anything else is generic. */
function errorRecord(error: unknown): { code: string; message: string; retry_after_s: number | null } {
  if (error instanceof ModelError) return { code: error.code, message: error.message, retry_after_s: error.retryAfterS };
  return { code: 'generation_failed', message: 'The generation stopped on an unexpected error; generate again.', retry_after_s: null };
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error('The generation stopped on an unexpected error.'));

export async function runGeneration(d: GenerationDependencies, run: GenerationRun, signal: AbortSignal): Promise<GenerationOutcome> {
  const { ownerId, draftId, spec } = run;
  const started = performance.now();
  const count = run.scope.kind === 'all' ? songsToAsk(spec.controls) : run.scope.slotIds.length;
  let itemIds: string[] = [];
  let proposedIntents: TrackIntent[] = [];
  let notes: unknown[] = [];
  let mode = '';
  let repaired = false;
  let modelMs = 0;
  try {
    const avoid = run.scope.kind === 'open_slots' ? run.scope.keep : [];
    const proposed = await d.model.proposeIntents(generationMessages(spec, run.preferences, { count, avoid }), count, signal);
    modelMs = performance.now() - started;
    if (signal.aborted) throw new ModelError('model_cancelled', 'The generation was cancelled.');
    proposedIntents = proposed.intents;
    notes = proposed.notes;
    mode = proposed.mode;
    repaired = proposed.repaired;
    // The proposals become items at once (pending), in one step with the phase change.
    const scope = run.scope;
    await d.transaction(async (execute) => {
      if (scope.kind === 'all') {
        await execute(deleteDraftItems(ownerId, draftId));
        if (proposedIntents.length > 0) itemIds = (await execute(insertDraftItems(draftId, ownerId, proposedIntents.map(pendingRow)))).map((row) => String(row['id']));
      } else {
        const slots = scope.slotIds.slice(0, proposedIntents.length);
        for (const [index, slotId] of slots.entries()) {
          const refilled = await execute(refillSlot(ownerId, draftId, slotId, proposedIntents[index]!));
          if (refilled.length > 0) itemIds.push(slotId);
        }
        proposedIntents = proposedIntents.slice(0, slots.length);
      }
      await execute(updateGeneration(ownerId, draftId, { phase: 'resolving', asked: count, proposed: proposedIntents.length, output_mode: mode, repaired, notes, model_ms: Math.round(modelMs) }));
    });
  } catch (error) {
    const cancelled = signal.aborted;
    const record = cancelled ? { code: 'model_cancelled', message: 'You cancelled the generation before the model answered.', retry_after_s: null } : errorRecord(error);
    await d.transaction(async (execute) => {
      const [row] = await execute({ text: `select count(*)::int as n from generation_draft_item where draft_id = ? and owner_id = ?`, values: [draftId, ownerId] });
      await execute(updateGeneration(ownerId, draftId, { phase: 'done', error: record, cancelled }, Number(row?.['n'] ?? 0) > 0 ? 'draft' : 'failed'));
    });
    return { error: asError(error), cancelled };
  }

  const totals: ResolutionTotals = { searches: 0, duplicates: 0, explicitFiltered: 0, durationTrimmed: 0 };
  const taken = new Set<string>(run.scope.kind === 'open_slots' ? run.scope.keep.flatMap((song) => (song.uri ? [song.uri] : [])) : []);
  const options: ResolveOptions = { ...d.resolve, controls: spec.controls };
  const resolved: ResolvedIntent[] = [];
  let failure: unknown = null;
  for (const [index, intent] of proposedIntents.entries()) {
    if (signal.aborted) break;
    let item: ResolvedIntent;
    try {
      item = await resolveIntent(intent, options, taken, totals);
    } catch (error) {
      failure = error;
      break;
    }
    resolved.push(item);
    await d.transaction(async (execute) => {
      await execute(settleItem(ownerId, draftId, itemIds[index]!, rowOf(item)));
      await execute(updateGeneration(ownerId, draftId, { searched: index + 1 }));
    });
  }
  if (run.scope.kind === 'all') {
    const trimmed = fitDuration(resolved, spec.controls.duration_minutes);
    totals.durationTrimmed = trimmed.length;
    for (const index of trimmed) await d.execute(settleItem(ownerId, draftId, itemIds[index]!, rowOf(resolved[index]!)));
  }
  const cancelled = signal.aborted;
  const summary = {
    phase: 'done',
    model: d.model.model,
    demo: d.demo,
    resolved: resolved.filter((item) => item.status === 'resolved').length,
    unresolved: proposedIntents.length - resolved.filter((item) => item.status !== 'unresolved').length,
    searches: totals.searches,
    duplicates_dropped: totals.duplicates,
    explicit_filtered: totals.explicitFiltered,
    duration_trimmed: totals.durationTrimmed,
    /** Time spent resolving the model's songs on the target (searches, scoring, storing). */
    resolve_ms: Math.round(performance.now() - started - modelMs),
    cancelled,
    ...(failure ? { error: errorRecord(failure) } : {}),
  };
  await d.transaction(async (execute) => {
    await execute(abandonPendingItems(ownerId, draftId, cancelled ? CANCELLED_REASON : 'Not searched: the generation stopped on an error.'));
    await execute(updateGeneration(ownerId, draftId, summary, 'draft'));
  });
  return { error: failure === null ? null : asError(failure), cancelled };
}

/** Whether someone asked (through any engine process) to cancel this draft's generation. */
export async function cancelRequested(execute: SqlExecutor, ownerId: string, draftId: string): Promise<boolean> {
  const [row] = await execute(selectCancelRequested(ownerId, draftId));
  return row?.['cancel'] === true;
}
