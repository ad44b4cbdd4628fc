import { describe, expect, it } from 'vitest';
import { loggableUrl } from '../../../../core/http/request-context.ts';

const TOKEN = 'Zk3_9-abcdefghijklmnopqrstuvwxyzABCDEFGHIJ';

describe('share tokens in request logs', () => {
  it('are masked in every path that carries one', () => {
    expect(loggableUrl(`/share/${TOKEN}`)).toBe('/share/[REDACTED]');
    expect(loggableUrl(`/api/public/shares/${TOKEN}?x=1`)).toBe('/api/public/shares/[REDACTED]?x=1');
    expect(loggableUrl(`/api/shares/${TOKEN}`)).toBe('/api/shares/[REDACTED]');
  });

  it('keeps share ids and other paths readable', () => {
    expect(loggableUrl('/api/shares/0b8c3f7e-1111-4222-8333-444455556666')).toBe('/api/shares/0b8c3f7e-1111-4222-8333-444455556666');
    expect(loggableUrl('/api/shares')).toBe('/api/shares');
    expect(loggableUrl('/api/imports/0b8c3f7e-1111-4222-8333-444455556666')).toBe('/api/imports/0b8c3f7e-1111-4222-8333-444455556666');
  });
});
