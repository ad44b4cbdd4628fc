import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, redactText } from '../../../core/logging/logger.ts';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  return { lines, logger: createLogger({ level: 'debug', destination }) };
}

describe('logger redaction', () => {
  it('masks secrets in structured fields', () => {
    const { lines, logger } = capture();
    logger.info({ token: 't-1', nested: { refresh_token: 'r-2', password: 'p-3' }, req: { headers: { authorization: 'Bearer b-4', cookie: 'opl_session=c-5' } } }, 'hello');
    const text = lines.join('');
    for (const secret of ['t-1', 'r-2', 'p-3', 'b-4', 'c-5']) expect(text).not.toContain(secret);
    expect(text).toContain('[REDACTED]');
  });

  it('masks connection-string passwords and bearer tokens inside messages and errors', () => {
    const { lines, logger } = capture();
    logger.error(new Error('connect failed: postgres://opl:s3cret@db:5432/opl'), 'db down');
    logger.warn('calling with Bearer abc.def.ghi');
    const text = lines.join('');
    expect(text).not.toContain('s3cret');
    expect(text).not.toContain('abc.def.ghi');
  });

  it('redactText leaves ordinary text alone', () => {
    expect(redactText('nothing to see')).toBe('nothing to see');
    expect(redactText('?access_token=xyz&x=1')).toBe('?access_token=[REDACTED]&x=1');
  });

  it('writes one JSON object per line', () => {
    const { lines, logger } = capture();
    logger.info({ a: 1 }, 'structured');
    const parsed = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(parsed).toMatchObject({ level: 'info', msg: 'structured', a: 1, name: 'opl' });
  });
});
