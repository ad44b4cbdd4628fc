/**
 * RFC 9457 problem details as the engine sends them, plus the problems the UI makes up itself when
 * an answer is not a problem document (network failure, proxy error page).
 */

export interface Problem {
  readonly title: string;
  readonly status: number;
  readonly detail?: string;
  readonly code?: string;
  readonly type?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fallbackTitle(status: number): string {
  if (status === 400 || status === 422) return 'The request was not accepted';
  if (status === 401) return 'Sign-in required';
  if (status === 403) return 'Not allowed';
  if (status === 404) return 'Not found';
  if (status === 409) return 'Conflict';
  if (status === 429) return 'Too many requests';
  if (status === 502 || status === 503 || status === 504) return 'The engine is not available';
  if (status >= 500) return 'The engine ran into a problem';
  return 'Unexpected answer from the engine';
}

/** Builds a Problem from a response body, falling back to words derived from the HTTP status. */
export function toProblem(status: number, body: unknown): Problem {
  if (isRecord(body) && typeof body['title'] === 'string' && body['title'].trim() !== '') {
    const problem: { -readonly [K in keyof Problem]: Problem[K] } = {
      title: body['title'],
      status: typeof body['status'] === 'number' ? body['status'] : status,
    };
    if (typeof body['detail'] === 'string' && body['detail'].trim() !== '') problem.detail = body['detail'];
    if (typeof body['code'] === 'string' && body['code'] !== '') problem.code = body['code'];
    if (typeof body['type'] === 'string' && body['type'] !== '') problem.type = body['type'];
    return problem;
  }
  return { title: fallbackTitle(status), status, detail: `The engine answered with HTTP status ${status}.` };
}

export const NETWORK_ERROR_CODE = 'network_error';
/** A download that got no file in the browser: stopped by the user, out of time, or cut off part-way. */
export const DOWNLOAD_CANCELLED_CODE = 'download_cancelled';
export const DOWNLOAD_TIMEOUT_CODE = 'download_timeout';
export const DOWNLOAD_INTERRUPTED_CODE = 'download_interrupted';

export function networkProblem(): Problem {
  return {
    title: 'Cannot reach the engine',
    status: 0,
    code: NETWORK_ERROR_CODE,
    detail: 'The request did not get an answer. Check that the engine is running, then try again.',
  };
}

/** A 2xx answer that lacks the documented fields: said as a problem like any other failure. */
export function unexpectedAnswer(status: number, request: string): Problem {
  return { title: 'Unexpected answer from the engine', status, detail: `${request} did not return the documented fields.` };
}
