import { Migration } from '@mikro-orm/migrations';

export class Migration20261129133356_sync_rule_deletions extends Migration {

  override name = 'Migration20261129133356_sync_rule_deletions';

  override up(): void | Promise<void> {
    this.addSql(`create table "sync_rule_deletion" ("rule_id" uuid not null, "owner_id" text not null, "progress_seq" bigint not null, "deleted_at" timestamptz not null, primary key ("rule_id"));`);
    this.addSql(`create index "sync_rule_deletion_owner_id_progress_seq_index" on "sync_rule_deletion" ("owner_id", "progress_seq");`);
    this.addSql(`create index "sync_rule_deletion_deleted_at_index" on "sync_rule_deletion" ("deleted_at");`);

    this.addSql(`create or replace function "sync_rule_sync_rule_deleted_fn"() returns trigger as $$ begin insert into sync_rule_deletion (rule_id, owner_id, progress_seq, deleted_at) values (OLD.id, OLD.owner_id, nextval('sync_progress_seq'), now());     perform pg_notify('opl_sync_progress', OLD.owner_id);     return OLD; end; $$ language plpgsql;`);
    this.addSql(`create trigger "sync_rule_deleted" AFTER DELETE on "sync_rule" for each ROW execute function "sync_rule_sync_rule_deleted_fn"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "sync_rule_deletion" cascade;`);

    this.addSql(`drop trigger if exists "sync_rule_deleted" on "sync_rule";`);
    this.addSql(`drop function if exists "sync_rule_sync_rule_deleted_fn"();`);
  }

}
