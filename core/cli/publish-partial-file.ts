import { linkSync, renameSync, rmSync, statSync } from 'node:fs';

/** The target name is taken: the finished file was not given it (and was removed). */
export class TargetExistsError extends Error {
  readonly target: string;

  constructor(target: string) {
    super(`${target} already exists`);
    this.name = 'TargetExistsError';
    this.target = target;
  }
}

// What link() answers where the file system has no hard links (FAT, exFAT, some network shares).
export const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

/**
 * Gives a finished temporary file (written beside `target`) its final name, the last step of the
 * CLI's "output appears only when complete" writes (`opl convert`, `opl export`). With `force` it
 * replaces whatever has that name. Without it an existing file is never replaced: link() refuses
 * a taken name, so a file that appeared while this one was written is kept too. Where there are
 * no hard links (FAT and exFAT drives, where music often goes) the name is checked and then taken
 * by rename, which leaves only a moment for a file to appear in between. Throws
 * `TargetExistsError` when the name is taken; the temporary file is gone either way on success.
 * Synchronous on purpose: a Ctrl-C handler never runs halfway through it, so an interrupted
 * command finds each file either published or still temporary.
 */
export function publishPartialFile(partial: string, target: string, force: boolean): void {
  if (force) {
    renameSync(partial, target);
    return;
  }
  try {
    linkSync(partial, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new TargetExistsError(target);
    if (code === undefined || !NO_HARD_LINKS.has(code)) throw error;
    if (statSync(target, { throwIfNoEntry: false })) throw new TargetExistsError(target);
    renameSync(partial, target);
    return;
  }
  rmSync(partial, { force: true });
}
