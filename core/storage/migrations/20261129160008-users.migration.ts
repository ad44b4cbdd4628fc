import { Migration } from '@mikro-orm/migrations';

export class Migration20261129160008_users extends Migration {

  override name = 'Migration20261129160008_users';

  override up(): void | Promise<void> {
    this.addSql(`create table "app_user" ("id" uuid not null default gen_random_uuid(), "issuer" text not null, "subject" text not null, "email" text null, "display_name" text null, "is_admin" boolean not null default false, "created_at" timestamptz not null default now(), "last_sign_in_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "app_user" add constraint "app_user_issuer_subject_unique" unique ("issuer", "subject");`);

    this.addSql(`create table "oidc_sign_in_attempt" ("state_hash" text not null, "browser_hash" text not null, "sealed_secrets" bytea not null, "key_id" text not null, "expires_at" timestamptz not null, primary key ("state_hash"));`);
    this.addSql(`create index "oidc_sign_in_attempt_expires_at_index" on "oidc_sign_in_attempt" ("expires_at");`);

    this.addSql(`alter table "owner_session" add "user_id" uuid null;`);
    this.addSql(`alter table "owner_session" add constraint "owner_session_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`);
    this.addSql(`create index "owner_session_user_id_index" on "owner_session" ("user_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "owner_session" drop constraint "owner_session_user_id_foreign";`);

    this.addSql(`drop table if exists "app_user" cascade;`);
    this.addSql(`drop table if exists "oidc_sign_in_attempt" cascade;`);

    this.addSql(`drop index "owner_session_user_id_index";`);
    this.addSql(`alter table "owner_session" drop column "user_id";`);
  }

}
