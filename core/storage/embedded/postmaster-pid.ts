/**
 * The `postmaster.pid` lock file PostgreSQL keeps in its data directory while it runs. Its lines
 * are: pid, data directory, start time (epoch seconds), port, socket directory, listen address,
 * shared-memory key, and — once the server accepts connections — the status `ready`.
 */
export interface PostmasterPid {
  pid: number;
  dataDir: string;
  port: number | undefined;
  listenAddress: string | undefined;
  /** `ready`, `starting`, `stopping` or `standby` (PostgreSQL 10+), undefined before it is written. */
  status: string | undefined;
}

/** Parses the file's text; undefined when it is truncated or garbled (a half-written file). */
export function parsePostmasterPid(text: string): PostmasterPid | undefined {
  const lines = text.split('\n');
  const pid = Number(lines[0]?.trim());
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const port = Number(lines[3]?.trim());
  const status = lines[7]?.trim();
  return {
    pid,
    dataDir: lines[1]?.trim() ?? '',
    port: Number.isInteger(port) && port > 0 ? port : undefined,
    listenAddress: lines[5]?.trim() || undefined,
    status: status || undefined,
  };
}
