import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { GenerationDraft } from './generation-draft.entity.ts';

/** A resolved real target track in a draft, in draft order. */
export const GenerationDraftItem = defineEntity({
  name: 'GenerationDraftItem',
  tableName: 'generation_draft_item',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    draft: p.manyToOne(GenerationDraft).deleteRule('cascade'),
    position: p.integer(),
    targetUri: p.text(),
    title: p.text(),
    artist: p.text(),
    album: p.text().nullable(),
    durationS: p.integer().nullable(),
    isrc: p.text().nullable(),
    /** The structured search intent that produced this track. */
    intent: p.json<Record<string, unknown>>().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  indexes: [{ properties: ['draft', 'position'] }],
});

export type GenerationDraftItem = InferEntity<typeof GenerationDraftItem>;
