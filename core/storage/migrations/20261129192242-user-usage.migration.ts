import { Migration } from '@mikro-orm/migrations';

export class Migration20261129192242_user_usage extends Migration {

  override name = 'Migration20261129192242_user_usage';

  override up(): void | Promise<void> {
    this.addSql(`create table "user_usage" ("id" uuid not null default gen_random_uuid(), "user_id" text not null, "kind" text not null, "amount" bigint not null, "used_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "user_usage_user_id_kind_used_at_index" on "user_usage" ("user_id", "kind", "used_at");`);
    this.addSql(`create index "user_usage_used_at_index" on "user_usage" ("used_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "user_usage" cascade;`);
  }

}
