import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isAppError } from './app-error.ts';
import type { ErrorCode } from './error-catalogue.ts';
import { buildProblem, PROBLEM_CONTENT_TYPE } from './problem.ts';
import { userLimitProblem } from './user-limit-problem.ts';

/** Fastify's own error codes that are the client's fault, mapped onto our catalogue. */
const FASTIFY_CLIENT_ERRORS: Record<string, { code: ErrorCode; detail: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', detail: 'The request body exceeds the size this endpoint accepts.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type', detail: 'This endpoint does not accept the Content-Type of the request.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'malformed_body', detail: 'The Content-Length header does not match the body.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'malformed_body', detail: 'The request declares a JSON body but sends none.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'malformed_body', detail: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_TYPE: { code: 'unsupported_media_type', detail: 'The request has an empty Content-Type.' },
  FST_ERR_CTP_INVALID_TYPE: { code: 'unsupported_media_type', detail: 'The request has an invalid Content-Type.' },
};

function instanceOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? request.url.split('?')[0] ?? '/';
}

export function sendProblem(
  reply: FastifyReply,
  request: FastifyRequest,
  code: ErrorCode,
  detail: string,
  extensions?: Record<string, unknown>,
): FastifyReply {
  const problem = buildProblem(code, detail, {
    instance: request.url.split('?')[0],
    requestId: request.id,
    ...(extensions === undefined ? {} : { extensions }),
  });
  return reply.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
}

/**
 * Turns every thrown error into problem+json. Client errors explain themselves; server errors are
 * logged with their cause and answered with a generic text so internals (SQL, paths, stack traces,
 * connection strings) never reach the client.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError, request, reply) => {
    // A service's refusal at a per-user limit, thrown through any route.
    const error = (userLimitProblem(thrown) ?? thrown) as FastifyError;
    if (isAppError(error)) {
      if (error.status >= 500) request.log.error({ err: error.cause ?? error, code: error.code }, 'request failed');
      for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
      return sendProblem(reply, request, error.code, error.detail, error.extensions);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((issue) => ({
        // `body`, `body.tracks.0`: an issue of the whole body has the instance path "/", which is no segment.
        path: [error.validationContext ?? 'request', ...(issue.instancePath ?? '').split('/').filter((segment) => segment !== '')].join('.'),
        message: issue.message ?? 'is not valid',
      }));
      return sendProblem(reply, request, 'validation_failed', errors.map((e) => `${e.path}: ${e.message}`).join('; '), { errors });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, route: instanceOf(request) }, 'response did not match its schema');
      return sendProblem(reply, request, 'internal_error', 'The server could not produce a valid response. The incident was logged.');
    }
    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    if (known) return sendProblem(reply, request, known.code, known.detail);
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const code: ErrorCode = status === 404 ? 'not_found' : status === 405 ? 'method_not_allowed' : status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : status === 429 ? 'rate_limited' : 'validation_failed';
      return sendProblem(reply, request, code, error.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, request, 'internal_error', 'An unexpected error occurred. The incident was logged with the request id.');
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, request, 'not_found', `No route matches ${request.method} ${request.url.split('?')[0]}.`),
  );
}
