import { Migration } from '@mikro-orm/migrations';

export class Migration20261129162118_automatic_snapshot_profiles extends Migration {

  override name = 'Migration20261129162118_automatic_snapshot_profiles';

  override up(): void | Promise<void> {
    this.addSql(`alter table "snapshot_profile" add "automatic_origin" text null, add "automatic_account_id" uuid null;`);
    this.addSql(`alter table "snapshot_profile" add constraint "snapshot_profile_automatic_unique" unique ("owner_id", "automatic_account_id", "automatic_origin");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "snapshot_profile" drop constraint "snapshot_profile_automatic_unique";`);
    this.addSql(`alter table "snapshot_profile" drop column "automatic_origin", drop column "automatic_account_id";`);
  }

}
