import { Migration } from '@mikro-orm/migrations';

export class Migration20261121120310_connections extends Migration {

  override name = 'Migration20261121120310_connections';

  override up(): void | Promise<void> {
    this.addSql(`create table "auth_attempt" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "state_hash" text not null, "provider" text not null, "plugin_id" text not null, "auth_kind" text not null, "account_label" text null, "reconnect_account_id" uuid null, "scopes" text[] not null default '{}', "redirect_uri" text null, "sealed_secrets" bytea not null, "key_id" text not null, "next_poll_at" timestamptz null, "expires_at" timestamptz not null, "created_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`alter table "auth_attempt" add constraint "auth_attempt_state_hash_unique" unique ("state_hash");`);
    this.addSql(`create index "auth_attempt_expires_at_index" on "auth_attempt" ("expires_at");`);

    this.addSql(`create table "playlist_cache" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "provider_account_id" uuid not null, "scope" text not null, "snapshot_id" text null, "payload" jsonb not null, "fetched_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "playlist_cache" add constraint "playlist_cache_scope_unique" unique ("provider_account_id", "scope");`);

    this.addSql(`create table "rate_limit_bucket" ("bucket_key" text not null, "tokens" double precision not null, "refilled_at" timestamptz not null, "blocked_until" timestamptz null, "quota_day" text null, "quota_used" double precision not null default 0, primary key ("bucket_key"));`);

    this.addSql(`alter table "provider_account" add "plugin_id" text null, add "is_demo" boolean not null default false;`);

    this.addSql(`alter table "auth_attempt" add constraint "auth_attempt_auth_kind_check" check ("auth_kind" in ('OAUTH_PKCE', 'OAUTH_DEVICE', 'HEADER_PASTE', 'DEVELOPER_USER_TOKEN', 'LONG_LIVED_TOKEN'));`);

    this.addSql(`alter table "playlist_cache" add constraint "playlist_cache_provider_account_id_foreign" foreign key ("provider_account_id") references "provider_account" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "auth_attempt" cascade;`);
    this.addSql(`drop table if exists "playlist_cache" cascade;`);
    this.addSql(`drop table if exists "rate_limit_bucket" cascade;`);

    this.addSql(`alter table "provider_account" drop column "plugin_id", drop column "is_demo";`);
  }

}
