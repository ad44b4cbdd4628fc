import type { FailureRule, FakeProviderServer, RecordedFakeRequest } from '../../../fakes/fake-provider.ts';
import type { RequestTap } from './request-tap.ts';

/**
 * Makes a share of the fakes' API requests fail as they arrive, each with a kind drawn from a
 * seeded PRNG: 429 with a short Retry-After, 5xx, a request that is never answered, and — for
 * writes — a write that is applied but whose answer is lost. The rule is queued for exactly the
 * request that just arrived (the fake takes rules after recording the request), so failures are
 * spread over reads, searches and writes instead of hitting a run of consecutive requests.
 */

export type RequestClass = 'read' | 'search' | 'write';

export interface InjectedFailure {
  kind: FailureRule['kind'];
  class: RequestClass;
  method: string;
  path: string;
}

export interface FaultInjector {
  readonly injected: InjectedFailure[];
  /** API requests seen while active. */
  readonly seen: number;
  stop(): void;
}

export function classify(request: RecordedFakeRequest): RequestClass {
  if (request.method !== 'GET') return 'write';
  if (request.path.startsWith('/v2/searchResults') || request.path.startsWith('/v1/search') || Object.keys(request.query).some((name) => name.startsWith('filter[isrc]'))) return 'search';
  return 'read';
}

function isApi(request: RecordedFakeRequest): boolean {
  return request.path.startsWith('/v1/') || request.path.startsWith('/v2/');
}

export interface FaultOptions {
  random: () => number;
  /** Share of requests that fail by chance. */
  rate: number;
  /** Requests never answered cost the request timeout each: at most this many by chance. */
  maxTimeouts: number;
  /**
   * Failures each sort of request gets for sure: reads and writes are too few to rely on chance.
   * Until a sort has them, every other request of that sort fails (the retry that follows goes through).
   */
  minFailures: Record<RequestClass, number>;
}

export function injectFaults(tap: RequestTap, options: FaultOptions): FaultInjector {
  const injected: InjectedFailure[] = [];
  let seen = 0;
  const seenOf: Record<RequestClass, number> = { read: 0, search: 0, write: 0 };
  let timeouts = 0;
  // The first failures of each sort cover every kind; chance decides the rest.
  const firstReads: FailureRule['kind'][] = ['timeout', 'server_error', 'rate_limit'];
  const firstWrites: FailureRule['kind'][] = ['ambiguous_write', 'server_error', 'rate_limit', 'timeout'];
  const pick = (write: boolean): FailureRule['kind'] => {
    const planned = (write ? firstWrites : firstReads).shift();
    if (planned) return planned;
    const roll = options.random();
    if (write && roll < 0.25) return 'ambiguous_write';
    if (roll < 0.35 && timeouts < options.maxTimeouts) return 'timeout';
    return roll < 0.65 ? 'rate_limit' : 'server_error';
  };
  const stop = tap.listen((request, fake: FakeProviderServer) => {
    if (!isApi(request)) return;
    seen += 1;
    const sort = classify(request);
    const write = sort === 'write';
    seenOf[sort] += 1;
    const failuresOfSort = injected.filter((failure) => failure.class === sort).length;
    const fail = failuresOfSort < options.minFailures[sort] ? seenOf[sort] % 2 === 1 : options.random() < options.rate;
    if (!fail) return;
    const kind = pick(write);
    if (kind === 'timeout') timeouts += 1;
    fake.failNext({ kind, method: request.method, pathPrefix: request.path, times: 1, retryAfterS: 1, status: options.random() < 0.5 ? 503 : 500 });
    injected.push({ kind, class: classify(request), method: request.method, path: request.path });
  });
  return {
    injected,
    get seen() {
      return seen;
    },
    stop,
  };
}
