import type { ServerResponse } from 'node:http';
import { dropConnection, FailureQueue, startFakeHttp, type FailureRule, type FakeProviderServer, type FakeRequest, type RecordedFakeRequest } from '../fake-provider.ts';

/**
 * The server shell every fake provider runs in: one loopback port standing in for all the
 * provider's origins, the failure queue tests steer with `failNext`, and the order in which a
 * request meets it. A fake supplies only its provider's own answers: how it says "slow down",
 * "quota spent", "server error" and "token expired", and how it serves a request.
 */

/** The options every fake's `start…` function takes. */
export interface FakeProviderOptions {
  /** Loopback port; 0 (default) picks a free one. */
  readonly port?: number;
  /** Interface to listen on (default: loopback). */
  readonly host?: string;
  /** Seed the demo user (or channel) and approve the authorize page as that user. */
  readonly demo?: boolean;
}

export interface FakeServerSpec {
  /** The provider's real origins, all served by this one port. */
  readonly origins: readonly string[];
  readonly port?: number | undefined;
  readonly host?: string | undefined;
  /**
   * The provider's own answer to a failure rule (`rate_limit`, `quota`, `server_error`,
   * `expired_token`, or a kind of its own); false when the provider has none for the kind.
   */
  failure(rule: FailureRule, request: FakeRequest, response: ServerResponse): boolean;
  /** Applies a request whose answer is then lost (an ambiguous write): the state changes, nobody hears. */
  applyLostWrite(request: FakeRequest): void;
  serve(request: FakeRequest, response: ServerResponse): void | Promise<void>;
  /** Sees every request first, before the failure queue is consulted (to release delayed rules). */
  arrive?(request: FakeRequest): void;
  /** Handles a request (and its failure rule, if any) before the shared order does; true when it answered. */
  preempt?(request: FakeRequest, response: ServerResponse, rule: FailureRule | null): boolean;
}

/** What the shell gives every fake: the parts of `FakeProviderServer` that do not depend on the provider. */
export interface FakeServerShell extends Pick<FakeProviderServer, 'baseUrl' | 'originOverrides' | 'requests' | 'failNext' | 'clearFailures' | 'close'> {
  readonly failures: FailureQueue;
  readonly requests: RecordedFakeRequest[];
}

/**
 * Answers a failure rule the shared way: `timeout` never answers, `ambiguous_write` applies the
 * request and drops the connection, every other kind is the provider's own answer.
 */
export function answerFailure(spec: Pick<FakeServerSpec, 'failure' | 'applyLostWrite'>, rule: FailureRule, request: FakeRequest, response: ServerResponse): boolean {
  if (rule.kind === 'timeout') return true;
  if (rule.kind === 'ambiguous_write') {
    spec.applyLostWrite(request);
    dropConnection(response);
    return true;
  }
  return spec.failure(rule, request, response);
}

export async function serveFake(spec: FakeServerSpec): Promise<FakeServerShell> {
  const failures = new FailureQueue();
  const http = await startFakeHttp(
    (request, response) => {
      spec.arrive?.(request);
      const rule = failures.take(request.method, request.path);
      if (spec.preempt?.(request, response, rule)) return;
      if (rule && answerFailure(spec, rule, request, response)) return;
      return spec.serve(request, response);
    },
    { ...(spec.port !== undefined ? { port: spec.port } : {}), ...(spec.host !== undefined ? { host: spec.host } : {}) },
  );
  return {
    baseUrl: http.baseUrl,
    originOverrides: Object.fromEntries(spec.origins.map((origin) => [origin, http.baseUrl])),
    requests: http.requests,
    failures,
    failNext: (rule) => failures.push(rule),
    clearFailures: () => failures.clear(),
    close: () => http.close(),
  };
}

/** For fakes whose routes decide a reply before sending it: sends `reply` when there is one. */
export function sendReply<R>(send: (response: ServerResponse, reply: R) => void, response: ServerResponse, reply: R | null): boolean {
  if (reply === null) return false;
  send(response, reply);
  return true;
}
