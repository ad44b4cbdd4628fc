import { lstat, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readSnapshotCollections, SnapshotVerificationError, verifySnapshotArchive } from '../../../core/services/snapshots/archive/index.ts';

/**
 * The decompressed text of every snapshot archive in a directory (the manifest and every record),
 * for the suite's secret scan: an archive is an output like any API answer, and no issued token
 * may appear in one.
 */
export async function snapshotArchiveText(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.zip'));
  } catch {
    return [];
  }
  const lines: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    if (!(await lstat(path)).isFile()) continue;
    let manifest;
    try {
      ({ manifest } = await verifySnapshotArchive(path));
    } catch (error) {
      if (!(error instanceof SnapshotVerificationError)) throw error;
      // Not an archive the engine could have written (a test's stray file): its raw bytes are scanned.
      lines.push((await readFile(path)).toString('latin1'));
      continue;
    }
    lines.push(JSON.stringify(manifest));
    await readSnapshotCollections(
      path,
      manifest.collections.map((collection) => collection.member),
      (_collection, record) => {
        lines.push(JSON.stringify(record));
      },
    );
  }
  return lines;
}
