import { Migration } from '@mikro-orm/migrations';

export class Migration20261129120651_library_member_pairs extends Migration {

  override name = 'Migration20261129120651_library_member_pairs';

  override up(): void | Promise<void> {
    this.addSql(`create table "library_member_pair" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "a_account_id" uuid not null, "a_playlist_id" text not null, "b_account_id" uuid not null, "b_playlist_id" text not null, "relation" text not null, "created_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`alter table "library_member_pair" add constraint "library_member_pair_unique" unique ("owner_id", "a_account_id", "a_playlist_id", "b_account_id", "b_playlist_id");`);

    this.addSql(`alter table "library_member_pair" add constraint "library_member_pair_relation_check" check ("relation" in ('linked', 'apart'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "library_member_pair" cascade;`);
  }

}
