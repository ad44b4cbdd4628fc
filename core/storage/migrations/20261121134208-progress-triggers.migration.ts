import { Migration } from '@mikro-orm/migrations';

export class Migration20261121134208_progress_triggers extends Migration {

  override name = 'Migration20261121134208_progress_triggers';

  override up(): void | Promise<void> {
    this.addSql(`drop trigger if exists "migration_job_progress" on "migration_job";`);
    this.addSql(`drop function if exists "migration_job_migration_job_progress_fn"();`);
    this.addSql(`create or replace function "migration_job_migration_job_progress_fn"() returns trigger as $$ begin perform pg_advisory_xact_lock(1869181, hashtext(NEW.id::text));     NEW.progress_seq := nextval('migration_progress_seq');     perform pg_notify('opl_migration_progress', NEW.id::text);     return NEW; end; $$ language plpgsql;`);
    this.addSql(`create trigger "migration_job_progress" BEFORE INSERT OR UPDATE on "migration_job" for each ROW execute function "migration_job_migration_job_progress_fn"();`);

    this.addSql(`drop trigger if exists "job_item_progress" on "job_item";`);
    this.addSql(`drop function if exists "job_item_job_item_progress_fn"();`);
    this.addSql(`create or replace function "job_item_job_item_progress_fn"() returns trigger as $$ begin perform pg_advisory_xact_lock(1869181, hashtext(NEW.job_id::text));     NEW.progress_seq := nextval('migration_progress_seq');     perform pg_notify('opl_migration_progress', NEW.job_id::text);     return NEW; end; $$ language plpgsql;`);
    this.addSql(`create trigger "job_item_progress" BEFORE INSERT OR UPDATE on "job_item" for each ROW execute function "job_item_job_item_progress_fn"();`);
    // The triggers are now declared on the entities; the first version's shared function goes.
    this.addSql(`drop function if exists "opl_migration_progress"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "job_item_progress" on "job_item";`);
    this.addSql(`drop function if exists "job_item_job_item_progress_fn"();`);
    this.addSql(`drop trigger if exists "migration_job_progress" on "migration_job";`);
    this.addSql(`drop function if exists "migration_job_migration_job_progress_fn"();`);
    // Back to the first version: one shared function for both tables.
    this.addSql(`create function "opl_migration_progress"() returns trigger language plpgsql as $$
      declare job uuid;
      begin
        if TG_TABLE_NAME = 'migration_job' then job := NEW.id; else job := NEW.job_id; end if;
        perform pg_advisory_xact_lock(1869181, hashtext(job::text));
        NEW.progress_seq := nextval('migration_progress_seq');
        perform pg_notify('opl_migration_progress', job::text);
        return NEW;
      end $$;`);
    this.addSql(`create trigger "migration_job_progress" before insert or update on "migration_job" for each row execute function "opl_migration_progress"();`);
    this.addSql(`create trigger "job_item_progress" before insert or update on "job_item" for each row execute function "opl_migration_progress"();`);
  }

}
