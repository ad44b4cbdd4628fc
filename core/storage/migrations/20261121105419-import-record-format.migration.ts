import { Migration } from '@mikro-orm/migrations';

export class Migration20261121105419_import_record_format extends Migration {

  override name = 'Migration20261121105419_import_record_format';

  override up(): void | Promise<void> {
    this.addSql(`alter table "import_record" add "format" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "import_record" drop column "format";`);
  }

}
