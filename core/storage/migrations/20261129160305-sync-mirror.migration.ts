import { Migration } from '@mikro-orm/migrations';

export class Migration20261129160305_sync_mirror extends Migration {

  override name = 'Migration20261129160305_sync_mirror';

  override up(): void | Promise<void> {
    this.addSql(`create table "sync_mirror_step" ("id" uuid not null default gen_random_uuid(), "owner_id" text not null, "rule_id" uuid not null, "run_id" uuid not null, "seq" int not null, "kind" text not null, "payload" jsonb not null, "status" text not null default 'intended', "error" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "sync_mirror_step_rule_id_created_at_index" on "sync_mirror_step" ("rule_id", "created_at");`);
    this.addSql(`create index "sync_mirror_step_run_id_seq_index" on "sync_mirror_step" ("run_id", "seq");`);

    this.addSql(`alter table "sync_rule" drop constraint "sync_rule_status_check";`);
    this.addSql(`alter table "sync_rule" add "mirror_max_removals" int not null default 20, add "mirror_removes_foreign" boolean not null default false;`);
    this.addSql(`alter table "sync_rule" add constraint "sync_rule_mirror_max_removals_range" check (mirror_max_removals >= 0 and mirror_max_removals <= 10000);`);
    this.addSql(`alter table "sync_rule" add constraint "sync_rule_status_check" check ("status" in ('active', 'paused', 'review_required', 'approval_required'));`);

    this.addSql(`drop index "sync_run_one_active_per_rule";`);
    this.addSql(`alter table "sync_run" drop constraint "sync_run_status_check";`);
    this.addSql(`create unique index "sync_run_one_active_per_rule" on "sync_run" ("rule_id") where "status" in ('queued', 'running', 'review_required', 'approval_required');`);
    this.addSql(`alter table "sync_run" add constraint "sync_run_status_check" check ("status" in ('queued', 'running', 'review_required', 'approval_required', 'completed', 'failed', 'cancelled'));`);

    this.addSql(`alter table "sync_mirror_step" add constraint "sync_mirror_step_rule_id_foreign" foreign key ("rule_id") references "sync_rule" ("id") on delete cascade;`);
    this.addSql(`alter table "sync_mirror_step" add constraint "sync_mirror_step_kind_check" check ("kind" in ('remove', 'move', 'replace'));`);
    this.addSql(`alter table "sync_mirror_step" add constraint "sync_mirror_step_status_check" check ("status" in ('intended', 'done', 'failed'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "sync_mirror_step" cascade;`);

    this.addSql(`alter table "sync_rule" drop constraint "sync_rule_mirror_max_removals_range";`);
    this.addSql(`alter table "sync_rule" drop constraint "sync_rule_status_check";`);
    this.addSql(`alter table "sync_rule" drop column "mirror_max_removals", drop column "mirror_removes_foreign";`);
    this.addSql(`alter table "sync_rule" add constraint "sync_rule_status_check" check ("status" in ('active', 'paused', 'review_required'));`);

    this.addSql(`drop index "sync_run_one_active_per_rule";`);
    this.addSql(`alter table "sync_run" drop constraint "sync_run_status_check";`);
    this.addSql(`create unique index "sync_run_one_active_per_rule" on "sync_run" ("rule_id") where status = ANY (ARRAY['queued'::text, 'running'::text, 'review_required'::text]);`);
    this.addSql(`alter table "sync_run" add constraint "sync_run_status_check" check ("status" in ('queued', 'running', 'review_required', 'completed', 'failed', 'cancelled'));`);
  }

}
