import { Migration } from '@mikro-orm/migrations';

export class Migration20261129083842_sync_rules extends Migration {

  override name = 'Migration20261129083842_sync_rules';

  override up(): void | Promise<void> {
    // The sync event ids (rules and runs share one sequence; the triggers below take from it).
    this.addSql(`create sequence if not exists "sync_progress_seq";`);
    this.addSql(`alter table "sync_rule" drop constraint "sync_rule_interval_positive";`);
    this.addSql(`alter table "sync_rule" add "name" text not null default '', add "collection_kind" text not null default 'PLAYLIST', add "pause_code" text null, add "schedule_kind" text not null default 'interval', add "daily_at" text null, add "time_zone" text null, add "progress_seq" bigint null;`);
    this.addSql(`alter table "sync_rule" alter column "interval_minutes" drop not null;`);
    this.addSql(`create index "sync_rule_owner_id_progress_seq_index" on "sync_rule" ("owner_id", "progress_seq");`);
    this.addSql(`alter table "sync_rule" add constraint "sync_rule_schedule_complete" check ((schedule_kind = 'interval' and interval_minutes is not null) or (schedule_kind = 'daily' and daily_at is not null and time_zone is not null));`);
    this.addSql(`alter table "sync_rule" add constraint "sync_rule_collection_kind_check" check ("collection_kind" in ('PLAYLIST', 'LIKED_TRACKS'));`);
    this.addSql(`alter table "sync_rule" add constraint "sync_rule_schedule_kind_check" check ("schedule_kind" in ('interval', 'daily'));`);
    this.addSql(`alter table "sync_rule" add constraint "sync_rule_interval_positive" check (interval_minutes is null or (interval_minutes >= 5 and interval_minutes <= 10080));`);
    this.addSql(`create or replace function "sync_rule_sync_rule_progress_fn"() returns trigger as $$ begin NEW.progress_seq := nextval('sync_progress_seq');     perform pg_notify('opl_sync_progress', NEW.owner_id);     return NEW; end; $$ language plpgsql;`);
    this.addSql(`create trigger "sync_rule_progress" BEFORE INSERT OR UPDATE on "sync_rule" for each ROW execute function "sync_rule_sync_rule_progress_fn"();`);

    this.addSql(`drop index "sync_run_one_active_per_rule";`);
    this.addSql(`alter table "sync_run" drop constraint "sync_run_status_check";`);
    this.addSql(`alter table "sync_run" add "trigger" text not null default 'schedule', add "stats" jsonb null, add "error_code" text null, add "progress_seq" bigint null;`);
    this.addSql(`create index "sync_run_migration_job_id_index" on "sync_run" ("migration_job_id");`);
    this.addSql(`create index "sync_run_owner_id_progress_seq_index" on "sync_run" ("owner_id", "progress_seq");`);
    this.addSql(`create unique index "sync_run_one_active_per_rule" on "sync_run" ("rule_id") where "status" in ('queued', 'running', 'review_required');`);
    this.addSql(`alter table "sync_run" add constraint "sync_run_status_check" check ("status" in ('queued', 'running', 'review_required', 'completed', 'failed', 'cancelled'));`);
    this.addSql(`create or replace function "sync_run_sync_run_progress_fn"() returns trigger as $$ begin NEW.progress_seq := nextval('sync_progress_seq');     perform pg_notify('opl_sync_progress', NEW.owner_id);     return NEW; end; $$ language plpgsql;`);
    this.addSql(`create trigger "sync_run_progress" BEFORE INSERT OR UPDATE on "sync_run" for each ROW execute function "sync_run_sync_run_progress_fn"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "sync_rule_owner_id_progress_seq_index";`);
    this.addSql(`alter table "sync_rule" drop constraint "sync_rule_schedule_complete";`);
    this.addSql(`alter table "sync_rule" drop constraint "sync_rule_collection_kind_check";`);
    this.addSql(`alter table "sync_rule" drop constraint "sync_rule_schedule_kind_check";`);
    this.addSql(`alter table "sync_rule" drop constraint "sync_rule_interval_positive";`);
    this.addSql(`drop trigger if exists "sync_rule_progress" on "sync_rule";`);
    this.addSql(`drop function if exists "sync_rule_sync_rule_progress_fn"();`);
    this.addSql(`alter table "sync_rule" drop column "name", drop column "collection_kind", drop column "pause_code", drop column "schedule_kind", drop column "daily_at", drop column "time_zone", drop column "progress_seq";`);
    this.addSql(`alter table "sync_rule" alter column "interval_minutes" set not null;`);
    this.addSql(`alter table "sync_rule" add constraint "sync_rule_interval_positive" check (interval_minutes > 0);`);

    this.addSql(`drop index "sync_run_migration_job_id_index";`);
    this.addSql(`drop index "sync_run_owner_id_progress_seq_index";`);
    this.addSql(`drop index "sync_run_one_active_per_rule";`);
    this.addSql(`alter table "sync_run" drop constraint "sync_run_status_check";`);
    this.addSql(`drop trigger if exists "sync_run_progress" on "sync_run";`);
    this.addSql(`drop function if exists "sync_run_sync_run_progress_fn"();`);
    this.addSql(`alter table "sync_run" drop column "trigger", drop column "stats", drop column "error_code", drop column "progress_seq";`);
    this.addSql(`create unique index "sync_run_one_active_per_rule" on "sync_run" ("rule_id") where status = ANY (ARRAY['queued'::text, 'running'::text]);`);
    this.addSql(`alter table "sync_run" add constraint "sync_run_status_check" check ("status" in ('queued', 'running', 'review_required', 'completed', 'failed'));`);
    this.addSql(`drop sequence if exists "sync_progress_seq";`);
  }

}
