import { Migration } from '@mikro-orm/migrations';

export class Migration20261129192246_sync_mirror_add_step extends Migration {

  override name = 'Migration20261129192246_sync_mirror_add_step';

  override up(): void | Promise<void> {
    this.addSql(`alter table "sync_mirror_step" drop constraint "sync_mirror_step_kind_check";`);
    this.addSql(`alter table "sync_mirror_step" add constraint "sync_mirror_step_kind_check" check ("kind" in ('remove', 'move', 'replace', 'add'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "sync_mirror_step" drop constraint "sync_mirror_step_kind_check";`);
    this.addSql(`alter table "sync_mirror_step" add constraint "sync_mirror_step_kind_check" check ("kind" in ('remove', 'move', 'replace'));`);
  }

}
