import { Migration } from '@mikro-orm/migrations';

export class Migration20261129041135_generator_drafts extends Migration {

  override name = 'Migration20261129041135_generator_drafts';

  override up(): void | Promise<void> {
    this.addSql(`alter table "generation_draft" drop constraint "generation_draft_status_check";`);
    this.addSql(`alter table "generation_draft" add "prompt_hash" text null, add "generation" jsonb not null default '{}', add "expires_at" timestamptz not null;`);
    this.addSql(`create index "generation_draft_expires_at_index" on "generation_draft" ("expires_at");`);
    this.addSql(`alter table "generation_draft" add constraint "generation_draft_status_check" check ("status" in ('generating', 'draft', 'approved', 'confirmed', 'discarded', 'failed'));`);

    this.addSql(`alter table "generation_draft_item" add "status" text not null default 'resolved', add "approved" boolean not null default false, add "target_id" text null, add "explicit" boolean null, add "confidence" double precision null, add "reason" text null;`);
    this.addSql(`alter table "generation_draft_item" alter column "target_uri" drop not null;`);
    this.addSql(`alter table "generation_draft_item" add constraint "generation_draft_item_confidence_range" check (confidence >= '0' and confidence <= '1');`);
    this.addSql(`alter table "generation_draft_item" add constraint "generation_draft_item_status_check" check ("status" in ('resolved', 'unresolved', 'removed'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "generation_draft_expires_at_index";`);
    this.addSql(`alter table "generation_draft" drop constraint "generation_draft_status_check";`);
    this.addSql(`alter table "generation_draft" drop column "prompt_hash", drop column "generation", drop column "expires_at";`);
    this.addSql(`alter table "generation_draft" add constraint "generation_draft_status_check" check ("status" in ('draft', 'approved', 'confirmed', 'discarded'));`);

    this.addSql(`alter table "generation_draft_item" drop constraint "generation_draft_item_confidence_range";`);
    this.addSql(`alter table "generation_draft_item" drop constraint "generation_draft_item_status_check";`);
    this.addSql(`alter table "generation_draft_item" drop column "status", drop column "approved", drop column "target_id", drop column "explicit", drop column "confidence", drop column "reason";`);
    this.addSql(`alter table "generation_draft_item" alter column "target_uri" set not null;`);
  }

}
