import type { SqlStatement } from '../migrations/migration-jobs.sql.ts';

const TRACK_ITEMS = `from job_item where job_id = ? and entity_type = 'track' and source_playlist_id = ?`;

/** How many track items one source collection of a migration has. */
export function countHistoryTracks(jobId: string, collectionId: string): SqlStatement {
  return { text: `select count(*)::int as tracks ${TRACK_ITEMS}`, values: [jobId, collectionId] };
}

/**
 * One slice of the track items of one source collection of a migration, in source order: what a
 * history export rebuilds that playlist from, `limit` rows from `offset` on. Items without a
 * position (none are written so) come last, in the order they were created; the id makes the order
 * total, so slices neither overlap nor skip a row. The items of a finished job no longer change
 * (only retention cleanup deletes them, which the source checks for after the last slice).
 */
export function selectHistoryTracks(jobId: string, collectionId: string, offset: number, limit: number): SqlStatement {
  return {
    text: `select position, title, artist, album, duration_s, release_year, explicit, isrc, source_track_id, source_item_id, source_uri, source_metadata
           ${TRACK_ITEMS}
           order by position asc nulls last, created_at asc, id asc
           offset ? limit ?`,
    values: [jobId, collectionId, offset, limit],
  };
}
