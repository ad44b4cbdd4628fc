// One run of the snapshot benchmark, alone in its own process so that its peak resident memory
// (maxRSS) belongs to this run only. argv: write <dir> <collections> <tracks per collection>
// [<title padding bytes>] | verify <archive>. `write` streams that many collections through the
// real SnapshotArchiveWriter (tracks made as a provider read hands them over, one collection at a
// time) into <dir>/<uuid>.zip; `verify` runs the real verifier over an archive. Prints one JSON line.
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { trackSchema, type SnapshotFailure } from '@opl/plugin-sdk/schemas';
import { DEFAULT_SNAPSHOT_LIMITS, SnapshotArchiveWriter, verifySnapshotArchive, type SnapshotItem } from '../../core/services/snapshots/archive/index.ts';

const [mode, target, collectionArg, trackArg, paddingArg = '0'] = process.argv.slice(2);

/** Words, not random characters: random text would look like a credential to the writer. */
const WORDS = ['amber', 'harbor', 'velvet', 'meadow', 'lantern', 'cobalt', 'willow', 'ember', 'summit', 'river', 'orchid', 'thunder', 'cedar', 'marble', 'echo', 'saffron'];

function padding(n: number, bytes: number): string {
  let text = '';
  let seed = n * 2654435761;
  while (text.length < bytes) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    text += `${WORDS[seed % WORDS.length]} ${seed % 997} `;
  }
  return text.slice(0, bytes);
}

async function* tracks(list: number, count: number, pad: number): AsyncGenerator<SnapshotItem> {
  for (let index = 0; index < count; index++) {
    const n = list * count + index;
    yield trackSchema.parse({
      id: `trk${n}`,
      title: `Song number ${n}${pad > 0 ? ` ${padding(n, pad)}` : ''}`,
      artist: `Artist ${n % 977}`,
      artists: [`Artist ${n % 977}`],
      album: `Album ${n % 503}`,
      duration_s: 150 + (n % 180),
      isrc: `ZZOPL${String(n).padStart(7, '0')}`,
      provider_uris: { spotify: `spotify:track:${n}` },
      position: index,
    });
    // A provider read hands tracks over a page at a time: let the archive's stream drain between pages.
    if (index % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
  }
}

const describeFailure = (): SnapshotFailure => ({ code: 'read_failed', message: 'unreadable' });

if (mode === 'write') {
  const collections = Number(collectionArg);
  const perCollection = Number(trackArg);
  const pad = Number(paddingArg);
  const path = join(target!, `${randomUUID()}.zip`);
  const started = performance.now();
  const writer = await SnapshotArchiveWriter.start({ path, snapshotId: randomUUID(), libraryId: randomUUID(), schemaBaseUrl: 'https://open-playlist.org/schemas', startedAt: new Date(), sources: [{ source_id: 's1', provider: 'spotify', label: 'Spotify bench' }] });
  for (let list = 0; list < collections; list++) {
    await writer.addCollection({ sourceId: 's1', kind: 'playlist', sourceCollectionId: `p${list}`, name: `Playlist ${list}`, playlist: null, items: tracks(list, perCollection, pad), describeFailure });
  }
  const written = await writer.finish(new Date());
  process.stdout.write(`${JSON.stringify({ path, archive_bytes: written.archiveBytes, items: written.manifest.counts.items, elapsed_ms: performance.now() - started, max_rss_kib: process.resourceUsage().maxRSS })}\n`);
} else if (mode === 'verify') {
  const started = performance.now();
  const bytes = (await stat(target!)).size;
  const { manifest } = await verifySnapshotArchive(target!, { ...DEFAULT_SNAPSHOT_LIMITS, archiveBytes: Math.max(bytes, DEFAULT_SNAPSHOT_LIMITS.archiveBytes), uncompressedBytes: Number.MAX_SAFE_INTEGER });
  process.stdout.write(`${JSON.stringify({ archive_bytes: bytes, items: manifest.counts.items, elapsed_ms: performance.now() - started, max_rss_kib: process.resourceUsage().maxRSS })}\n`);
} else {
  throw new Error('usage: snapshot-archive.process.ts write <dir> <collections> <tracks> [<padding>] | verify <archive>');
}
