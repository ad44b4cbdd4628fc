import { Migration } from '@mikro-orm/migrations';

export class Migration20261121091405_initial extends Migration {

  override name = 'Migration20261121091405_initial';

  override up(): void | Promise<void> {
    this.addSql(`create table "generation_draft" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "target_provider" text not null, "target_account_id" text not null, "name" text not null, "description" text null, "controls" jsonb not null default '{}', "status" text not null default 'draft', "migration_job_id" uuid null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "generation_draft_owner_id_created_at_index" on "generation_draft" ("owner_id", "created_at");`);

    this.addSql(`create table "generation_draft_item" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "draft_id" uuid not null, "position" int not null, "target_uri" text not null, "title" text not null, "artist" text not null, "album" text null, "duration_s" int null, "isrc" text null, "intent" jsonb null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "generation_draft_item_draft_id_position_index" on "generation_draft_item" ("draft_id", "position");`);

    this.addSql(`create table "generation_preference" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "opt_in" boolean not null default false, "summary" jsonb not null default '{}', "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`alter table "generation_preference" add constraint "generation_preference_owner_id_unique" unique ("owner_id");`);

    this.addSql(`create table "import_record" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "kind" text not null, "source_label" text null, "playlists" jsonb not null, "issues" jsonb not null default '[]', "state" text not null default 'previewed', "job_id" uuid null, "expires_at" timestamptz not null, "grace_until" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "import_record_owner_id_index" on "import_record" ("owner_id");`);
    this.addSql(`create index "import_record_expires_at_index" on "import_record" ("expires_at");`);
    this.addSql(`create index "import_record_job_id_index" on "import_record" ("job_id");`);

    this.addSql(`create table "migration_job" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "source_provider" text not null, "source_account_id" text not null, "target_provider" text not null, "target_account_id" text not null, "source_kind" text not null default 'provider', "source_snapshot_id" uuid null, "origin" text not null default 'user', "sync_run_id" uuid null, "match_only" boolean not null default false, "strictness" text not null default 'balanced', "status" text not null default 'queued', "outcome" text not null default 'pending', "selection" jsonb not null, "warnings" jsonb not null default '[]', "acknowledged_warnings" jsonb not null default '[]', "summary" jsonb null, "error" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "started_at" timestamptz null, "completed_at" timestamptz null, "detail_expires_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "migration_job_owner_id_created_at_index" on "migration_job" ("owner_id", "created_at");`);
    this.addSql(`create index "migration_job_status_index" on "migration_job" ("status");`);
    this.addSql(`create index "migration_job_detail_expires_at_index" on "migration_job" ("detail_expires_at");`);
    this.addSql(`create index "migration_job_sync_run_id_index" on "migration_job" ("sync_run_id");`);

    this.addSql(`create table "job_item" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "job_id" uuid not null, "entity_type" text not null, "status" text not null default 'pending', "source_playlist_id" text null, "source_playlist_name" text null, "target_playlist_id" text null, "position" int null, "title" text null, "artist" text null, "album" text null, "duration_s" int null, "release_year" int null, "explicit" boolean null, "isrc" text null, "source_entity_id" text null, "source_entity_name" text null, "source_track_id" text null, "source_item_id" text null, "source_uri" text null, "source_metadata" jsonb null, "target_uri" text null, "target_id" text null, "target_entity_id" text null, "confidence" double precision null, "reason" text null, "review_action" text null, "review_original_status" text null, "review_original_reason" text null, "reviewed_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "job_item_job_id_entity_type_position_index" on "job_item" ("job_id", "entity_type", "position");`);
    this.addSql(`create index "job_item_job_id_status_index" on "job_item" ("job_id", "status");`);
    this.addSql(`create index "job_item_owner_id_index" on "job_item" ("owner_id");`);

    this.addSql(`create table "operation_ledger" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "job_id" uuid not null, "item_id" uuid null, "operation" text not null, "intent" jsonb not null, "state" text not null default 'intended', "idempotency_key" text not null, "observed_target_id" text null, "observed_position" int null, "error" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`alter table "operation_ledger" add constraint "operation_ledger_idempotency_key_unique" unique ("idempotency_key");`);
    this.addSql(`create index "operation_ledger_job_id_state_index" on "operation_ledger" ("job_id", "state");`);
    this.addSql(`create index "operation_ledger_item_id_index" on "operation_ledger" ("item_id");`);

    this.addSql(`create table "organizer_job" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "provider" text not null, "account_id" text not null, "mode" text not null, "status" text not null default 'queued', "preflight" jsonb not null, "confirmed_at" timestamptz not null, "summary" jsonb null, "error" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "started_at" timestamptz null, "completed_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "organizer_job_owner_id_created_at_index" on "organizer_job" ("owner_id", "created_at");`);
    this.addSql(`create index "organizer_job_status_index" on "organizer_job" ("status");`);

    this.addSql(`create table "organizer_item" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "job_id" uuid not null, "playlist_id" text not null, "playlist_name" text null, "action" text not null, "status" text not null default 'pending', "retryable" boolean not null default false, "idempotency_key" text not null, "snapshot_id" text null, "entries" jsonb null, "set_video_ids" text[] null, "baseline_sequence_hash" text null, "expected_sequence_hash" text null, "attempts" int not null default 0, "error_code" text null, "error" text null, "completed_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`alter table "organizer_item" add constraint "organizer_item_idempotency_key_unique" unique ("idempotency_key");`);
    this.addSql(`create index "organizer_item_job_id_status_index" on "organizer_item" ("job_id", "status");`);
    this.addSql(`create index "organizer_item_owner_id_index" on "organizer_item" ("owner_id");`);
    this.addSql(`alter table "organizer_item" add constraint "organizer_item_job_id_playlist_id_action_unique" unique ("job_id", "playlist_id", "action");`);

    this.addSql(`create table "owner_session" ("id" uuid not null default gen_random_uuid(), "token_hash" text not null, "created_at" timestamptz not null default now(), "expires_at" timestamptz not null, "last_seen_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`alter table "owner_session" add constraint "owner_session_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "owner_session_expires_at_index" on "owner_session" ("expires_at");`);

    this.addSql(`create table "plugin_allow_list_entry" ("id" uuid not null default gen_random_uuid(), "plugin_id" text not null, "key_id" text not null, "version_range" text not null, "added_by" text not null, "created_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`alter table "plugin_allow_list_entry" add constraint "plugin_allow_list_entry_plugin_id_key_id_version_range_unique" unique ("plugin_id", "key_id", "version_range");`);

    this.addSql(`create table "plugin_record" ("id" uuid not null default gen_random_uuid(), "plugin_id" text not null, "highest_version_seen" text not null, "installed_version" text null, "state" text not null default 'active', "state_reason" text null, "state_changed_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`alter table "plugin_record" add constraint "plugin_record_plugin_id_unique" unique ("plugin_id");`);

    this.addSql(`create table "provider_account" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "provider" text not null, "provider_user_id" text null, "display_name" text null, "status" text not null default 'connected', "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`alter table "provider_account" add constraint "provider_account_identity_unique" unique ("owner_id", "provider", "provider_user_id");`);

    this.addSql(`create table "provider_credential" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "provider_account_id" uuid not null, "version" int not null, "auth_kind" text not null, "scopes" text[] not null default '{}', "encrypted_blob" bytea not null, "encrypted_refresh_token" bytea null, "key_id" text not null, "expires_at" timestamptz null, "account_label" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "provider_credential_owner_id_index" on "provider_credential" ("owner_id");`);
    this.addSql(`alter table "provider_credential" add constraint "provider_credential_key_unique" unique ("provider_account_id", "version", "scopes");`);

    this.addSql(`create table "review_decision" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "scope" text not null, "provider" text not null, "account_id" text null, "entity_type" text not null, "source_key" text not null, "action" text not null, "chosen_target_uri" text null, "chosen_target_id" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`alter table "review_decision" add constraint "review_decision_source_unique" unique ("owner_id", "provider", "scope", "entity_type", "source_key");`);

    this.addSql(`create table "share" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "token_hash" text not null, "snapshot" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "revoked_at" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "share" add constraint "share_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "share_owner_id_created_at_index" on "share" ("owner_id", "created_at");`);

    this.addSql(`create table "snapshot_profile" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "name" text not null, "selection" jsonb not null, "library_id" uuid not null default gen_random_uuid(), "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "snapshot_profile_owner_id_index" on "snapshot_profile" ("owner_id");`);

    this.addSql(`create table "snapshot" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "profile_id" uuid null, "library_id" uuid not null, "status" text not null default 'queued', "archive_path" text null, "archive_sha256" text null, "archive_bytes" bigint null, "schema_version" int null, "counts" jsonb not null default '{}', "checksums" jsonb not null default '{}', "error" text null, "verified_at" timestamptz null, "started_at" timestamptz null, "completed_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "snapshot_owner_id_created_at_index" on "snapshot" ("owner_id", "created_at");`);
    this.addSql(`create index "snapshot_status_index" on "snapshot" ("status");`);
    this.addSql(`create index "snapshot_profile_id_index" on "snapshot" ("profile_id");`);

    this.addSql(`create table "sync_rule" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "origin_job_id" uuid not null, "source_provider" text not null, "source_account_id" text not null, "source_playlist_id" text not null, "target_provider" text not null, "target_account_id" text not null, "target_playlist_id" text not null, "mode" text not null default 'add_only', "status" text not null default 'active', "pause_reason" text null, "interval_minutes" int not null, "next_run_at" timestamptz null, "last_run_at" timestamptz null, "consecutive_failures" int not null default 0, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "sync_rule_owner_id_index" on "sync_rule" ("owner_id");`);
    this.addSql(`create index "sync_rule_status_next_run_at_index" on "sync_rule" ("status", "next_run_at");`);

    this.addSql(`create table "sync_checkpoint" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "rule_id" uuid not null, "run_id" uuid null, "source_state" jsonb not null, "target_state" jsonb not null, "committed_at" timestamptz not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`alter table "sync_checkpoint" add constraint "sync_checkpoint_rule_id_unique" unique ("rule_id");`);

    this.addSql(`create table "sync_run" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "rule_id" uuid not null, "status" text not null default 'queued', "attempt" int not null default 1, "scheduled_for" timestamptz not null, "source_snapshot" jsonb null, "target_snapshot" jsonb null, "migration_job_id" uuid null, "lease_owner" text null, "lease_expires_at" timestamptz null, "error" text null, "started_at" timestamptz null, "completed_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "sync_run_rule_id_created_at_index" on "sync_run" ("rule_id", "created_at");`);
    this.addSql(`create index "sync_run_owner_id_index" on "sync_run" ("owner_id");`);
    this.addSql(`create unique index "sync_run_one_active_per_rule" on "sync_run" ("rule_id") where "status" in ('queued', 'running');`);

    this.addSql(`create table "track_identity" ("id" uuid not null default gen_random_uuid(), "isrc" text null, "title" text not null, "artist" text not null, "album" text null, "duration_s" int null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "track_identity_isrc_index" on "track_identity" ("isrc");`);

    this.addSql(`create table "track_edge" ("id" uuid not null default gen_random_uuid(), "identity_id" uuid not null, "provider" text not null, "provider_track_id" text not null, "provider_uri" text null, "confidence" double precision not null, "source" text not null, "scope" text not null default 'global', "created_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "track_edge_identity_id_index" on "track_edge" ("identity_id");`);
    this.addSql(`alter table "track_edge" add constraint "track_edge_provider_provider_track_id_scope_unique" unique ("provider", "provider_track_id", "scope");`);

    this.addSql(`alter table "generation_draft" add constraint "generation_draft_status_check" check ("status" in ('draft', 'approved', 'confirmed', 'discarded'));`);

    this.addSql(`alter table "generation_draft_item" add constraint "generation_draft_item_draft_id_foreign" foreign key ("draft_id") references "generation_draft" ("id") on delete cascade;`);

    this.addSql(`alter table "import_record" add constraint "import_record_kind_check" check ("kind" in ('file', 'text', 'url'));`);
    this.addSql(`alter table "import_record" add constraint "import_record_state_check" check ("state" in ('previewed', 'queued', 'retained'));`);

    this.addSql(`alter table "migration_job" add constraint "migration_job_source_kind_check" check ("source_kind" in ('provider', 'import', 'generated', 'snapshot'));`);
    this.addSql(`alter table "migration_job" add constraint "migration_job_origin_check" check ("origin" in ('user', 'sync'));`);
    this.addSql(`alter table "migration_job" add constraint "migration_job_strictness_check" check ("strictness" in ('strict', 'balanced', 'lenient'));`);
    this.addSql(`alter table "migration_job" add constraint "migration_job_status_check" check ("status" in ('queued', 'running', 'awaiting_review', 'completed', 'failed', 'cancelled'));`);
    this.addSql(`alter table "migration_job" add constraint "migration_job_outcome_check" check ("outcome" in ('pending', 'running', 'completed', 'partial', 'failed'));`);

    this.addSql(`alter table "job_item" add constraint "job_item_job_id_foreign" foreign key ("job_id") references "migration_job" ("id") on delete cascade;`);
    this.addSql(`alter table "job_item" add constraint "job_item_confidence_range" check (confidence >= '0' and confidence <= '1');`);
    this.addSql(`alter table "job_item" add constraint "job_item_entity_type_check" check ("entity_type" in ('track', 'album', 'artist'));`);
    this.addSql(`alter table "job_item" add constraint "job_item_status_check" check ("status" in ('pending', 'matched', 'needs_review', 'written', 'skipped', 'failed'));`);
    this.addSql(`alter table "job_item" add constraint "job_item_review_action_check" check ("review_action" in ('approve', 'skip'));`);
    this.addSql(`alter table "job_item" add constraint "job_item_review_original_status_check" check ("review_original_status" in ('pending', 'matched', 'needs_review', 'written', 'skipped', 'failed'));`);

    this.addSql(`alter table "operation_ledger" add constraint "operation_ledger_job_id_foreign" foreign key ("job_id") references "migration_job" ("id") on delete cascade;`);
    this.addSql(`alter table "operation_ledger" add constraint "operation_ledger_item_id_foreign" foreign key ("item_id") references "job_item" ("id") on delete cascade;`);
    this.addSql(`alter table "operation_ledger" add constraint "operation_ledger_state_check" check ("state" in ('intended', 'called', 'observed', 'failed', 'ambiguous'));`);

    this.addSql(`alter table "organizer_job" add constraint "organizer_job_mode_check" check ("mode" in ('unfollow_playlist', 'delete_playlist', 'remove_tracks'));`);
    this.addSql(`alter table "organizer_job" add constraint "organizer_job_status_check" check ("status" in ('queued', 'running', 'completed', 'partial', 'failed'));`);

    this.addSql(`alter table "organizer_item" add constraint "organizer_item_job_id_foreign" foreign key ("job_id") references "organizer_job" ("id") on delete cascade;`);
    this.addSql(`alter table "organizer_item" add constraint "organizer_item_action_check" check ("action" in ('unfollow_playlist', 'delete_playlist', 'remove_tracks'));`);
    this.addSql(`alter table "organizer_item" add constraint "organizer_item_status_check" check ("status" in ('pending', 'running', 'succeeded', 'failed', 'ambiguous'));`);

    this.addSql(`alter table "plugin_record" add constraint "plugin_record_state_check" check ("state" in ('active', 'refused', 'quarantined'));`);

    this.addSql(`alter table "provider_account" add constraint "provider_account_status_check" check ("status" in ('connected', 'reauth_required', 'disconnected'));`);

    this.addSql(`alter table "provider_credential" add constraint "provider_credential_provider_account_id_foreign" foreign key ("provider_account_id") references "provider_account" ("id") on delete cascade;`);
    this.addSql(`alter table "provider_credential" add constraint "provider_credential_auth_kind_check" check ("auth_kind" in ('OAUTH_PKCE', 'OAUTH_DEVICE', 'HEADER_PASTE', 'DEVELOPER_USER_TOKEN', 'LONG_LIVED_TOKEN'));`);

    this.addSql(`alter table "review_decision" add constraint "review_decision_entity_type_check" check ("entity_type" in ('track', 'album', 'artist'));`);
    this.addSql(`alter table "review_decision" add constraint "review_decision_action_check" check ("action" in ('approve', 'skip'));`);

    this.addSql(`alter table "snapshot" add constraint "snapshot_profile_id_foreign" foreign key ("profile_id") references "snapshot_profile" ("id") on delete set null;`);
    this.addSql(`alter table "snapshot" add constraint "snapshot_status_check" check ("status" in ('queued', 'running', 'completed', 'partial', 'failed'));`);

    this.addSql(`alter table "sync_rule" add constraint "sync_rule_interval_positive" check (interval_minutes > 0);`);
    this.addSql(`alter table "sync_rule" add constraint "sync_rule_mode_check" check ("mode" in ('add_only', 'mirror'));`);
    this.addSql(`alter table "sync_rule" add constraint "sync_rule_status_check" check ("status" in ('active', 'paused', 'review_required'));`);

    this.addSql(`alter table "sync_checkpoint" add constraint "sync_checkpoint_rule_id_foreign" foreign key ("rule_id") references "sync_rule" ("id") on delete cascade;`);

    this.addSql(`alter table "sync_run" add constraint "sync_run_rule_id_foreign" foreign key ("rule_id") references "sync_rule" ("id") on delete cascade;`);
    this.addSql(`alter table "sync_run" add constraint "sync_run_status_check" check ("status" in ('queued', 'running', 'review_required', 'completed', 'failed'));`);

    this.addSql(`alter table "track_edge" add constraint "track_edge_identity_id_foreign" foreign key ("identity_id") references "track_identity" ("id") on delete cascade;`);
    this.addSql(`alter table "track_edge" add constraint "track_edge_confidence_range" check (confidence >= '0' and confidence <= '1');`);
    this.addSql(`alter table "track_edge" add constraint "track_edge_scope_check" check (scope = 'global' or (starts_with(scope, 'account:') and length(scope) > 8));`);
    this.addSql(`alter table "track_edge" add constraint "track_edge_source_check" check ("source" in ('isrc_exact', 'fuzzy', 'user_confirmed'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "generation_draft_item" drop constraint "generation_draft_item_draft_id_foreign";`);
    this.addSql(`alter table "job_item" drop constraint "job_item_job_id_foreign";`);
    this.addSql(`alter table "operation_ledger" drop constraint "operation_ledger_job_id_foreign";`);
    this.addSql(`alter table "operation_ledger" drop constraint "operation_ledger_item_id_foreign";`);
    this.addSql(`alter table "organizer_item" drop constraint "organizer_item_job_id_foreign";`);
    this.addSql(`alter table "provider_credential" drop constraint "provider_credential_provider_account_id_foreign";`);
    this.addSql(`alter table "snapshot" drop constraint "snapshot_profile_id_foreign";`);
    this.addSql(`alter table "sync_checkpoint" drop constraint "sync_checkpoint_rule_id_foreign";`);
    this.addSql(`alter table "sync_run" drop constraint "sync_run_rule_id_foreign";`);
    this.addSql(`alter table "track_edge" drop constraint "track_edge_identity_id_foreign";`);

    this.addSql(`drop table if exists "generation_draft" cascade;`);
    this.addSql(`drop table if exists "generation_draft_item" cascade;`);
    this.addSql(`drop table if exists "generation_preference" cascade;`);
    this.addSql(`drop table if exists "import_record" cascade;`);
    this.addSql(`drop table if exists "migration_job" cascade;`);
    this.addSql(`drop table if exists "job_item" cascade;`);
    this.addSql(`drop table if exists "operation_ledger" cascade;`);
    this.addSql(`drop table if exists "organizer_job" cascade;`);
    this.addSql(`drop table if exists "organizer_item" cascade;`);
    this.addSql(`drop table if exists "owner_session" cascade;`);
    this.addSql(`drop table if exists "plugin_allow_list_entry" cascade;`);
    this.addSql(`drop table if exists "plugin_record" cascade;`);
    this.addSql(`drop table if exists "provider_account" cascade;`);
    this.addSql(`drop table if exists "provider_credential" cascade;`);
    this.addSql(`drop table if exists "review_decision" cascade;`);
    this.addSql(`drop table if exists "share" cascade;`);
    this.addSql(`drop table if exists "snapshot_profile" cascade;`);
    this.addSql(`drop table if exists "snapshot" cascade;`);
    this.addSql(`drop table if exists "sync_rule" cascade;`);
    this.addSql(`drop table if exists "sync_checkpoint" cascade;`);
    this.addSql(`drop table if exists "sync_run" cascade;`);
    this.addSql(`drop table if exists "track_identity" cascade;`);
    this.addSql(`drop table if exists "track_edge" cascade;`);
  }

}
