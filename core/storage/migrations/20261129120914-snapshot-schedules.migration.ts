import { Migration } from '@mikro-orm/migrations';

export class Migration20261129120914_snapshot_schedules extends Migration {

  override name = 'Migration20261129120914_snapshot_schedules';

  override up(): void | Promise<void> {
    this.addSql(`alter table "snapshot_profile" add "schedule" jsonb null, add "next_run_at" timestamptz null, add "retention" jsonb null;`);
    this.addSql(`create index "snapshot_profile_next_run_at_index" on "snapshot_profile" ("next_run_at");`);

    // One sequence numbers every change of a snapshot: the snapshot progress events' ids.
    this.addSql(`create sequence if not exists "snapshot_progress_seq";`);
    this.addSql(`alter table "snapshot" add "progress_seq" bigint null;`);
    this.addSql(`create or replace function "snapshot_snapshot_progress_fn"() returns trigger as $$ begin NEW.progress_seq := nextval('snapshot_progress_seq');     perform pg_notify('opl_snapshot_progress', NEW.id::text);     return NEW; end; $$ language plpgsql;`);
    this.addSql(`create trigger "snapshot_progress" BEFORE INSERT OR UPDATE on "snapshot" for each ROW execute function "snapshot_snapshot_progress_fn"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "snapshot_progress" on "snapshot";`);
    this.addSql(`drop function if exists "snapshot_snapshot_progress_fn"();`);
    this.addSql(`alter table "snapshot" drop column "progress_seq";`);
    this.addSql(`drop sequence if exists "snapshot_progress_seq";`);

    this.addSql(`drop index "snapshot_profile_next_run_at_index";`);
    this.addSql(`alter table "snapshot_profile" drop column "schedule", drop column "next_run_at", drop column "retention";`);
  }

}
