import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { formatLogLine, readableDestination, readableLogs } from './readable-log.ts';

describe('readableLogs', () => {
  it('is readable on a terminal for auto, and whatever is forced otherwise', () => {
    expect(readableLogs('auto', true)).toBe(true);
    expect(readableLogs('auto', false)).toBe(false);
    expect(readableLogs('json', true)).toBe(false);
    expect(readableLogs('pretty', false)).toBe(true);
  });
});

describe('formatLogLine', () => {
  it('puts time, level and message first, then the fields, hiding pid, host and the default name', () => {
    const time = new Date(2026, 10, 29, 14, 2, 7).toISOString();
    const line = JSON.stringify({ level: 'info', time, pid: 42, hostname: 'h', name: 'opl', msg: 'listening', url: 'http://127.0.0.1:8765', mode: 'self_host', jobs: ['a', 'b'] });
    expect(formatLogLine(line)).toBe('14:02:07 INFO  listening url=http://127.0.0.1:8765 mode=self_host jobs=["a","b"]\n');
  });

  it('names a component logger, quotes values with spaces and shows an error message (the stack only for errors)', () => {
    const time = new Date(2026, 10, 29, 1, 2, 3).toISOString();
    const warn = formatLogLine(JSON.stringify({ level: 'warn', time, name: 'plugin-host', msg: 'slow', plugin: 'a b', err: { message: 'boom', stack: 'Error: boom\n    at x (y.ts:1:1)' } }));
    expect(warn).toBe('01:02:03 WARN  [plugin-host] slow plugin="a b"\n    boom\n');
    const error = formatLogLine(JSON.stringify({ level: 'error', time, msg: 'failed', err: { message: 'boom', stack: 'Error: boom\n    at x (y.ts:1:1)' } }));
    expect(error).toBe('01:02:03 ERROR failed\n    boom\n    at x (y.ts:1:1)\n');
  });

  it('passes a line that is not a JSON object through', () => {
    expect(formatLogLine('not json')).toBe('not json\n');
    expect(formatLogLine('[1,2]')).toBe('[1,2]\n');
  });

  it('shows what pino redacted, never the secret', () => {
    const shown: string[] = [];
    const logger = createLogger({ level: 'info', destination: readableDestination({ write: (text: string) => shown.push(text) }) });
    logger.info({ token: 'secret-token-value', req: { headers: { authorization: 'Bearer abc.def' } } }, 'connected with postgres://u:pw@host/db');
    const text = shown.join('');
    expect(text).toContain('INFO  connected with postgres://u:[REDACTED]@host/db');
    expect(text).toContain('token=[REDACTED]');
    expect(text).not.toMatch(/secret-token-value|abc\.def|:pw@/);
  });
});
