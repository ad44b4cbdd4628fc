import { open, type FileHandle } from 'node:fs/promises';
import { ExportError } from './export-error.ts';

/**
 * How the export service creates each of its private temporary files: exclusively (never through
 * a planted file or link) and readable by the engine only. A seam so that tests can hand out files
 * on a disk that fills up (SPEC Limits rule 4: the temporary filesystem must hold the whole file).
 */
export type OpenTemporaryFile = (path: string) => Promise<FileHandle>;

export const openTemporaryFile: OpenTemporaryFile = (path) => open(path, 'wx', 0o600);

/** errno codes that mean the temporary filesystem (or the engine's quota on it) has no room left. */
const FULL = new Set(['ENOSPC', 'EDQUOT']);

/** An error of a system call (it carries the errno code and the call), as opposed to a library's own error. */
function systemCode(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const { code, syscall } = error as NodeJS.ErrnoException;
  return typeof code === 'string' && typeof syscall === 'string' ? code : null;
}

/**
 * A failure of the server's own temporary files as the export's error: a full disk or another I/O
 * failure is the server's condition (503), never the format plugin's or the request's fault, and
 * the message says so without the server's paths. Any other error is returned unchanged.
 */
export function temporaryStorageError(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(String(error));
  const code = error instanceof ExportError ? null : systemCode(error);
  if (code === null) return error;
  if (FULL.has(code)) {
    return new ExportError(
      'temporary_storage_full',
      `The server's temporary space is full (${code}), so the export could not be built; nothing was kept. Try again later or export fewer playlists at a time; the server's admin needs to free space on its temporary filesystem (TMPDIR), which must hold the whole file or archive.`,
      { errno: code },
    );
  }
  return new ExportError(
    'temporary_storage_failed',
    `The server could not write the export to its temporary files (${code}); nothing was kept. Try again; if it keeps failing, the server's admin needs to check its temporary filesystem (TMPDIR).`,
    { errno: code },
  );
}

/** Runs one step on the temporary files, answering its system errors as `temporaryStorageError`. */
export async function onTemporaryStorage<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw temporaryStorageError(error);
  }
}
