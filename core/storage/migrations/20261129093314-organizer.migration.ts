import { Migration } from '@mikro-orm/migrations';

export class Migration20261129093314_organizer extends Migration {

  override name = 'Migration20261129093314_organizer';

  override up(): void | Promise<void> {
    this.addSql(`create table "organizer_preflight" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "provider" text not null, "account_id" text not null, "action" text not null, "plan" jsonb not null, "confirmation_phrase" text null, "expires_at" timestamptz not null, "created_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "organizer_preflight_owner_id_created_at_index" on "organizer_preflight" ("owner_id", "created_at");`);
    this.addSql(`create index "organizer_preflight_expires_at_index" on "organizer_preflight" ("expires_at");`);

    this.addSql(`alter table "organizer_job" drop constraint "organizer_job_mode_check";`);
    this.addSql(`alter table "organizer_job" add "preflight_id" uuid null, add "lease_owner" text null, add "lease_until" timestamptz null;`);
    this.addSql(`alter table "organizer_job" add constraint "organizer_job_preflight_id_unique" unique ("preflight_id");`);
    this.addSql(`alter table "organizer_job" add constraint "organizer_job_mode_check" check ("mode" in ('unfollow_playlist', 'delete_playlist', 'remove_tracks', 'restore_tracks'));`);

    this.addSql(`alter table "organizer_item" drop constraint "organizer_item_action_check";`);
    this.addSql(`alter table "organizer_item" add "baseline" jsonb null, add "relation" text null, add "notes" jsonb null;`);
    this.addSql(`alter table "organizer_item" add constraint "organizer_item_action_check" check ("action" in ('unfollow_playlist', 'delete_playlist', 'remove_tracks', 'restore_tracks'));`);

    this.addSql(`alter table "organizer_preflight" add constraint "organizer_preflight_action_check" check ("action" in ('unfollow_playlist', 'delete_playlist', 'remove_tracks', 'restore_tracks'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "organizer_preflight" cascade;`);

    this.addSql(`alter table "organizer_item" drop constraint "organizer_item_action_check";`);
    this.addSql(`alter table "organizer_item" drop column "baseline", drop column "relation", drop column "notes";`);
    this.addSql(`alter table "organizer_item" add constraint "organizer_item_action_check" check ("action" in ('unfollow_playlist', 'delete_playlist', 'remove_tracks'));`);

    this.addSql(`alter table "organizer_job" drop constraint "organizer_job_preflight_id_unique";`);
    this.addSql(`alter table "organizer_job" drop constraint "organizer_job_mode_check";`);
    this.addSql(`alter table "organizer_job" drop column "preflight_id", drop column "lease_owner", drop column "lease_until";`);
    this.addSql(`alter table "organizer_job" add constraint "organizer_job_mode_check" check ("mode" in ('unfollow_playlist', 'delete_playlist', 'remove_tracks'));`);
  }

}
