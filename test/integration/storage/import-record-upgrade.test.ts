import { randomUUID } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import { trackSchema } from '@opl/plugin-sdk/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../core/logging/logger.ts';
import { ImportRecordService } from '../../../core/services/imports/index.ts';
import { createOrmConfig } from '../../../core/storage/index.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

/** The last migration before import records were counted, compacted and stored as json. */
const BEFORE = '20261121144814-share-details.migration';

describe('import records stored before the counts and the compact json', () => {
  let database: TestDatabase;
  let orm: MikroORM;

  beforeAll(async () => {
    database = await createTestDatabase();
    orm = await MikroORM.init(createOrmConfig({ connectionString: database.url, logger: createLogger({ level: 'silent' }) }));
  });
  afterAll(async () => {
    await orm?.close(true);
    await database?.drop();
  });

  it('are counted by the migration and read back as they were stored', async () => {
    await orm.migrator.up({ to: BEFORE });
    const connection = orm.em.getConnection();
    const full = (title: string, position: number) => trackSchema.parse({ title, artist: 'Röyksopp', position, provider_uris: { spotify: 'spotify:track:0DiWol3AO6WpXZgp0goxAV' } });
    const playlists = [
      { id: null, name: 'Melody A.M.', description: null, tracks: [full('So Easy', 0), full('Eple', 1), full('Eple', 2)] },
      { id: null, name: 'Empty', description: null, tracks: [] },
    ];
    const id = randomUUID();
    await connection.execute(`insert into import_record (id, owner_id, kind, source_label, playlists, expires_at) values (?, 'local', 'text', 'List', ?::jsonb, now() + interval '1 day')`, [id, JSON.stringify(playlists)]);

    await orm.migrator.up();
    const [row] = await connection.execute<Array<{ playlist_count: number; track_count: number; type: string }>>(
      `select playlist_count, track_count, (select data_type from information_schema.columns where table_name = 'import_record' and column_name = 'playlists') as type from import_record where id = ?`,
      [id],
    );
    expect(row).toEqual({ playlist_count: 2, track_count: 3, type: 'json' });

    const records = new ImportRecordService({ execute: (statement) => connection.execute(statement.text, statement.values), ttlHours: 24 });
    expect((await records.list('local')).map((entry) => [entry.id, entry.playlistCount, entry.trackCount])).toEqual([[id, 2, 3]]);
    expect((await records.get('local', id)).playlists).toEqual(playlists);

    // A record stored now is counted on the way in and reads back the same, in full.
    const created = await records.create({ ownerId: 'local', kind: 'text', name: 'New', format: 'txt', playlists: [playlists[0]!] as never, issues: [] });
    expect((await records.get('local', created.id)).playlists).toEqual([playlists[0]]);
    const [stored] = await connection.execute<Array<{ playlists: Array<{ tracks: object[] }> }>>('select playlists from import_record where id = ?', [created.id]);
    expect(stored!.playlists[0]!.tracks[0]).toEqual({ title: 'So Easy', artist: 'Röyksopp', provider_uris: { spotify: 'spotify:track:0DiWol3AO6WpXZgp0goxAV' }, position: 0 });
  });
});
