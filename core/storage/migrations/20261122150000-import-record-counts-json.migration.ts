import { Migration } from '@mikro-orm/migrations';

export class Migration20261122150000_import_record_counts_json extends Migration {

  override name = 'Migration20261122150000_import_record_counts_json';

  override up(): void | Promise<void> {
    this.addSql(`alter table "import_record" add "playlist_count" int not null default 0, add "track_count" int not null default 0;`);
    // Records stored before the counts were: counted once here, instead of on every listing.
    this.addSql(`update "import_record" set "playlist_count" = jsonb_array_length("playlists"), "track_count" = (select coalesce(sum(jsonb_array_length(p->'tracks')), 0)::int from jsonb_array_elements("playlists") p);`);
    // Written once and read whole, never queried inside: stored as text, which PostgreSQL takes in about a third of the time of jsonb.
    this.addSql(`alter table "import_record" alter column "playlists" type json using "playlists"::json;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "import_record" alter column "playlists" type jsonb using "playlists"::jsonb;`);
    this.addSql(`alter table "import_record" drop column "playlist_count", drop column "track_count";`);
  }

}
