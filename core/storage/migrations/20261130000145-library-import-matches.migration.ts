import { Migration } from '@mikro-orm/migrations';

export class Migration20261130000145_library_import_matches extends Migration {

  override name = 'Migration20261130000145_library_import_matches';

  override up(): void | Promise<void> {
    this.addSql(`create table "library_import_match" ("import_record_id" uuid not null, "track_key" text not null, "provider" text not null, "owner_id" text not null, "provider_account_id" uuid not null, "provider_track_id" text not null, "created_at" timestamptz not null default now(), primary key ("import_record_id", "track_key", "provider"));`);
    this.addSql(`create index "library_import_match_owner_id_index" on "library_import_match" ("owner_id");`);

    this.addSql(`alter table "library_import_match" add constraint "library_import_match_import_record_id_foreign" foreign key ("import_record_id") references "import_record" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "library_import_match" cascade;`);
  }

}
