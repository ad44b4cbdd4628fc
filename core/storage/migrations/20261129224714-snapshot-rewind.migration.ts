import { Migration } from '@mikro-orm/migrations';

export class Migration20261129224714_snapshot_rewind extends Migration {

  override name = 'Migration20261129224714_snapshot_rewind';

  override up(): void | Promise<void> {
    this.addSql(`create table "snapshot_rewind" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "snapshot_id" uuid null, "account_id" uuid not null, "playlist_id" text not null, "status" text not null default 'running', "stats" jsonb not null default '{}', "error" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "snapshot_rewind_owner_id_account_id_playlist_id_cr_8360b_index" on "snapshot_rewind" ("owner_id", "account_id", "playlist_id", "created_at");`);

    this.addSql(`create table "snapshot_rewind_step" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "rewind_id" uuid not null, "seq" int not null, "kind" text not null, "payload" jsonb not null, "status" text not null default 'intended', "error" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "snapshot_rewind_step_rewind_id_seq_index" on "snapshot_rewind_step" ("rewind_id", "seq");`);

    this.addSql(`alter table "snapshot_rewind" add constraint "snapshot_rewind_snapshot_id_foreign" foreign key ("snapshot_id") references "snapshot" ("id") on delete set null;`);
    this.addSql(`alter table "snapshot_rewind" add constraint "snapshot_rewind_status_check" check ("status" in ('running', 'completed', 'failed'));`);

    this.addSql(`alter table "snapshot_rewind_step" add constraint "snapshot_rewind_step_rewind_id_foreign" foreign key ("rewind_id") references "snapshot_rewind" ("id") on delete cascade;`);
    this.addSql(`alter table "snapshot_rewind_step" add constraint "snapshot_rewind_step_kind_check" check ("kind" in ('remove', 'move', 'replace', 'add'));`);
    this.addSql(`alter table "snapshot_rewind_step" add constraint "snapshot_rewind_step_status_check" check ("status" in ('intended', 'done', 'failed'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "snapshot_rewind_step" drop constraint "snapshot_rewind_step_rewind_id_foreign";`);

    this.addSql(`drop table if exists "snapshot_rewind" cascade;`);
    this.addSql(`drop table if exists "snapshot_rewind_step" cascade;`);
  }

}
