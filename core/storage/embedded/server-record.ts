import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { currentProcessStartTicks, isSameProcessAlive } from './process-info.ts';

/**
 * `server.json` beside the data directory names the engine process that owns (and will stop)
 * the running server. It tells "another live engine serves this directory, attach to it" apart
 * from "the engine that started it was killed, adopt the orphan".
 */
export interface ServerRecord {
  postmasterPid: number;
  ownerPid: number;
  ownerStartTicks?: string;
  port: number;
}

export async function readServerRecord(path: string): Promise<ServerRecord | undefined> {
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as Partial<ServerRecord>;
    if (typeof value.postmasterPid !== 'number' || typeof value.ownerPid !== 'number' || typeof value.port !== 'number') return undefined;
    return value as ServerRecord;
  } catch {
    return undefined;
  }
}

export async function writeServerRecord(path: string, postmasterPid: number, port: number): Promise<void> {
  const record: ServerRecord = { postmasterPid, ownerPid: process.pid, ownerStartTicks: currentProcessStartTicks(), port };
  const staged = `${path}.${process.pid}`;
  await writeFile(staged, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  await rename(staged, path);
}

export async function removeServerRecord(path: string, postmasterPid: number): Promise<void> {
  const record = await readServerRecord(path);
  if (record && record.postmasterPid !== postmasterPid) return;
  await unlink(path).catch(() => undefined);
}

/** True when the record names this postmaster and its owning engine process is still alive. */
export function hasLiveOwner(record: ServerRecord | undefined, postmasterPid: number): boolean {
  return record !== undefined && record.postmasterPid === postmasterPid && isSameProcessAlive(record.ownerPid, record.ownerStartTicks);
}
