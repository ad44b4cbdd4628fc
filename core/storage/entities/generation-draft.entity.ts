import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { DRAFT_STATUSES } from './values.ts';

/** First key of the per-draft progress lock (the generator's counterpart of the migration progress lock). */
export const GENERATION_PROGRESS_LOCK = 1_869_182;

/**
 * Generation progress events are the rows themselves, as for migrations: every insert or update of
 * a draft or one of its items takes the next number of one sequence under the draft's transaction
 * lock, and the notification (delivered at commit) wakes the event streams of every process.
 */
export function generationProgressTriggerBody(draftIdColumn: 'id' | 'draft_id'): string {
  return `perform pg_advisory_xact_lock(${GENERATION_PROGRESS_LOCK}, hashtext(NEW.${draftIdColumn}::text));
    NEW.progress_seq := nextval('generation_progress_seq');
    perform pg_notify('opl_generation_progress', NEW.${draftIdColumn}::text);
    return NEW;`;
}

/** An editable private generated playlist. The raw prompt is never stored, only explicit controls. */
export const GenerationDraft = defineEntity({
  name: 'GenerationDraft',
  tableName: 'generation_draft',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    targetProvider: p.text(),
    targetAccountId: p.text(),
    name: p.text(),
    description: p.text().nullable(),
    /** Explicit music controls (counts, durations, explicit filter, ...). */
    controls: p.json<Record<string, unknown>>().defaultRaw(`'{}'::jsonb`),
    status: p.enum(DRAFT_STATUSES).default('draft'),
    /** sha256 of the prompt, for a reference only: the prompt itself is never stored. */
    promptHash: p.text().nullable(),
    /** How it was generated: model, output mode, searches, what the model's answer lost and why. */
    generation: p.json<Record<string, unknown>>().defaultRaw(`'{}'::jsonb`),
    /** A draft not confirmed by then is deleted. */
    expiresAt: p.datetime(),
    /** The migration job its confirmation created (`source_kind = generated`). */
    migrationJobId: p.uuid().nullable(),
    /** Set by a trigger on every change: the generation progress events' ids. */
    progressSeq: p.bigint('number').nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  triggers: [{ name: 'generation_draft_progress', timing: 'before', events: ['insert', 'update'], forEach: 'row', body: generationProgressTriggerBody('id') }],
  indexes: [{ properties: ['ownerId', 'createdAt'] }, { properties: ['expiresAt'] }],
});

export type GenerationDraft = InferEntity<typeof GenerationDraft>;
