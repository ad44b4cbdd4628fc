import { describe, expect, it } from 'vitest';
import { parsePostmasterPid } from './postmaster-pid.ts';

describe('parsePostmasterPid', () => {
  it('reads pid, directory, port, address and status of a ready server', () => {
    const text = '6696\n/tmp/pgx/data\n1795252042\n55999\n\n127.0.0.1\n  2155796         4\nready   \n';
    expect(parsePostmasterPid(text)).toEqual({ pid: 6696, dataDir: '/tmp/pgx/data', port: 55999, listenAddress: '127.0.0.1', status: 'ready' });
  });

  it('has no status while the server is still starting', () => {
    expect(parsePostmasterPid('42\n/data\n1\n5432\n')).toMatchObject({ pid: 42, port: 5432, status: undefined, listenAddress: undefined });
  });

  it('rejects truncated or garbled files', () => {
    expect(parsePostmasterPid('')).toBeUndefined();
    expect(parsePostmasterPid('not-a-pid\n/data\n')).toBeUndefined();
    expect(parsePostmasterPid('-3\n')).toBeUndefined();
    expect(parsePostmasterPid('12.5\n')).toBeUndefined();
  });
});
