/**
 * Stored enumerations. Each is kept as text with a CHECK constraint (generated from the entity),
 * so a new value is a one-line migration instead of an ALTER TYPE.
 */

export const ENTITY_TYPES = ['track', 'album', 'artist'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export const ITEM_STATUSES = ['pending', 'matched', 'needs_review', 'written', 'skipped', 'failed'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

export const JOB_OUTCOMES = ['pending', 'running', 'completed', 'partial', 'failed'] as const;
export type JobOutcome = (typeof JOB_OUTCOMES)[number];

/**
 * Persisted worker status of a migration job (the report's `job_status`). `paused`: waiting for the
 * user (reconnect an account) or for a provider quota to reset (`resume_at`), never failed.
 */
export const MIGRATION_JOB_STATUSES = ['queued', 'running', 'awaiting_review', 'paused', 'completed', 'failed', 'cancelled'] as const;
export type MigrationJobStatus = (typeof MIGRATION_JOB_STATUSES)[number];

/** Where a migration's source tracks come from. */
export const SOURCE_KINDS = ['provider', 'import', 'generated', 'snapshot'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export const JOB_ORIGINS = ['user', 'sync'] as const;
export type JobOrigin = (typeof JOB_ORIGINS)[number];

/** Per-job matching strictness, named as the matcher names them. */
export const MATCH_STRICTNESS = ['exact_release', 'same_recording', 'best_effort'] as const;
export type MatchStrictness = (typeof MATCH_STRICTNESS)[number];

export const REVIEW_ACTIONS = ['approve', 'skip'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

export const AUTH_KINDS = ['OAUTH_PKCE', 'OAUTH_DEVICE', 'HEADER_PASTE', 'DEVELOPER_USER_TOKEN', 'LONG_LIVED_TOKEN'] as const;
export type AuthKind = (typeof AUTH_KINDS)[number];

export const PROVIDER_ACCOUNT_STATUSES = ['connected', 'reauth_required', 'disconnected'] as const;
export type ProviderAccountStatus = (typeof PROVIDER_ACCOUNT_STATUSES)[number];

/** Operation-ledger states: intent is recorded before the provider call, the observation after. */
/** Where a migration job's worker is: each phase is persisted, so a restarted worker resumes there. */
export const MIGRATION_PHASES = ['created', 'items_ready', 'matched', 'written'] as const;
export type MigrationPhase = (typeof MIGRATION_PHASES)[number];

export const LEDGER_STATES = ['intended', 'called', 'observed', 'failed', 'ambiguous'] as const;
export type LedgerState = (typeof LEDGER_STATES)[number];

export const EDGE_SOURCES = ['isrc_exact', 'fuzzy', 'user_confirmed'] as const;
export type EdgeSource = (typeof EDGE_SOURCES)[number];

export const IMPORT_KINDS = ['file', 'text', 'url'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** previewed: owned by the user only; queued: claimed by a migration job; retained: job failed, kept for a grace period. */
export const IMPORT_STATES = ['previewed', 'queued', 'retained'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

export const SYNC_MODES = ['add_only', 'mirror'] as const;
export type SyncMode = (typeof SYNC_MODES)[number];

export const SYNC_SCHEDULE_KINDS = ['interval', 'daily'] as const;
export type SyncScheduleKind = (typeof SYNC_SCHEDULE_KINDS)[number];

export const SYNC_COLLECTION_KINDS = ['PLAYLIST', 'LIKED_TRACKS'] as const;
export type SyncCollectionKind = (typeof SYNC_COLLECTION_KINDS)[number];

/** `approval_required`: a mirror run would remove more than the rule's cap and waits for the owner. */
export const SYNC_RULE_STATUSES = ['active', 'paused', 'review_required', 'approval_required'] as const;
export type SyncRuleStatus = (typeof SYNC_RULE_STATUSES)[number];

/** `completed` covers unchanged sources too (the run's stats say so); `cancelled`: the rule was deleted or the job cancelled. */
export const SYNC_RUN_STATUSES = ['queued', 'running', 'review_required', 'approval_required', 'completed', 'failed', 'cancelled'] as const;

/** A mirror step's ledger row: written before its provider call, settled after it. */
export const SYNC_MIRROR_STEP_STATUSES = ['intended', 'done', 'failed'] as const;
export const SYNC_MIRROR_STEP_KINDS = ['remove', 'move', 'replace', 'add'] as const;

/** A snapshot rewind ("this playlist as it was at time T", written back into the same playlist). */
export const SNAPSHOT_REWIND_STATUSES = ['running', 'completed', 'failed'] as const;
export type SyncRunStatus = (typeof SYNC_RUN_STATUSES)[number];

/** `restore_tracks`: the undo of a finished song removal (puts the removed entries back where they were). */
export const ORGANIZER_ACTIONS = ['unfollow_playlist', 'delete_playlist', 'remove_tracks', 'restore_tracks'] as const;
export type OrganizerAction = (typeof ORGANIZER_ACTIONS)[number];

export const ORGANIZER_JOB_STATUSES = ['queued', 'running', 'completed', 'partial', 'failed'] as const;
export type OrganizerJobStatus = (typeof ORGANIZER_JOB_STATUSES)[number];

export const ORGANIZER_ITEM_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'ambiguous'] as const;
export type OrganizerItemStatus = (typeof ORGANIZER_ITEM_STATUSES)[number];

/** `generating` while the model and the searches run; `failed` when generation ended without a draft. */
export const DRAFT_STATUSES = ['generating', 'draft', 'approved', 'confirmed', 'discarded', 'failed'] as const;
export type DraftStatus = (typeof DRAFT_STATUSES)[number];

/**
 * `pending`: proposed by the model, not searched yet; `resolved`: a real target track; `unresolved`:
 * the model's song was not found (kept, never silently dropped); `removed` by the user, or left out
 * by the engine with the reason (a duplicate, the explicit filter, past the wished duration).
 */
export const DRAFT_ITEM_STATUSES = ['pending', 'resolved', 'unresolved', 'removed'] as const;
export type DraftItemStatus = (typeof DRAFT_ITEM_STATUSES)[number];

export const SNAPSHOT_STATUSES = ['queued', 'running', 'completed', 'partial', 'failed'] as const;
export type SnapshotStatus = (typeof SNAPSHOT_STATUSES)[number];
/** `created` by a snapshot job of this engine, or `uploaded` from an archive made elsewhere. */
export const SNAPSHOT_ORIGINS = ['created', 'uploaded'] as const;
export type SnapshotOrigin = (typeof SNAPSHOT_ORIGINS)[number];

export const PLUGIN_STATES = ['active', 'refused', 'quarantined'] as const;
export type PluginState = (typeof PLUGIN_STATES)[number];

/** A user's word on two Library workspace members: joined (`linked`) or split (`apart`). */
export const LIBRARY_PAIR_RELATIONS = ['linked', 'apart'] as const;
export type LibraryPairRelation = (typeof LIBRARY_PAIR_RELATIONS)[number];
