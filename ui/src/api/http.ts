import { DOWNLOAD_CANCELLED_CODE, DOWNLOAD_INTERRUPTED_CODE, DOWNLOAD_TIMEOUT_CODE, networkProblem, toProblem, type Problem } from './problem.ts';

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

function minutes(ms: number): string {
  const value = Math.max(1, Math.round(ms / 60_000));
  return `${value} ${value === 1 ? 'minute' : 'minutes'}`;
}

/**
 * Why a download got no file: the user stopped it, it took longer than `timeoutMs`, the file
 * stopped arriving part-way, or the engine could not be reached at all.
 */
function transferProblem(error: unknown, cancel: AbortSignal | undefined, timeoutMs: number, fileStarted: boolean): Problem {
  if (cancel?.aborted) return { title: 'Download cancelled', status: 0, code: DOWNLOAD_CANCELLED_CODE, detail: 'You stopped it; nothing was saved.' };
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return {
      title: 'The export took too long',
      status: 0,
      code: DOWNLOAD_TIMEOUT_CODE,
      detail: `The file had not ${fileStarted ? 'finished arriving' : 'started arriving'} after ${minutes(timeoutMs)}, so the browser stopped waiting; nothing was saved.`,
    };
  }
  if (fileStarted) {
    return { title: 'The download was interrupted', status: 0, code: DOWNLOAD_INTERRUPTED_CODE, detail: 'The file stopped arriving part-way (the connection to the engine was lost); nothing was saved.' };
  }
  return networkProblem();
}

/**
 * POSTs JSON and reads a file answer (an export); failures come back as a Problem, like apiRequest,
 * including a file that stops arriving part-way. `cancel` lets the user stop waiting.
 */
export async function downloadRequest(path: string, json: unknown, timeoutMs = 120_000, cancel?: AbortSignal): Promise<DownloadResult> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: '*/*' },
      body: JSON.stringify(json),
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    return { ok: false, status: 0, problem: transferProblem(error, cancel, timeoutMs, false), body: undefined };
  }
  if (!response.ok) {
    const body = await readBody(response);
    return { ok: false, status: response.status, problem: toProblem(response.status, body), body, headers: response.headers };
  }
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch (error) {
    // The headers came, the file did not (the connection dropped, the user cancelled, the time ran
    // out): said as such, never thrown at a page that would then wait forever.
    return { ok: false, status: 0, problem: transferProblem(error, cancel, timeoutMs, true), body: undefined };
  }
  const warningCount = Number(response.headers.get('x-open-playlist-warning-count') ?? '0');
  return { ok: true, blob, fileName: attachmentFileName(response.headers.get('content-disposition'), 'export'), warningCount: Number.isFinite(warningCount) ? warningCount : 0, headers: response.headers };
}
