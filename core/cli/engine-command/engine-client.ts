/**
 * The CLI's view of a running engine: JSON requests against its HTTP API, with the owner-session
 * cookie when the instance has the session gate on. The CLI never touches the database: whatever
 * `opl migrate` does, the web UI could have done through the same endpoints.
 */

export interface Answer {
  status: number;
  json: unknown;
  headers: Headers;
}

/** A problem+json answer (or an unreachable engine), with its stable `code` when there is one. */
export class EngineRequestError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly problem: Record<string, unknown>;
  constructor(status: number, message: string, problem: Record<string, unknown> = {}) {
    super(message);
    this.name = 'EngineRequestError';
    this.status = status;
    this.code = typeof problem['code'] === 'string' ? problem['code'] : null;
    this.problem = problem;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function problemMessage(status: number, json: unknown): string {
  if (isRecord(json)) {
    const detail = typeof json['detail'] === 'string' ? json['detail'] : typeof json['message'] === 'string' ? json['message'] : null;
    const title = typeof json['title'] === 'string' ? json['title'] : null;
    if (detail ?? title) return `${detail ?? title}${typeof json['code'] === 'string' ? ` (${json['code']})` : ''}`;
  }
  return `the engine answered HTTP ${status}`;
}

/** Logging out must not hold up the end of a command for long (an engine that went away). */
const LOGOUT_TIMEOUT_MS = 5_000;

export class EngineClient {
  readonly baseUrl: string;
  #cookie: string | null = null;

  private constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** Reaches the engine and, when its session gate is on, logs in with the owner secret. */
  static async connect(baseUrl: string, ownerSecret: string | undefined): Promise<EngineClient> {
    const client = new EngineClient(baseUrl);
    const me = await client.#send('GET', '/api/me', undefined, [200, 401]);
    const session = isRecord(me.json) && isRecord(me.json['session']) ? me.json['session'] : null;
    const needsLogin = me.status === 401 || (session?.['required'] === true && session['authenticated'] !== true);
    if (!needsLogin) return client;
    if (!ownerSecret) throw new EngineRequestError(401, `${client.baseUrl} requires an owner session: set OPL_OWNER_SECRET to the instance's owner secret.`);
    const login = await client.#send('POST', '/api/session', { secret: ownerSecret }, [204]);
    const cookie = (login.headers.getSetCookie?.() ?? [])
      .map((line) => line.split(';')[0]!)
      .find((pair) => pair.startsWith('opl_session='));
    if (!cookie) throw new EngineRequestError(login.status, 'The engine accepted the owner secret but set no session cookie.');
    client.#cookie = cookie;
    return client;
  }

  /**
   * Ends the owner session `connect` logged in with (DELETE /api/session), so the cookie is worth
   * nothing once the command is done: a CLI session is never left to live out its whole lifetime.
   * Returns false when the engine could not be told (the session then expires by itself).
   */
  async close(): Promise<boolean> {
    const cookie = this.#cookie;
    if (!cookie) return true;
    this.#cookie = null;
    try {
      const response = await fetch(`${this.baseUrl}/api/session`, { method: 'DELETE', headers: { accept: 'application/json', cookie }, signal: AbortSignal.timeout(LOGOUT_TIMEOUT_MS) });
      await response.body?.cancel();
      return response.ok;
    } catch {
      return false;
    }
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { accept: 'application/json', ...(this.#cookie ? { cookie: this.#cookie } : {}), ...extra };
  }

  /** A JSON request; any status outside `expected` throws an EngineRequestError with the problem. */
  async request(method: string, path: string, body?: unknown, expected: readonly number[] = [200]): Promise<Answer> {
    return this.#send(method, path, body, expected);
  }

  /** A raw request (event streams, report and export downloads): the caller reads the body. A `body` is sent as JSON. */
  async raw(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> {
    const json: Record<string, string> = init.body === undefined ? {} : { 'content-type': 'application/json' };
    try {
      return await fetch(`${this.baseUrl}${path}`, {
        method: init.method ?? 'GET',
        headers: this.headers({ ...json, ...init.headers }),
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        ...(init.signal ? { signal: init.signal } : {}),
      });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw this.#unreachable(error);
    }
  }

  async #send(method: string, path: string, body: unknown, expected: readonly number[]): Promise<Answer> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: this.headers(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw this.#unreachable(error);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!expected.includes(response.status)) throw new EngineRequestError(response.status, problemMessage(response.status, json), isRecord(json) ? json : {});
    return { status: response.status, json, headers: response.headers };
  }

  #unreachable(error: unknown): EngineRequestError {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    return new EngineRequestError(0, `Cannot reach the engine at ${this.baseUrl} (${cause}). Is \`opl start\` running there? Use --url to point elsewhere.`);
  }
}
