import { Migration } from '@mikro-orm/migrations';

export class Migration20261121144814_share_details extends Migration {

  override name = 'Migration20261121144814_share_details';

  override up(): void | Promise<void> {
    this.addSql(`alter table "share" add "name" text not null default '', add "track_count" int not null default 0, add "source_provider" text null, add "expires_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "share" drop column "name", drop column "track_count", drop column "source_provider", drop column "expires_at";`);
  }

}
