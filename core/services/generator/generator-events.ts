import type { SqlExecutor } from '../matching/index.ts';
import { draftView, itemView, type DraftItemView, type DraftView } from './draft-views.ts';
import { selectItemEvents } from './generation-run.sql.ts';
import { selectDraft, selectDraftItems } from './generator.sql.ts';

/**
 * Live progress of a generation, derived from the persisted rows exactly as a migration's is:
 * every change of a draft or one of its items takes the next number of one sequence (a trigger,
 * under the draft's lock), and that number is the event id, so `Last-Event-ID: N` resumes with
 * every change after N. The trigger's NOTIFY on `opl_generation_progress` wakes the streams of
 * every engine process. Events: `item` (one item as it is now) and `draft` (the draft without its
 * items, with the current order of item ids, so a client also learns of items that went away).
 */

export const GENERATION_PROGRESS_CHANNEL = 'opl_generation_progress';
export const GENERATION_EVENT_BATCH = 500;

export type DraftSummaryView = Omit<DraftView, 'items'> & { item_order: string[] };
export type GenerationEvent = { id: number; type: 'item'; data: DraftItemView } | { id: number; type: 'draft'; data: DraftSummaryView };

export async function draftEventsAfter(execute: SqlExecutor, ownerId: string, draftId: string, after: number): Promise<GenerationEvent[]> {
  const [draft] = await execute(selectDraft(ownerId, draftId));
  if (!draft) return [];
  const rows = await execute(selectItemEvents(ownerId, draftId, after, GENERATION_EVENT_BATCH));
  const events: GenerationEvent[] = rows.map((row) => ({ id: Number(row['progress_seq']), type: 'item' as const, data: itemView(row) }));
  const draftSeq = Number(draft['progress_seq'] ?? 0);
  const lastItem = rows.length > 0 ? Number(rows[rows.length - 1]!['progress_seq']) : 0;
  const full = rows.length === GENERATION_EVENT_BATCH;
  // The draft (a snapshot as it is now) follows its own change and any item change (its counts
  // moved). It is numbered like the newest change it covers; after a full batch, like the batch's
  // last item, so a later draft change is sent again with the next batch and resuming skips nothing.
  if (draftSeq > after || rows.length > 0) {
    const items = (await execute(selectDraftItems(ownerId, draftId))).map(itemView);
    const { items: _items, ...summary } = draftView(draft, items);
    events.push({ id: full ? lastItem : Math.max(draftSeq, lastItem), type: 'draft', data: { ...summary, item_order: items.map((item) => item.id) } });
  }
  return events.sort((a, b) => a.id - b.id);
}
