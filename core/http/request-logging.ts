import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { loggableUrl } from './request-context.ts';

/**
 * Request logging without secrets: one line per request with method, masked URL, status and time.
 * Headers (cookies, authorization) and bodies (owner secret, tokens) are never logged.
 */
export class RedactingLogController extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'request_id' });
  }

  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ method: request.method, url: loggableUrl(request.url) }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { method: request.method, url: loggableUrl(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
