import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';

/** A user's opt-in, capped local preference summary the generator may send to the model. */
export const GenerationPreference = defineEntity({
  name: 'GenerationPreference',
  tableName: 'generation_preference',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId().unique(),
    optIn: p.boolean().default(false),
    summary: p.json<Record<string, unknown>>().defaultRaw(`'{}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
});

export type GenerationPreference = InferEntity<typeof GenerationPreference>;
