import { randomBytes } from 'node:crypto';
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { currentProcessStartTicks, isSameProcessAlive } from './process-info.ts';

interface LockHolder {
  pid: number;
  startTicks?: string;
  token: string;
}

/**
 * An exclusive lock file that serialises initialising, starting, adopting and stopping the
 * embedded server between engine processes sharing one data directory. A lock whose holder died
 * (SIGKILL leaves it behind) is broken; breaking goes through an atomic rename so that two
 * processes breaking the same stale lock cannot remove a lock the other just took.
 */
export async function withStartLock<T>(path: string, timeoutMs: number, action: () => Promise<T>): Promise<T> {
  const token = await acquire(path, timeoutMs);
  try {
    return await action();
  } finally {
    await release(path, token);
  }
}

async function acquire(path: string, timeoutMs: number): Promise<string> {
  const holder: LockHolder = { pid: process.pid, startTicks: currentProcessStartTicks(), token: randomBytes(12).toString('hex') };
  const content = JSON.stringify(holder);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Written aside and linked into place, so a reader never sees a half-written lock.
    const staged = `${path}.${holder.token}`;
    await writeFile(staged, content, { mode: 0o600 });
    try {
      await link(staged, path);
      return holder.token;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      await unlink(staged).catch(() => undefined);
    }
    const existing = await readFile(path, 'utf8').catch(() => undefined);
    if (existing !== undefined && isStale(existing)) {
      await breakStale(path, existing);
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for another engine process to finish starting the embedded PostgreSQL server (lock file ${path})`);
    }
    await sleep(100);
  }
}

function isStale(content: string): boolean {
  let holder: Partial<LockHolder>;
  try {
    holder = JSON.parse(content) as Partial<LockHolder>;
  } catch {
    return true; // not ours to understand; locks are only ever linked into place complete
  }
  return typeof holder.pid !== 'number' || !isSameProcessAlive(holder.pid, holder.startTicks);
}

async function breakStale(path: string, staleContent: string): Promise<void> {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await rename(path, aside);
  } catch {
    return; // someone else broke or released it first
  }
  const moved = await readFile(aside, 'utf8').catch(() => undefined);
  if (moved !== staleContent) {
    // A live holder replaced the stale file between our read and the rename: put it back.
    await link(aside, path).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
}

async function release(path: string, token: string): Promise<void> {
  const existing = await readFile(path, 'utf8').catch(() => undefined);
  if (existing === undefined) return;
  try {
    if ((JSON.parse(existing) as Partial<LockHolder>).token !== token) return;
  } catch {
    return;
  }
  await unlink(path).catch(() => undefined);
}
