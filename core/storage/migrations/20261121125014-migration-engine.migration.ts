import { Migration } from '@mikro-orm/migrations';

/** First key of the per-job advisory lock (`pg_advisory_xact_lock(key, hashtext(job id))`); the services take the same lock. */
const MIGRATION_PROGRESS_LOCK = 1_869_181;

export class Migration20261121125014_migration_engine extends Migration {

  override name = 'Migration20261121125014_migration_engine';

  override up(): void | Promise<void> {
    this.addSql(`alter table "migration_job" drop constraint "migration_job_status_check";`);
    this.addSql(`alter table "migration_job" drop constraint "migration_job_strictness_check";`);
    this.addSql(`alter table "migration_job" add "phase" text not null default 'created', add "lease_owner" text null, add "lease_expires_at" timestamptz null, add "resume_at" timestamptz null, add "error_code" text null, add "detail_purged_at" timestamptz null, add "progress_seq" bigint null;`);
    this.addSql(`alter table "migration_job" alter column "strictness" set default 'same_recording';`);
    this.addSql(`create index "migration_job_target_account_id_created_at_index" on "migration_job" ("target_account_id", "created_at");`);
    this.addSql(`alter table "migration_job" add constraint "migration_job_phase_check" check ("phase" in ('created', 'items_ready', 'matched', 'written'));`);
    this.addSql(`alter table "migration_job" add constraint "migration_job_status_check" check ("status" in ('queued', 'running', 'awaiting_review', 'paused', 'completed', 'failed', 'cancelled'));`);
    this.addSql(`update "migration_job" set "strictness" = case "strictness" when 'strict' then 'exact_release' when 'lenient' then 'best_effort' else 'same_recording' end;`);
    this.addSql(`alter table "migration_job" add constraint "migration_job_strictness_check" check ("strictness" in ('exact_release', 'same_recording', 'best_effort'));`);

    this.addSql(`alter table "job_item" add "candidates" jsonb null, add "match_detail" jsonb null, add "progress_seq" bigint null;`);
    this.addSql(`create index "job_item_job_id_progress_seq_index" on "job_item" ("job_id", "progress_seq");`);

    // Progress events are the rows themselves: every insert or update of a job or one of its items
    // takes the next number of one sequence, under a per-job transaction lock, so within a job the
    // numbers follow commit order and a client resuming after number N misses nothing. The
    // notification wakes the event streams of every process (delivered at commit).
    this.addSql(`create sequence "migration_progress_seq";`);
    this.addSql(`create function "opl_migration_progress"() returns trigger language plpgsql as $$
      declare job uuid;
      begin
        if TG_TABLE_NAME = 'migration_job' then job := NEW.id; else job := NEW.job_id; end if;
        perform pg_advisory_xact_lock(${MIGRATION_PROGRESS_LOCK}, hashtext(job::text));
        NEW.progress_seq := nextval('migration_progress_seq');
        perform pg_notify('opl_migration_progress', job::text);
        return NEW;
      end $$;`);
    this.addSql(`create trigger "migration_job_progress" before insert or update on "migration_job" for each row execute function "opl_migration_progress"();`);
    this.addSql(`create trigger "job_item_progress" before insert or update on "job_item" for each row execute function "opl_migration_progress"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger "job_item_progress" on "job_item";`);
    this.addSql(`drop trigger "migration_job_progress" on "migration_job";`);
    this.addSql(`drop function "opl_migration_progress"();`);
    this.addSql(`drop sequence "migration_progress_seq";`);
    this.addSql(`drop index "job_item_job_id_progress_seq_index";`);
    this.addSql(`alter table "job_item" drop column "candidates", drop column "match_detail", drop column "progress_seq";`);

    this.addSql(`drop index "migration_job_target_account_id_created_at_index";`);
    this.addSql(`alter table "migration_job" drop constraint "migration_job_phase_check";`);
    this.addSql(`alter table "migration_job" drop constraint "migration_job_strictness_check";`);
    this.addSql(`alter table "migration_job" drop constraint "migration_job_status_check";`);
    this.addSql(`alter table "migration_job" drop column "phase", drop column "lease_owner", drop column "lease_expires_at", drop column "resume_at", drop column "error_code", drop column "detail_purged_at", drop column "progress_seq";`);
    this.addSql(`alter table "migration_job" alter column "strictness" set default 'balanced';`);
    this.addSql(`update "migration_job" set "strictness" = case "strictness" when 'exact_release' then 'strict' when 'best_effort' then 'lenient' else 'balanced' end;`);
    this.addSql(`alter table "migration_job" add constraint "migration_job_strictness_check" check ("strictness" in ('strict', 'balanced', 'lenient'));`);
    this.addSql(`alter table "migration_job" add constraint "migration_job_status_check" check ("status" in ('queued', 'running', 'awaiting_review', 'completed', 'failed', 'cancelled'));`);
  }

}
