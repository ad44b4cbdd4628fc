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
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
}

/** The OpenAPI document as served at /openapi.json and checked in at core/http/openapi.json. */
export function openApiDocument(app: FastifyInstance): Record<string, unknown> {
  return { 'x-generated': OPENAPI_GENERATED_NOTE, ...(app.swagger() as unknown as Record<string, unknown>) };
}
