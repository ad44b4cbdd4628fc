import { networkProblem, toProblem, type Problem } from './problem.ts';

export type ApiResult<T> =
  | { readonly ok: true; readonly status: number; readonly data: T }
  | { readonly ok: false; readonly status: number; readonly problem: Problem; readonly body: unknown };

export interface RequestOptions {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly json?: unknown;
  /** A raw body (e.g. an uploaded file), sent as is; give its Content-Type in `headers`. Ignored when `json` is set. */
  readonly body?: Blob;
  /** How long to wait for the answer when no `signal` is given; 15 s by default. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Extra request headers, e.g. the hosted admin token as `authorization`. */
  readonly headers?: Readonly<Record<string, string>>;
}

const DEFAULT_TIMEOUT_MS = 15_000;

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!/json/i.test(type)) return undefined;
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/**
 * Calls the engine's HTTP API on the same origin (the session cookie travels with it). Never
 * throws: failures come back as a Problem the UI can put into words.
 */
export async function apiRequest(path: string, options: RequestOptions = {}): Promise<ApiResult<unknown>> {
  const headers: Record<string, string> = { ...options.headers, accept: 'application/json, application/problem+json' };
  const init: RequestInit = {
    method: options.method ?? 'GET',
    headers,
    credentials: 'same-origin',
    signal: options.signal ?? AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
  };
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(options.json);
  } else if (options.body !== undefined) {
    init.body = options.body;
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    return { ok: false, status: 0, problem: networkProblem(), body: undefined };
  }
  const body = await readBody(response);
  if (response.ok) return { ok: true, status: response.status, data: body };
  return { ok: false, status: response.status, problem: toProblem(response.status, body), body };
}

export type DownloadResult =
  | { readonly ok: true; readonly blob: Blob; readonly fileName: string; readonly warningCount: number; readonly headers: Headers }
  | { readonly ok: false; readonly status: number; readonly problem: Problem; readonly body: unknown; readonly headers?: Headers };

/** The file name of a `Content-Disposition: attachment` answer (RFC 5987 `filename*` first). */
export function attachmentFileName(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain form
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(disposition)?.[1] ?? fallback;
}

/** POSTs JSON and reads a file answer (an export); failures come back as a Problem, like apiRequest. */
export async function downloadRequest(path: string, json: unknown, timeoutMs = 120_000): Promise<DownloadResult> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: '*/*' },
      body: JSON.stringify(json),
      credentials: 'same-origin',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    return { ok: false, status: 0, problem: networkProblem(), body: undefined };
  }
  if (!response.ok) {
    const body = await readBody(response);
    return { ok: false, status: response.status, problem: toProblem(response.status, body), body, headers: response.headers };
  }
  const blob = await response.blob();
  const warningCount = Number(response.headers.get('x-open-playlist-warning-count') ?? '0');
  return { ok: true, blob, fileName: attachmentFileName(response.headers.get('content-disposition'), 'export'), warningCount: Number.isFinite(warningCount) ? warningCount : 0, headers: response.headers };
}
