import { ModelError, type ChatModelClient } from './chat-model.client.ts';
import { generationMessages, libraryMessages, songsToAsk, type GenerationSpec, type PreferenceSummary } from './generation-request.ts';
import { fitDuration, resolveIntent, resolveLibraryChoice, type ResolutionTotals, type ResolvedIntent, type ResolveOptions } from './intent-resolver.ts';
import type { LibraryChoice, LibrarySlot } from './library-choices.ts';
import { offeredLines, type OfferedTrack } from './library-offer.ts';
import { abandonPendingItems, deleteDraftItems, refillSlot, selectCancelRequested, settleItem, updateGeneration } from './generation-run.sql.ts';
import { insertDraftItems, type NewDraftItem } from './generator.sql.ts';
import type { GraphTransaction, SqlExecutor } from '../matching/index.ts';
import type { TrackIntent } from './track-intents.ts';
import { echoesPrompt } from './prompt-echo.ts';

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
  /** Library-grounded mode: the offered sample of the listener's tracks (see `library-offer.ts`); null in open mode. */
  library: { offered: OfferedTrack[] } | null;
}

/**
 * One slot of the model's answer: a song it named (open mode), a library track it chose, or (in
 * library mode) an answer that was not one of the offered ids, kept as an unresolved slot.
 */
interface Proposal {
  intent: TrackIntent;
  choice: LibraryChoice | null;
  discarded: string | null;
}

const DISCARDED_INTENT: TrackIntent = { title: 'Not one of your songs', artist: 'Discarded answer of the model', album: null, release_year: null, reason: null };

function proposalOf(slot: LibrarySlot): Proposal {
  if (slot.kind === 'discarded') return { intent: DISCARDED_INTENT, choice: null, discarded: slot.why };
  const { offered, reason } = slot.choice;
  return { intent: { title: offered.title, artist: offered.artist, album: offered.album, release_year: offered.library.track.release_year ?? null, reason }, choice: slot.choice, discarded: null };
}

/** Reasons that repeat the request are dropped before anything is stored (prompt-echo.ts); each drop is a note. */
function dropPromptEchoes(proposals: Proposal[], prompt: string): unknown[] {
  const notes: unknown[] = [];
  for (const [index, proposal] of proposals.entries()) {
    if (proposal.intent.reason === null || !echoesPrompt(proposal.intent.reason, prompt)) continue;
    proposal.intent = { ...proposal.intent, reason: null };
    if (proposal.choice) proposal.choice = { ...proposal.choice, reason: null };
    notes.push({ code: 'field_dropped', index, field: 'reason', message: `The reason of song ${index + 1} was dropped: it repeated your request, which is never stored.` });
  }
  return notes;
}

function discardedItem(proposal: Proposal): ResolvedIntent {
  const reason = `Discarded: the model answered with ${proposal.discarded ?? 'something else'}, not one of the offered songs of your library; regenerate this slot or replace it with a search.`;
  return { intent: proposal.intent, status: 'unresolved', approved: false, target: null, confidence: null, reason, candidates: [] };
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
  let proposals: Proposal[] = [];
  let notes: unknown[] = [];
  let mode = '';
  let repaired = false;
  let modelMs = 0;
  try {
    const avoid = run.scope.kind === 'open_slots' ? run.scope.keep : [];
    let proposed: { notes: unknown[]; mode: string; repaired: boolean };
    if (run.library) {
      const offered = new Map(run.library.offered.map((entry) => [entry.id, entry]));
      const chosen = await d.model.chooseFromLibrary(libraryMessages(spec, offeredLines(run.library.offered), count, run.preferences, avoid), offered, count, signal);
      proposals = chosen.slots.map(proposalOf);
      proposed = chosen;
    } else {
      const named = await d.model.proposeIntents(generationMessages(spec, run.preferences, { count, avoid }), count, signal);
      proposals = named.intents.map((intent) => ({ intent, choice: null, discarded: null }));
      proposed = named;
    }
    modelMs = performance.now() - started;
    if (signal.aborted) throw new ModelError('model_cancelled', 'The generation was cancelled.');
    notes = [...proposed.notes, ...dropPromptEchoes(proposals, spec.prompt)];
    mode = proposed.mode;
    repaired = proposed.repaired;
    // The proposals become items at once (pending), in one step with the phase change.
    const scope = run.scope;
    await d.transaction(async (execute) => {
      if (scope.kind === 'all') {
        await execute(deleteDraftItems(ownerId, draftId));
        if (proposals.length > 0) itemIds = (await execute(insertDraftItems(draftId, ownerId, proposals.map((proposal) => pendingRow(proposal.intent))))).map((row) => String(row['id']));
      } else {
        const slots = scope.slotIds.slice(0, proposals.length);
        for (const [index, slotId] of slots.entries()) {
          const refilled = await execute(refillSlot(ownerId, draftId, slotId, proposals[index]!.intent));
          if (refilled.length > 0) itemIds.push(slotId);
        }
        proposals = proposals.slice(0, slots.length);
      }
      const discarded = proposals.filter((proposal) => proposal.discarded !== null).length;
      await execute(
        updateGeneration(ownerId, draftId, { phase: 'resolving', asked: count, proposed: proposals.length, output_mode: mode, repaired, notes, model_ms: Math.round(modelMs), ...(run.library ? { discarded } : {}) }),
      );
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
  const options: ResolveOptions = { ...d.resolve, controls: spec.controls, signal };
  const resolved: ResolvedIntent[] = [];
  let failure: unknown = null;
  for (const [index, proposal] of proposals.entries()) {
    if (signal.aborted) break;
    let item: ResolvedIntent;
    try {
      if (proposal.discarded !== null) item = discardedItem(proposal);
      else if (proposal.choice) item = await resolveLibraryChoice(proposal.choice, options, taken, totals);
      else item = await resolveIntent(proposal.intent, options, taken, totals);
    } catch (error) {
      failure = error;
      break;
    }
    // Cancelled while searching: the search was aborted, so this song stays "not searched".
    if (signal.aborted) break;
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
    unresolved: proposals.length - resolved.filter((item) => item.status !== 'unresolved').length,
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
