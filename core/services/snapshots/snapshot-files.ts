import { lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { PARTIAL_SUFFIX } from './archive/index.ts';

/**
 * The snapshot directory (`OPL_SNAPSHOT_DIR`, SPEC Snapshots rules 6 and 9). Every name in it is
 * generated — `<uuid>.zip`, `<uuid>.zip.partial` while written, `upload-<uuid>.zip.partial` while an
 * upload arrives, `<uuid>.zip.deleting` while deleted — and nothing outside it is ever touched.
 */

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const ARCHIVE = new RegExp(`^(${UUID})\\.zip$`);
const PARTIAL = new RegExp(`^(?:upload-)?(${UUID})\\.zip\\${PARTIAL_SUFFIX}$`);
const DELETING = new RegExp(`^(${UUID})\\.zip\\.deleting$`);

export const DELETING_SUFFIX = '.deleting';

export function archiveName(snapshotId: string): string {
  return `${snapshotId}.zip`;
}

/** The absolute path of a stored relative name, refused when it would leave the root. */
export function insideRoot(root: string, name: string): string {
  const path = resolve(root, name);
  const rel = relative(resolve(root), path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || rel.includes(sep)) throw new Error('a snapshot path leaves the snapshot directory');
  return path;
}

export async function ensureRoot(root: string): Promise<void> {
  await mkdir(root, { recursive: true, mode: 0o700 });
}

export interface ArchiveRow {
  id: string;
  status: string;
  archive_path: string | null;
}

export interface ReconciledFiles {
  removed: string[];
  restored: string[];
  /** Ids of rows that name an archive the directory does not hold. */
  missing: string[];
}

/**
 * Startup reconciliation of the files: a temporary file of a snapshot that no longer runs goes; an
 * archive no row names (its row was deleted, or its job failed after the rename) goes; a deletion
 * that stopped half-way is finished when its row is gone and undone when the row is still there.
 * Only regular files with generated names directly in the root are considered — never a link,
 * never a subdirectory, never anything outside.
 */
export async function reconcileFiles(root: string, rows: readonly ArchiveRow[]): Promise<ReconciledFiles> {
  const result: ReconciledFiles = { removed: [], restored: [], missing: [] };
  let names: string[];
  try {
    names = await readdir(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw error;
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  const named = new Set(rows.flatMap((row) => (row.archive_path ? [row.archive_path] : [])));
  for (const name of names) {
    const path = join(root, name);
    const stats = await lstat(path).catch(() => null);
    if (!stats?.isFile()) continue;
    const partial = PARTIAL.exec(name);
    if (partial) {
      // A job that still runs (in another worker) keeps writing its file.
      if (name.startsWith('upload-') || byId.get(partial[1]!)?.status !== 'running') {
        await rm(path, { force: true });
        result.removed.push(name);
      }
      continue;
    }
    const deleting = DELETING.exec(name);
    if (deleting) {
      const archive = archiveName(deleting[1]!);
      if (named.has(archive)) {
        await rename(path, join(root, archive));
        result.restored.push(archive);
      } else {
        await rm(path, { force: true });
        result.removed.push(name);
      }
      continue;
    }
    const archive = ARCHIVE.exec(name);
    // A running job renames its file into place just before it records it.
    if (archive && !named.has(name) && byId.get(archive[1]!)?.status !== 'running') {
      await rm(path, { force: true });
      result.removed.push(name);
    }
  }
  const present = new Set(await readdir(root));
  for (const row of rows) if (row.archive_path && !present.has(row.archive_path)) result.missing.push(row.id);
  return result;
}
