import { Migration } from '@mikro-orm/migrations';

export class Migration20261129091030_snapshots extends Migration {

  override name = 'Migration20261129091030_snapshots';

  override up(): void | Promise<void> {
    this.addSql(`alter table "snapshot" add "origin" text not null default 'created', add "progress" jsonb not null default '{}', add "manifest" jsonb null, add "verification_reason" text null;`);
    this.addSql(`alter table "snapshot" add constraint "snapshot_origin_check" check ("origin" in ('created', 'uploaded'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "snapshot" drop constraint "snapshot_origin_check";`);
    this.addSql(`alter table "snapshot" drop column "origin", drop column "progress", drop column "manifest", drop column "verification_reason";`);
  }

}
