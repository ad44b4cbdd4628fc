import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId } from './columns.ts';
import { ImportRecord } from './import-record.entity.ts';

/**
 * A song of an import matched on a provider by the Library's "resolve" (a search): the import's
 * track (by its song key, see `import-track-key.ts`) is that provider track. An import's track has
 * no provider id of its own, so no identity-graph edge can hold this; the next diff of the import
 * reads it here and compares the song through the provider track's identity, with no search. Gone
 * with the import record (cascade).
 */
export const LibraryImportMatch = defineEntity({
  name: 'LibraryImportMatch',
  tableName: 'library_import_match',
  properties: {
    importRecord: p.manyToOne(ImportRecord).primary().deleteRule('cascade'),
    trackKey: p.text().primary(),
    provider: p.text().primary(),
    ownerId: ownerId(),
    /** The account the match was found through (its overlay edges are looked up first). */
    providerAccountId: p.uuid(),
    providerTrackId: p.text(),
    createdAt: createdAt(),
  },
  indexes: [{ properties: ['ownerId'] }],
});

export type LibraryImportMatch = InferEntity<typeof LibraryImportMatch>;
