import { realpathSync, statSync, type BigIntStats } from 'node:fs';

/**
 * Whether writing `candidate` would replace the file `input` names: the output of `opl convert`
 * must never be its own input. The file's identity is its device and inode, which holds through
 * symlinks, hard links, `..` and a case-insensitive file system's other spellings. Where the file
 * system reports no inode (0: some network and FAT drives on Windows) the real paths are compared,
 * without regard to case where the platform's file systems usually ignore it.
 */

export interface FileIdentity {
  path: string;
  dev: bigint;
  ino: bigint;
}

/** The identity of an existing file (symlinks followed). */
export function fileIdentity(path: string, info: BigIntStats): FileIdentity {
  return { path, dev: info.dev, ino: info.ino };
}

function realPath(path: string): string | null {
  try {
    const real = realpathSync.native(path);
    return process.platform === 'darwin' || process.platform === 'win32' ? real.toLowerCase() : real;
  } catch {
    return null;
  }
}

export function isSameFile(input: FileIdentity, candidate: string): boolean {
  let info: BigIntStats;
  try {
    info = statSync(candidate, { bigint: true });
  } catch {
    // Nothing (reachable) there: writing it cannot touch the input.
    return false;
  }
  if (info.ino !== 0n && input.ino !== 0n) return info.dev === input.dev && info.ino === input.ino;
  const real = realPath(candidate);
  return real !== null && real === realPath(input.path);
}
