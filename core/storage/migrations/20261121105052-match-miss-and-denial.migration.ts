import { Migration } from '@mikro-orm/migrations';

export class Migration20261121105052_match_miss_and_denial extends Migration {

  override name = 'Migration20261121105052_match_miss_and_denial';

  override up(): void | Promise<void> {
    this.addSql(`create table "match_denial" ("id" uuid not null default gen_random_uuid(), "scope" text not null, "source_provider" text not null, "source_key" text not null, "target_provider" text not null, "target_track_id" text not null, "created_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`alter table "match_denial" add constraint "match_denial_scope_source_provider_source_key_tar_f8814_unique" unique ("scope", "source_provider", "source_key", "target_provider", "target_track_id");`);

    this.addSql(`create table "match_miss" ("id" uuid not null default gen_random_uuid(), "source_provider" text not null, "source_key" text not null, "target_provider" text not null, "strictness" text not null, "attempts" int not null default 1, "last_tried_at" timestamptz not null, "retry_after" timestamptz not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`alter table "match_miss" add constraint "match_miss_source_provider_source_key_target_prov_07708_unique" unique ("source_provider", "source_key", "target_provider", "strictness");`);

    this.addSql(`alter table "match_denial" add constraint "match_denial_scope_check" check (starts_with(scope, 'account:') and length(scope) > 8);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "match_denial" cascade;`);
    this.addSql(`drop table if exists "match_miss" cascade;`);
  }

}
