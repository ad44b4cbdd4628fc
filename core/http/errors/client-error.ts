import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from './error-catalogue.ts';
import { buildProblem, PROBLEM_CONTENT_TYPE } from './problem.ts';

/**
 * The answer to a request Node's HTTP parser refuses before any route sees it (fastify's
 * `clientErrorHandler`): problem+json like every other error, instead of fastify's own JSON shape,
 * saying what was wrong. The usual cause is a client that sends a URL as typed — `?filename=été.m3u`
 * with raw UTF-8 or a space — where HTTP wants it percent-encoded.
 */

interface ParserError extends Error {
  code?: string;
}

function refusal(error: ParserError): { code: ErrorCode; detail: string } {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', detail: 'The request did not arrive completely in time; send it again.' };
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'request_headers_too_large', detail: 'The request headers are larger than this server reads (16 KiB in all); send fewer or shorter headers (large cookies are the usual cause).' };
    case 'HPE_INVALID_URL':
      return {
        code: 'malformed_request',
        detail: 'The request URL holds characters a URL cannot carry as they are (a space, a letter outside ASCII, a control character): percent-encode them, e.g. ?filename=%C3%A9t%C3%A9.m3u for été.m3u (encodeURIComponent in JavaScript, curl --data-urlencode with -G).',
      };
    default:
      return { code: 'malformed_request', detail: `The request is not valid HTTP/1.1${error.code ? ` (${error.code})` : ''}; it was not read.` };
  }
}

export function answerClientError(error: ParserError, socket: Socket): void {
  // The peer is gone: nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { code, detail } = refusal(error);
  const problem = buildProblem(code, detail);
  const body = JSON.stringify(problem);
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Bad Request'}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroySoon();
}
