import { Migration } from '@mikro-orm/migrations';

export class Migration20261129084428_generation_progress extends Migration {

  override name = 'Migration20261129084428_generation_progress';

  override up(): void | Promise<void> {
    // One sequence numbers every change of a draft or its items: the generation progress events' ids.
    this.addSql(`create sequence "generation_progress_seq";`);
    this.addSql(`alter table "generation_draft" add "progress_seq" bigint null;`);
    this.addSql(`create or replace function "generation_draft_generation_draft_progress_fn"() returns trigger as $$ begin perform pg_advisory_xact_lock(1869182, hashtext(NEW.id::text));     NEW.progress_seq := nextval('generation_progress_seq');     perform pg_notify('opl_generation_progress', NEW.id::text);     return NEW; end; $$ language plpgsql;`);
    this.addSql(`create trigger "generation_draft_progress" BEFORE INSERT OR UPDATE on "generation_draft" for each ROW execute function "generation_draft_generation_draft_progress_fn"();`);

    this.addSql(`alter table "generation_draft_item" drop constraint "generation_draft_item_status_check";`);
    this.addSql(`alter table "generation_draft_item" add "candidates" jsonb not null default '[]', add "progress_seq" bigint null;`);
    this.addSql(`create index "generation_draft_item_draft_id_progress_seq_index" on "generation_draft_item" ("draft_id", "progress_seq");`);
    this.addSql(`alter table "generation_draft_item" add constraint "generation_draft_item_status_check" check ("status" in ('pending', 'resolved', 'unresolved', 'removed'));`);
    this.addSql(`create or replace function "generation_draft_item_generation_draft_item_progress_fn"() returns trigger as $$ begin perform pg_advisory_xact_lock(1869182, hashtext(NEW.draft_id::text));     NEW.progress_seq := nextval('generation_progress_seq');     perform pg_notify('opl_generation_progress', NEW.draft_id::text);     return NEW; end; $$ language plpgsql;`);
    this.addSql(`create trigger "generation_draft_item_progress" BEFORE INSERT OR UPDATE on "generation_draft_item" for each ROW execute function "generation_draft_item_generation_draft_item_progress_fn"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "generation_draft_progress" on "generation_draft";`);
    this.addSql(`drop function if exists "generation_draft_generation_draft_progress_fn"();`);
    this.addSql(`alter table "generation_draft" drop column "progress_seq";`);

    this.addSql(`drop index "generation_draft_item_draft_id_progress_seq_index";`);
    this.addSql(`alter table "generation_draft_item" drop constraint "generation_draft_item_status_check";`);
    this.addSql(`drop trigger if exists "generation_draft_item_progress" on "generation_draft_item";`);
    this.addSql(`drop function if exists "generation_draft_item_generation_draft_item_progress_fn"();`);
    this.addSql(`alter table "generation_draft_item" drop column "candidates", drop column "progress_seq";`);
    this.addSql(`delete from "generation_draft_item" where "status" = 'pending';`);
    this.addSql(`alter table "generation_draft_item" add constraint "generation_draft_item_status_check" check ("status" in ('resolved', 'unresolved', 'removed'));`);
    this.addSql(`drop sequence "generation_progress_seq";`);
  }

}
