import { readFileSync, readlinkSync } from 'node:fs';

/**
 * Facts about other processes, read from `/proc` where available. They decide whether a
 * `postmaster.pid` left behind by a killed engine still belongs to a live server. Every reader
 * returns `undefined` when the fact cannot be known (process gone, no `/proc`, no permission), so
 * callers can fall back to the weaker `kill(pid, 0)` check.
 */

/** True when a process with this pid exists and is not a zombie. */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // A zombie answers kill(0) but is dead for every purpose here; it lingers when its parent (for
  // example a container's PID 1) does not reap children.
  return readProcessStat(pid)?.state !== 'Z';
}

export interface ProcessStat {
  /** One-letter state: R, S, D, Z, T, ... */
  state: string;
  parentPid: number;
  /** Start time in clock ticks since boot; with the pid it identifies a process across pid reuse. */
  startTicks: string;
}

export function readProcessStat(pid: number): ProcessStat | undefined {
  const text = readProcFile(pid, 'stat');
  if (text === undefined) return undefined;
  // The command name (field 2) is parenthesised and may itself contain spaces or parentheses.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [state, parentPid] = fields;
  const startTicks = fields[19];
  if (state === undefined || parentPid === undefined || startTicks === undefined) return undefined;
  return { state, parentPid: Number(parentPid), startTicks };
}

/** The short executable name of a process (`/proc/<pid>/comm`), e.g. `postgres` or `node`. */
export function readProcessName(pid: number): string | undefined {
  return readProcFile(pid, 'comm')?.trim();
}

/** The working directory of a process; the postmaster runs inside its data directory. */
export function readProcessCwd(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}

/** Start ticks of the current process, recorded so that a later reader can detect pid reuse. */
export function currentProcessStartTicks(): string | undefined {
  return readProcessStat(process.pid)?.startTicks;
}

/**
 * True when `pid` is alive and, if `startTicks` was recorded, is still the same process (pids
 * are reused; a recorded start time tells an old owner from an unrelated newcomer).
 */
export function isSameProcessAlive(pid: number, startTicks: string | undefined): boolean {
  if (!isProcessAlive(pid)) return false;
  if (startTicks === undefined) return true;
  const stat = readProcessStat(pid);
  return stat === undefined || stat.startTicks === startTicks;
}

function readProcFile(pid: number, name: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return undefined;
  }
}
