import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { runReadiness, type ReadinessCheck } from '../../services/health/readiness.ts';

const checkSchema = z.object({ status: z.enum(['up', 'down']), detail: z.string().optional() });
const readinessSchema = z
  .object({ status: z.enum(['ready', 'not_ready']), checks: z.record(z.string(), checkSchema) })
  .meta({ id: 'Readiness' });

export const healthRoutes: FastifyPluginAsyncZod<{ readiness: readonly ReadinessCheck[] }> = async (app, { readiness }) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness: the process is up and serving HTTP',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
      logLevel: 'warn',
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        summary: 'Readiness: database, job queue and other dependencies answer',
        response: { 200: readinessSchema, 503: readinessSchema },
      },
      logLevel: 'warn',
    },
    async (_request, reply) => {
      const result = await runReadiness(readiness);
      return reply.status(result.status === 'ready' ? 200 : 503).header('cache-control', 'no-store').send(result);
    },
  );
};
