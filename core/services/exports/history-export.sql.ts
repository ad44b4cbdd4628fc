import type { SqlStatement } from '../migrations/migration-jobs.sql.ts';

/**
 * The track items of one source collection of a migration, in source order: what a history
 * export rebuilds that playlist from. Items without a position (none are written so) come last,
 * in the order they were created.
 */
export function selectHistoryTracks(jobId: string, collectionId: string): SqlStatement {
  return {
    text: `select position, title, artist, album, duration_s, release_year, explicit, isrc, source_track_id, source_item_id, source_uri, source_metadata
           from job_item where job_id = ? and entity_type = 'track' and source_playlist_id = ?
           order by position asc nulls last, created_at asc, id asc`,
    values: [jobId, collectionId],
  };
}
