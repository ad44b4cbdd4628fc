import { Migration } from '@mikro-orm/migrations';

export class Migration20261129224434_share_recipients extends Migration {

  override name = 'Migration20261129224434_share_recipients';

  override up(): void | Promise<void> {
    this.addSql(`create table "share_recipient" ("id" uuid not null default gen_random_uuid(), "share_id" uuid not null, "token_hash" text not null, "created_at" timestamptz not null default now(), "expires_at" timestamptz not null, "last_seen_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "share_recipient_share_id_index" on "share_recipient" ("share_id");`);
    this.addSql(`alter table "share_recipient" add constraint "share_recipient_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "share_recipient_expires_at_index" on "share_recipient" ("expires_at");`);

    this.addSql(`alter table "share_recipient" add constraint "share_recipient_share_id_foreign" foreign key ("share_id") references "share" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "share_recipient" cascade;`);
  }

}
