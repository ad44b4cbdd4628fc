import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, problemResponse } from '../errors/index.ts';

/** The SDK's generated JSON Schemas: the model, manifests, and the export bundle and manifest. */
const SCHEMA_DIR = fileURLToPath(new URL('../../../plugin-sdk/schema/', import.meta.url));

async function listSchemas(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.json')).map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

/**
 * `GET /schemas/<path>.json`: the published JSON Schemas, each with `$id` rewritten to this
 * instance's schema base, so the `$schema` URL written into every export resolves to a document.
 * Only files generated into plugin-sdk/schema are served; the set is read once at start.
 */
export const schemaRoutes: FastifyPluginAsyncZod<{ schemaBaseUrl: string }> = async (app, { schemaBaseUrl }) => {
  const documents = new Map<string, Record<string, unknown>>();
  for (const path of await listSchemas(SCHEMA_DIR)) {
    const schema = JSON.parse(await readFile(join(SCHEMA_DIR, path), 'utf8')) as Record<string, unknown>;
    documents.set(path, { ...schema, $id: `${schemaBaseUrl}/${path}` });
  }

  app.get(
    '/schemas/*',
    {
      schema: {
        tags: ['schemas'],
        summary: 'A published JSON Schema (Open Playlist bundle v1, export manifest v1, the universal model, plugin manifests)',
        params: z.object({ '*': z.string().max(200) }),
        response: { 200: z.record(z.string(), z.unknown()).describe('A JSON Schema (draft 2020-12)'), 404: problemResponse('No such schema') },
      },
      logLevel: 'warn',
    },
    async (request, reply) => {
      const document = documents.get(request.params['*']);
      if (!document) throw new AppError('not_found', `There is no schema ${request.params['*']}. Published: ${[...documents.keys()].sort().join(', ')}.`);
      return reply.type('application/schema+json; charset=utf-8').header('cache-control', 'public, max-age=3600').send(document);
    },
  );
};
