import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../../../core/jobs/index.ts';

describe('defineJob', () => {
  const handle = async () => {};

  it('requires a dotted lowercase queue name', () => {
    expect(() => defineJob({ name: 'Bad Name', payload: z.object({}), handle })).toThrow(/lowercase/);
    expect(defineJob({ name: 'maintenance.cleanup', payload: z.object({}), handle }).name).toBe('maintenance.cleanup');
  });

  it('validates a schedule payload when the job is defined', () => {
    expect(() =>
      defineJob({ name: 'a.b', payload: z.object({ n: z.number() }), schedule: { cron: '* * * * *', payload: { n: 'x' } }, handle }),
    ).toThrow();
  });

  it('defaults to one concurrent job per worker and empty queue options', () => {
    const job = defineJob({ name: 'a.b', payload: z.object({}), handle });
    expect(job.concurrency).toBe(1);
    expect(job.queue).toEqual({});
    expect(job.schedule).toBeUndefined();
  });
});
