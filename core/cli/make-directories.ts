import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * `mkdir -p` that always settles. Node's `mkdir(path, { recursive: true })` never settles when the
 * file system answers ENOENT for a directory whose parent exists (e.g. below `/proc`): it keeps
 * retrying the parent. Here each directory is made once, after its parent; a second ENOENT is the
 * answer, not a reason to retry.
 */
export async function makeDirectories(path: string): Promise<void> {
  try {
    await mkdir(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      if ((await stat(path)).isDirectory()) return;
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${path}'`), { code: 'ENOTDIR', path });
    }
    const parent = dirname(path);
    if (code !== 'ENOENT' || parent === path) throw error;
    await makeDirectories(parent);
    await mkdir(path).catch(async (again: unknown) => {
      // Made meanwhile by someone else: fine, when it is a directory.
      if ((again as NodeJS.ErrnoException).code === 'EEXIST' && (await stat(path)).isDirectory()) return;
      throw again;
    });
  }
}
