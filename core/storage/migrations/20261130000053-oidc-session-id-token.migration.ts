import { Migration } from '@mikro-orm/migrations';

export class Migration20261130000053_oidc_session_id_token extends Migration {

  override name = 'Migration20261130000053_oidc_session_id_token';

  override up(): void | Promise<void> {
    this.addSql(`alter table "owner_session" add "id_token_sealed" bytea null, add "id_token_key_id" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "owner_session" drop column "id_token_sealed", drop column "id_token_key_id";`);
  }

}
