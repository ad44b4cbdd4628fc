import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { PluginToolError } from './tool-error.ts';

/**
 * File access confined to one directory. Bundles and registries come from other people, so a
 * path in a manifest or a symlink in a checkout must never make a tool read outside the tree it
 * was pointed at.
 */

/** Largest single file the tools read (bundles are small; this stops a hostile tree from exhausting memory). */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

const SAFE_RELATIVE = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[^/\\\0]+(?:\/[^/\\\0]+)*$/;

function isInside(root: string, target: string): boolean {
  return target === root || target.startsWith(root.endsWith(sep) ? root : root + sep);
}

async function realOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw error;
  }
}

/** Reads `relativePath` under `root`; null when it does not exist; throws when it escapes `root` or is not a regular file. */
export async function readFileInside(root: string, relativePath: string): Promise<Uint8Array | null> {
  if (!SAFE_RELATIVE.test(relativePath)) throw new PluginToolError(`"${relativePath}" is not a safe relative path (no "..", ".", absolute paths or backslashes).`);
  const realRoot = await realOrNull(root);
  if (realRoot === null) return null;
  const target = await realOrNull(join(root, ...relativePath.split('/')));
  if (target === null) return null;
  if (!isInside(realRoot, target)) throw new PluginToolError(`"${relativePath}" resolves outside ${root} (through a symlink); refusing to read it.`);
  const info = await lstat(target);
  if (!info.isFile()) throw new PluginToolError(`"${relativePath}" in ${root} is not a regular file.`);
  if (info.size > MAX_FILE_BYTES) throw new PluginToolError(`"${relativePath}" in ${root} is larger than ${MAX_FILE_BYTES} bytes.`);
  return new Uint8Array(await readFile(target));
}

/**
 * Every non-directory entry under `root` (files, symlinks, sockets…), as sorted forward-slash
 * relative paths. Symlinked directories are listed as entries, never followed. [] when `root` is missing.
 */
export async function listFilesInside(root: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/** Where `candidate` resolves relative to `root`: missing (either does not exist), inside, or outside (e.g. through a symlink). */
export async function locate(root: string, candidate: string): Promise<'missing' | 'inside' | 'outside'> {
  const realRoot = await realOrNull(root);
  const target = await realOrNull(candidate);
  if (realRoot === null || target === null) return 'missing';
  return isInside(realRoot, target) ? 'inside' : 'outside';
}
