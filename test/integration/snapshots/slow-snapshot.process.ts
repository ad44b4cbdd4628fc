import { randomUUID } from 'node:crypto';
import { trackSchema } from '@opl/plugin-sdk/schemas';
import { SnapshotArchiveWriter } from '../../../core/services/snapshots/archive/index.ts';

/**
 * A snapshot being written slowly, for the SIGKILL test: `node slow-snapshot.process.ts <path>`
 * writes collection after collection into `<path>` (through `<path>.partial`), printing
 * `collection <n>` after each, and never finishes on its own before 1000 collections.
 */
const path = process.argv[2]!;
const writer = await SnapshotArchiveWriter.start({
  path,
  snapshotId: randomUUID(),
  libraryId: randomUUID(),
  schemaBaseUrl: 'https://open-playlist.org/schemas',
  startedAt: new Date(),
  sources: [{ source_id: 's1', provider: 'spotify', label: 'Spotify' }],
});
async function* tracks(collection: number) {
  for (let index = 0; index < 200; index += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    yield trackSchema.parse({ title: `Song ${collection}.${index}`, artist: 'Artist' });
  }
}
for (let collection = 1; collection <= 1000; collection += 1) {
  await writer.addCollection({ sourceId: 's1', kind: 'playlist', sourceCollectionId: `p${collection}`, name: `P${collection}`, playlist: null, items: tracks(collection), describeFailure: () => ({ code: 'read_failed', message: 'x' }) });
  process.stdout.write(`collection ${collection}\n`);
}
await writer.finish(new Date());
