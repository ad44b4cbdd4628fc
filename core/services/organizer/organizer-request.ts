import { z } from 'zod';
import { MAX_PLAYLISTS_PER_JOB, MAX_SONG_REMOVALS_PER_JOB } from './organizer-actions.ts';

/** What a client may ask the organizer: validated at the HTTP boundary and again by the CLI. */

const playlistId = z.string().min(1).max(500);

export const songEntrySchema = z
  .object({
    /** 0-based position in the playlist as the preflight reads it. */
    position: z.number().int().nonnegative().max(100_000),
    uri: z.string().min(1).max(2_000),
    /** The provider's id of this occurrence, when the client has it (checked against the live read). */
    entry_id: z.string().min(1).max(500).nullable().default(null),
  })
  .strict();

export const preflightRequestSchema = z.discriminatedUnion('action', [
  z
    .object({
      account_id: z.uuid(),
      action: z.enum(['unfollow_playlist', 'delete_playlist']),
      playlist_ids: z
        .array(playlistId)
        .min(1)
        .max(MAX_PLAYLISTS_PER_JOB)
        .refine((ids) => new Set(ids).size === ids.length, 'each playlist at most once'),
    })
    .strict(),
  z
    .object({
      account_id: z.uuid(),
      action: z.literal('remove_tracks'),
      playlist_id: playlistId,
      entries: z
        .array(songEntrySchema)
        .min(1)
        .max(MAX_SONG_REMOVALS_PER_JOB, `at most ${MAX_SONG_REMOVALS_PER_JOB} entries per job`)
        .refine((entries) => new Set(entries.map((entry) => entry.position)).size === entries.length, 'each position at most once'),
    })
    .strict(),
]);

export type PreflightRequest = z.output<typeof preflightRequestSchema>;

export const createJobRequestSchema = z
  .object({
    preflight_token: z.uuid(),
    /** The phrase the preflight named, typed by the user (exact, Unicode-normalized). */
    confirmation: z.string().max(1_000).nullable().default(null),
    /** When sent, must be exactly the preflight's playlists (a client cannot widen the selection). */
    playlist_ids: z.array(playlistId).max(MAX_PLAYLISTS_PER_JOB).optional(),
    /** When sent, must be exactly the preflight's entries. */
    entries: z.array(songEntrySchema).max(MAX_SONG_REMOVALS_PER_JOB).optional(),
  })
  .strict();

export type CreateJobRequest = z.output<typeof createJobRequestSchema>;
