/**
 * The organizer's API (`/api/organizer/*`) as the Organizer page uses it: paths and the words for
 * actions and relations. Pure: no I/O. The engine decides what is allowed; the page only shows it.
 */

export const ORGANIZER_PREFLIGHT_PATH = '/api/organizer/preflight';
export const ORGANIZER_JOBS_PATH = '/api/organizer/jobs';
export const ORGANIZER_DUPLICATES_PATH = '/api/organizer/duplicates';

export function organizerPlaylistsPath(accountId: string, refresh = false): string {
  return `/api/organizer/playlists?account_id=${encodeURIComponent(accountId)}${refresh ? '&refresh=true' : ''}`;
}

export function organizerJobPath(jobId: string): string {
  return `${ORGANIZER_JOBS_PATH}/${encodeURIComponent(jobId)}`;
}

export function playlistTracksPath(accountId: string, playlistId: string): string {
  return `/api/playlists/${encodeURIComponent(playlistId)}?account_id=${encodeURIComponent(accountId)}&refresh=true`;
}

export type OrganizerAction = 'unfollow_playlist' | 'delete_playlist' | 'remove_tracks';

export interface Availability {
  readonly available: boolean;
  readonly reason: string | null;
  readonly note: string | null;
}

export interface OrganizerPlaylist {
  readonly id: string;
  readonly name: string;
  readonly relation: string;
  readonly track_count: number | null;
  readonly actions: Readonly<Record<OrganizerAction, Availability>>;
}

/** GET /api/organizer/playlists: what the provider offers at all, and each playlist. */
export interface OrganizerPlaylists {
  readonly provider: string;
  readonly provider_actions: Readonly<Record<OrganizerAction, Availability>>;
  readonly playlists: readonly OrganizerPlaylist[];
}

export interface Removal {
  readonly position: number;
  readonly uri: string;
  readonly entry_id: string | null;
  readonly title: string;
  readonly artist: string;
}

export interface Preflight {
  readonly token: string;
  readonly expires_at: string;
  readonly action: OrganizerAction;
  readonly confirmation_phrase: string | null;
  readonly playlists: readonly {
    readonly playlist_id: string;
    readonly name: string;
    readonly effect: string;
    readonly ownership: { readonly check: string; readonly evidence: string } | null;
    readonly removals: readonly Removal[] | null;
    readonly warnings: readonly { readonly code: string; readonly message: string; readonly positions: readonly number[] }[];
  }[];
}

export interface OrganizerJob {
  readonly id: string;
  readonly status: string;
  readonly action: OrganizerAction | 'restore_tracks';
  readonly counts: { readonly items: number; readonly succeeded: number; readonly failed: number; readonly pending: number; readonly retryable: number };
  /** Some item failed because the connection must be renewed: reconnect, then retry. */
  readonly reconnect_required: boolean;
  /** Undo jobs: `appended` when the provider could only add at the end. */
  readonly restore_order: 'positions' | 'appended' | null;
  readonly items: readonly {
    readonly id: string;
    readonly playlist_name: string | null;
    readonly status: string;
    readonly retryable: boolean;
    readonly error: string | null;
    readonly notes: readonly string[];
  }[];
}

export interface DuplicatePair {
  readonly playlists: readonly { readonly id: string; readonly name: string; readonly track_count: number }[];
  readonly overlap: number;
  readonly evidence: readonly string[];
}

/** One entry of a playlist as the in-playlist duplicate scan shows it. */
export interface DuplicateEntry {
  readonly position: number;
  readonly uri: string | null;
  readonly entry_id: string | null;
  readonly title: string;
  readonly artist: string;
}

/** Entries that repeat an earlier one (`original`), each with how it matched. */
export interface DuplicateGroup {
  readonly original: DuplicateEntry;
  readonly duplicates: readonly (DuplicateEntry & { readonly matched_by: string; readonly why: string })[];
}

/** POST /api/organizer/duplicates with `scope: entries`: read-only, selects nothing. */
export interface EntryDuplicates {
  readonly playlist_id: string;
  readonly name: string;
  readonly keep: 'first' | 'last';
  readonly groups: readonly DuplicateGroup[];
  readonly proposed_removals: readonly DuplicateEntry[];
}

export const DUPLICATE_LEVELS = ['same_id', 'same_isrc', 'same_recording'] as const;
export type DuplicateLevel = (typeof DUPLICATE_LEVELS)[number];

export const DUPLICATE_LEVEL_LABELS: Readonly<Record<DuplicateLevel, string>> = {
  same_id: 'The same entry of the service (same id)',
  same_isrc: 'The same recording code (ISRC)',
  same_recording: 'The same recording by title, artist and length (never a live, remix or other version)',
};

/** What the page hands to a song-removal preflight: exactly the chosen entries of one playlist. */
export interface ChosenEntries {
  readonly playlistId: string;
  readonly entries: readonly { readonly position: number; readonly uri: string; readonly entry_id: string | null }[];
}

/** The actions the playlist table shows, in its column order. */
export const ORGANIZER_ACTIONS_SHOWN: readonly OrganizerAction[] = ['unfollow_playlist', 'delete_playlist', 'remove_tracks'];

export const ACTION_LABELS: Readonly<Record<OrganizerAction, string>> = {
  unfollow_playlist: 'Remove from library',
  delete_playlist: 'Delete permanently',
  remove_tracks: 'Remove songs…',
};

export const RELATION_LABELS: Readonly<Record<string, string>> = {
  owned: 'Yours',
  collaborative: 'Collaborative',
  followed: 'Followed',
  liked_collection: 'Liked songs',
  unknown: 'Owner not reported',
};

export function isFinished(job: OrganizerJob): boolean {
  return job.status === 'completed' || job.status === 'partial' || job.status === 'failed';
}

/** Light shape checks of answers (the engine's schemas are the contract; this catches a wrong server). */
export function looksLike<T>(body: unknown, keys: readonly string[]): body is T {
  return typeof body === 'object' && body !== null && keys.every((key) => key in body);
}
