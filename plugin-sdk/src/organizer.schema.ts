import { z } from 'zod';

/**
 * What the engine's organizer (playlist maintenance: remove from library, permanent delete, remove
 * songs) may do with a provider, declared by the provider's manifest. The engine reads only this
 * section — never the provider's name — to decide which action it offers, how it confirms
 * ownership before a destructive call, and how it identifies the entries it removes. A plugin's
 * generic capabilities (`REMOVE_TRACKS`, `can_delete_playlist`) say what its operations can do for
 * migrations; this section says what the organizer offers, which may be less, with the reason the
 * UI shows.
 */

const reason = z.string().min(1).max(500);

/** Which playlists an action may touch, by the relation a read reports (`is_owned`, `collaborative`, `is_followed`). */
export const ORGANIZER_PLAYLIST_RELATIONS = ['owned', 'collaborative', 'followed'] as const;
export const organizerPlaylistRelationSchema = z.enum(ORGANIZER_PLAYLIST_RELATIONS);

/**
 * How ownership is confirmed before a permanent deletion:
 * - `owner_filtered_listing`: the playlist appears in the plugin's `listPlaylists`, which lists only
 *   the account's own playlists (a provider's owner filter) and marks each `is_owned: true`;
 * - `live_read`: a fresh `readPlaylist` of that playlist reports `is_owned: true`.
 */
export const OWNERSHIP_CHECKS = ['owner_filtered_listing', 'live_read'] as const;

/**
 * How the entries of a song removal are identified:
 * - `uri_positions_snapshot`: by URI with their exact positions and the playlist's snapshot id
 *   (Spotify style). With `removes_every_occurrence`, the provider drops every copy of a URI, so
 *   the engine warns about unselected copies and puts back any it finds gone afterwards;
 * - `entry_id`: by the provider's id of each occurrence (`source_item_id` of a read track, such as
 *   a YouTube Music `setVideoId` or a YouTube playlist item id): one entry, never its twins;
 * - `uri`: by URI alone; every occurrence goes (for providers whose playlists hold a song once).
 */
export const SONG_REMOVAL_IDENTITIES = ['uri_positions_snapshot', 'entry_id', 'uri'] as const;

const unavailable = <T extends z.ZodRawShape>(shape: T) => z.object({ available: z.literal(false), reason, ...shape });

export const safeRemovalSchema = z.discriminatedUnion('available', [
  z.object({
    available: z.literal(true),
    /** Calls `unfollowPlaylist`: removes the playlist from the account's library and nothing else. */
    applies_to: z.array(organizerPlaylistRelationSchema).min(1),
    /** Shown beside the action: what exactly happens at the provider. */
    note: z.string().max(500).nullable().default(null),
  }),
  unavailable({}),
]);

export const permanentDeleteSchema = z.discriminatedUnion('available', [
  z.object({
    available: z.literal(true),
    /** Calls `deletePlaylist` only after this check passed, in the preflight and again just before the call. */
    ownership_check: z.enum(OWNERSHIP_CHECKS),
    note: z.string().max(500).nullable().default(null),
  }),
  unavailable({}),
]);

export const songRemovalSchema = z.discriminatedUnion('available', [
  z.object({
    available: z.literal(true),
    identify_by: z.enum(SONG_REMOVAL_IDENTITIES),
    /** The provider removes every copy of a URI even when one is asked for. */
    removes_every_occurrence: z.boolean(),
    applies_to: z.array(organizerPlaylistRelationSchema).min(1),
    /** Selected entries one job may remove (the spec's limit is 100). */
    max_entries_per_job: z.number().int().positive().max(100),
    /** `addTracks` honours `position`: undo and the put-back of extra copies land where they were. */
    positional_insert: z.boolean(),
    note: z.string().max(500).nullable().default(null),
  }),
  unavailable({}),
]);

export const organizerSectionSchema = z.object({
  safe_removal: safeRemovalSchema,
  permanent_delete: permanentDeleteSchema,
  remove_songs: songRemovalSchema,
});

const NOT_DECLARED = 'This provider plugin declares no organizer actions.';

/** A provider that says nothing about the organizer offers nothing. */
export const NO_ORGANIZER_ACTIONS = {
  safe_removal: { available: false, reason: NOT_DECLARED },
  permanent_delete: { available: false, reason: NOT_DECLARED },
  remove_songs: { available: false, reason: NOT_DECLARED },
} as const satisfies z.input<typeof organizerSectionSchema>;

export type OrganizerSection = z.output<typeof organizerSectionSchema>;
export type OrganizerPlaylistRelation = (typeof ORGANIZER_PLAYLIST_RELATIONS)[number];
export type OwnershipCheck = (typeof OWNERSHIP_CHECKS)[number];
export type SongRemovalIdentity = (typeof SONG_REMOVAL_IDENTITIES)[number];
