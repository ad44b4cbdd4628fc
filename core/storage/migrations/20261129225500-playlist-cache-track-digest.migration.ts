import { Migration } from '@mikro-orm/migrations';

export class Migration20261129225500_playlist_cache_track_digest extends Migration {

  override name = 'Migration20261129225500_playlist_cache_track_digest';

  override up(): void | Promise<void> {
    // Caches written before stay without a digest: the Library workspace reads their tracks from the payload until their next refresh.
    this.addSql(`alter table "playlist_cache" add column "track_digest" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "playlist_cache" drop column "track_digest";`);
  }

}
