import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, updatedAt, uuidPrimaryKey } from './columns.ts';

/** A recording in the global identity graph. Holds no personal data. ISRC is evidence, not the key. */
export const TrackIdentity = defineEntity({
  name: 'TrackIdentity',
  tableName: 'track_identity',
  properties: {
    id: uuidPrimaryKey(),
    isrc: p.text().nullable(),
    title: p.text(),
    artist: p.text(),
    album: p.text().nullable(),
    durationS: p.integer().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  indexes: [{ properties: ['isrc'] }],
});

export type TrackIdentity = InferEntity<typeof TrackIdentity>;
