import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { CONFIDENCE_RANGE_CHECK, confidence, createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { DRAFT_ITEM_STATUSES } from './values.ts';
import { GenerationDraft, generationProgressTriggerBody } from './generation-draft.entity.ts';

/** A resolved real target track in a draft, in draft order. */
export const GenerationDraftItem = defineEntity({
  name: 'GenerationDraftItem',
  tableName: 'generation_draft_item',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    draft: p.manyToOne(GenerationDraft).deleteRule('cascade'),
    position: p.integer(),
    status: p.enum(DRAFT_ITEM_STATUSES).default('resolved'),
    /** Only approved items are written when the draft is confirmed. */
    approved: p.boolean().default(false),
    /** Null while unresolved. */
    targetUri: p.text().nullable(),
    targetId: p.text().nullable(),
    explicit: p.boolean().nullable(),
    confidence: confidence().nullable(),
    /** The match service's sentence about the choice (or why nothing was found). */
    reason: p.text().nullable(),
    title: p.text(),
    artist: p.text(),
    album: p.text().nullable(),
    durationS: p.integer().nullable(),
    isrc: p.text().nullable(),
    /** The structured search intent that produced this track. */
    intent: p.json<Record<string, unknown>>().nullable(),
    /** The target's other ranked results for the intent, kept so the user can replace the choice without a new search. */
    candidates: p.json<unknown[]>().defaultRaw(`'[]'::jsonb`),
    /** Set by a trigger on every change: the generation progress events' ids. */
    progressSeq: p.bigint('number').nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  triggers: [{ name: 'generation_draft_item_progress', timing: 'before', events: ['insert', 'update'], forEach: 'row', body: generationProgressTriggerBody('draft_id') }],
  indexes: [{ properties: ['draft', 'position'] }, { properties: ['draft', 'progressSeq'] }],
  checks: [{ name: 'generation_draft_item_confidence_range', expression: CONFIDENCE_RANGE_CHECK }],
});

export type GenerationDraftItem = InferEntity<typeof GenerationDraftItem>;
