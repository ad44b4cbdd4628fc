import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

export const OPENAPI_GENERATED_NOTE = 'Generated from the route schemas by `npm run openapi`; do not edit by hand.';

/** Registers OpenAPI generation from the zod route schemas. Must run before routes are added. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Open Playlist Engine API',
        version,
        description: 'Runtime API of the Open Playlist Engine. Errors are RFC 9457 problem details (`application/problem+json`) with a stable `code`.',
      },
      tags: [
        { name: 'health', description: 'Liveness and readiness probes' },
        { name: 'session', description: 'Owner resolution and the owner-session gate' },
      ],
    },
    transform: transformKeepingResponseHeaders,
    transformObject: jsonSchemaTransformObject,
  });
}

type RouteDocument = Parameters<typeof jsonSchemaTransform>[0];

/**
 * The zod transform, keeping the `headers` (plain JSON Schemas by header name) of a response
 * given as `{description, content, headers}`: the transform rebuilds such a response from its
 * description and content only, and @fastify/swagger writes `headers` into the document's
 * response headers — how a file download documents its Content-Disposition and friends.
 */
function transformKeepingResponseHeaders(document: RouteDocument): ReturnType<typeof jsonSchemaTransform> {
  const transformed = jsonSchemaTransform(document);
  const declared = (document.schema as { response?: Record<string, unknown> } | undefined)?.response;
  const written = (transformed.schema as { response?: Record<string, Record<string, unknown>> } | undefined)?.response;
  if (declared === undefined || written === undefined) return transformed;
  for (const [status, response] of Object.entries(declared)) {
    const headers = typeof response === 'object' && response !== null && 'content' in response && 'headers' in response ? response.headers : undefined;
    const target = written[status];
    if (headers !== undefined && target !== undefined) target['headers'] = headers;
  }
  return transformed;
}

/** The OpenAPI document as served at /openapi.json and checked in at core/http/openapi.json. */
export function openApiDocument(app: FastifyInstance): Record<string, unknown> {
  return { 'x-generated': OPENAPI_GENERATED_NOTE, ...(app.swagger() as unknown as Record<string, unknown>) };
}
