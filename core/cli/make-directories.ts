import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * `mkdir -p` that always settles. Node's `mkdir(path, { recursive: true })` never settles when the
 * file system answers ENOENT for a directory whose parent exists (e.g. below `/proc`): it keeps
 * retrying the parent. Here each directory is made once, after its parent; a second ENOENT is the
 * answer, not a reason to retry. Returns the directories it made, outermost first, so that a
 * command that fails afterwards can remove them again (and only them).
 */
export async function makeDirectories(path: string): Promise<string[]> {
  try {
    await mkdir(path);
    return [path];
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      if ((await stat(path)).isDirectory()) return [];
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${path}'`), { code: 'ENOTDIR', path });
    }
    const parent = dirname(path);
    if (code !== 'ENOENT' || parent === path) throw error;
    const made = await makeDirectories(parent);
    try {
      await mkdir(path);
    } catch (again) {
      // Made meanwhile by someone else: fine, when it is a directory (and not ours to remove).
      if ((again as NodeJS.ErrnoException).code === 'EEXIST' && (await stat(path)).isDirectory()) return made;
      throw again;
    }
    return [...made, path];
  }
}
