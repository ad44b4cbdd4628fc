import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Reads a key file of the data directory (mode 0600), creating it with `create()`'s content on
 * first use. Processes starting together agree on one content: the file is published with
 * link(), which fails when another process published first, and then that process's content wins.
 */
export async function readOrCreateSecretFile(path: string, create: () => string): Promise<string> {
  if (!existsSync(path)) {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temporary, create(), { mode: 0o600, flag: 'wx' });
    try {
      await link(temporary, path).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
    } finally {
      await rm(temporary, { force: true });
    }
  }
  await chmod(path, 0o600).catch(() => undefined);
  return readFile(path, 'utf8');
}
