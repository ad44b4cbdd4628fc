import type { Track } from '@opl/plugin-sdk';
import { trackSchema } from '@opl/plugin-sdk/schemas';
import type { SqlExecutor } from '../matching/index.ts';
import { selectApprovedItems } from './generator.sql.ts';

/**
 * A generator draft as the source of a migration (`source_kind = generated`): its approved tracks,
 * each already a track of the draft's target, so the migration finds it by its URI without a
 * search. Read when the job is created and again by the worker; a confirmed draft cannot change.
 */
export class GeneratedDraftSource {
  readonly #execute: SqlExecutor;

  constructor(execute: SqlExecutor) {
    this.#execute = execute;
  }

  async approvedTracks(ownerId: string, draftId: string): Promise<{ name: string; tracks: Track[] } | null> {
    const rows = await this.#execute(selectApprovedItems(ownerId, draftId));
    if (rows.length === 0) return null;
    const provider = String(rows[0]!['target_provider']);
    const tracks = rows
      .filter((row) => row['target_uri'] !== null)
      .map((row, position) =>
        trackSchema.parse({
          id: row['target_id'],
          title: row['title'],
          artist: row['artist'],
          artists: [row['artist']],
          album: row['album'],
          duration_s: row['duration_s'],
          isrc: row['isrc'],
          explicit: row['explicit'],
          provider_uris: { [provider]: row['target_uri'] },
          position,
        }),
      );
    return { name: String(rows[0]!['name']), tracks };
  }
}
