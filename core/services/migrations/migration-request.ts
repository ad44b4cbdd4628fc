import { z } from 'zod';
import { MATCH_STRICTNESS } from '../../storage/entities/values.ts';
import { MAX_COLLECTION_ID_LENGTH } from '../imports/import-collection-ids.ts';

/**
 * The body of `POST /api/migrations` (and of its preflight). The source is a connected provider
 * account (`source_account_id` = its id), an import record (`source_provider` = `import`,
 * `source_account_id` = the record id) or a generator draft (`source_provider` = `generated`,
 * `source_account_id` = the draft id, which is also its one collection's id). Selection: whole collections by id (`liked` is the liked
 * songs), or only some tracks of a collection (`tracks[collection id]` = track keys: an entry id,
 * a track id, or `pos:<n>` for the entry at 0-based position n), plus saved albums and followed
 * artists by id.
 */

export const IMPORT_SOURCE = 'import';
/** A confirmed generator draft (`source_account_id` = the draft id): its approved tracks, frozen at confirmation. */
export const GENERATED_SOURCE = 'generated';
/**
 * A verified library snapshot (`source_snapshot_id` = the snapshot id; `source_account_id` may repeat it). The job's
 * `source_account_id` becomes the lineage `snapshot:<library_id>`, which scopes review decisions and target-playlist reuse.
 */
export const SNAPSHOT_SOURCE = 'snapshot';

const id = z.string().trim().min(1).max(MAX_COLLECTION_ID_LENGTH);

export const selectionSchema = z
  .object({
    playlist_ids: z.array(id).max(1_000).default([]),
    tracks: z.record(id, z.array(id).min(1).max(10_000)).default({}),
    saved_album_ids: z.array(id).max(10_000).default([]),
    followed_artist_ids: z.array(id).max(10_000).default([]),
  })
  .strict();

export const createMigrationSchema = z
  .object({
    source_provider: z.string().trim().min(1).max(40).nullable().default(null),
    source_account_id: z.string().trim().min(1).max(200),
    source_snapshot_id: z.string().max(200).nullable().default(null),
    target_provider: z.string().trim().min(1).max(40),
    target_account_id: z.uuid(),
    selection: selectionSchema,
    strictness: z.enum(MATCH_STRICTNESS).default('same_recording'),
    acknowledge_warnings: z.boolean().default(false),
  })
  .strict();

export type CreateMigration = z.output<typeof createMigrationSchema>;
export type Selection = z.output<typeof selectionSchema>;

/**
 * The track keys the selection names for one collection, or undefined (the whole collection).
 * Only the selection's own keys count: a collection with the id `constructor` or `toString` (a
 * bundle's playlist may have any id) must not find `Object.prototype`'s function there.
 */
export function selectedTrackKeys(selection: Selection, collectionId: string): readonly string[] | undefined {
  return Object.hasOwn(selection.tracks, collectionId) ? selection.tracks[collectionId] : undefined;
}

/** Every collection the selection names, whole or in part, in a stable order. */
export function selectedCollectionIds(selection: Selection): string[] {
  return [...new Set([...selection.playlist_ids, ...Object.keys(selection.tracks)])];
}
