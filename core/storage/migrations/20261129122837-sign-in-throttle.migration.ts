import { Migration } from '@mikro-orm/migrations';

export class Migration20261129122837_sign_in_throttle extends Migration {

  override name = 'Migration20261129122837_sign_in_throttle';

  override up(): void | Promise<void> {
    this.addSql(`create table "sign_in_device" ("token_hash" text not null, "subject" text not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("token_hash"));`);
    this.addSql(`create index "sign_in_device_expires_at_index" on "sign_in_device" ("expires_at");`);

    this.addSql(`create table "sign_in_throttle" ("key_hash" text not null, "attempts" int not null, "window_started_at" timestamptz not null, "locked_until" timestamptz null, "lockouts" int not null default 0, "updated_at" timestamptz not null, primary key ("key_hash"));`);
    this.addSql(`create index "sign_in_throttle_updated_at_index" on "sign_in_throttle" ("updated_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "sign_in_device" cascade;`);
    this.addSql(`drop table if exists "sign_in_throttle" cascade;`);
  }

}
