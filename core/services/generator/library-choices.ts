import type { OfferedTrack } from './library-offer.ts';
import { answerListSchema, INTENT_LIMITS, plainText, refusal, type IntentNote } from './track-intents.ts';

/**
 * What the model answers in library-grounded mode, and how that answer is read. The JSON Schema
 * constrains each choice to the offered ids (an `enum`) and the list to the requested count; a
 * server that does not enforce schemas may still answer anything, so every id is checked against
 * the offered list here. An id that is not offered (invented, a provider id, a URL, a title) is
 * discarded and becomes an open slot of the draft with the reason, never a silent loss; the raw
 * value is not echoed anywhere (it is untrusted text).
 */

export interface LibraryChoice {
  offered: OfferedTrack;
  reason: string | null;
}

/** One slot of the answer: a chosen offered track, or a discarded answer with the reason. */
export type LibrarySlot = { kind: 'chosen'; choice: LibraryChoice } | { kind: 'discarded'; why: string };

export interface ReadChoices {
  slots: LibrarySlot[];
  notes: IntentNote[];
}

export function libraryChoicesJsonSchema(ids: readonly string[], count: number): Record<string, unknown> {
  return answerListSchema(count, { id: { type: 'string', enum: [...ids] }, reason: { type: ['string', 'null'], maxLength: INTENT_LIMITS.reason } });
}

/** Why an answered id is not one of the offered ones, in words safe to store and show. */
function notOffered(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') return 'no id';
  const why = refusal(value);
  if (why === 'a URL' || why === 'a provider id') return why;
  if (why === 'markup') return 'markup';
  return 'an id that was not offered';
}

/**
 * Reads the answer (already JSON-parsed): `{tracks: [...]}` or a bare array; each item `{id,
 * reason}` or a bare id string. At most `count` slots: chosen offered tracks and discarded answers
 * in the model's order; an offered id chosen twice counts once. Null when there is no list at all.
 */
export function readLibraryChoices(answer: unknown, offered: ReadonlyMap<string, OfferedTrack>, count: number): ReadChoices | null {
  const list = Array.isArray(answer) ? answer : answer !== null && typeof answer === 'object' && Array.isArray((answer as { tracks?: unknown }).tracks) ? (answer as { tracks: unknown[] }).tracks : null;
  if (list === null) return null;
  const slots: LibrarySlot[] = [];
  const notes: IntentNote[] = [];
  const chosen = new Set<string>();
  for (const [index, raw] of list.entries()) {
    if (slots.length === count) {
      notes.push({ code: 'extra_items_dropped', message: `The model answered ${list.length} choices for ${count} asked; the first ${count} are kept.` });
      break;
    }
    const item = typeof raw === 'string' ? { id: raw } : raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
    const id = typeof item?.['id'] === 'string' ? item['id'].trim() : item?.['id'];
    const entry = typeof id === 'string' ? offered.get(id) : undefined;
    if (!entry) {
      const why = notOffered(id);
      notes.push({ code: 'id_not_offered', index, message: `Choice ${index + 1} was discarded: ${why}, not one of the offered songs.` });
      slots.push({ kind: 'discarded', why });
      continue;
    }
    if (chosen.has(entry.id)) {
      notes.push({ code: 'duplicate_intent', index, message: `Choice ${index + 1} repeats an earlier song.` });
      continue;
    }
    chosen.add(entry.id);
    const reason = plainText(item?.['reason'], INTENT_LIMITS.reason);
    if (reason.problem) notes.push({ code: 'field_dropped', index, field: 'reason', message: `The reason of choice ${index + 1} was dropped: ${reason.problem}.` });
    slots.push({ kind: 'chosen', choice: { offered: entry, reason: reason.text } });
  }
  return { slots, notes };
}
