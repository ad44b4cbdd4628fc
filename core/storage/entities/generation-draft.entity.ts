import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { DRAFT_STATUSES } from './values.ts';

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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  indexes: [{ properties: ['ownerId', 'createdAt'] }, { properties: ['expiresAt'] }],
});

export type GenerationDraft = InferEntity<typeof GenerationDraft>;
