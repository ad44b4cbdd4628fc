import type { FakeProviderServer, RecordedFakeRequest } from '../../../fakes/fake-provider.ts';

/**
 * Watches the requests a fake provider receives, as they arrive: the fakes record every request
 * before they handle it, so a listener runs before the fake answers — early enough to make that
 * very request fail (`failNext`) or to kill a worker while it waits for the answer. It also stamps
 * each request with its arrival time, which the fakes' own records do not carry.
 */

export type RequestListener = (request: RecordedFakeRequest, fake: FakeProviderServer) => void;

export interface RequestTap {
  /** Arrival time (ms since the epoch) of a recorded request. */
  arrivedAt(request: RecordedFakeRequest): number;
  listen(listener: RequestListener): () => void;
}

export function tapRequests(fakes: readonly FakeProviderServer[]): RequestTap {
  const arrivals = new WeakMap<RecordedFakeRequest, number>();
  const listeners = new Set<RequestListener>();
  for (const fake of fakes) {
    const requests = fake.requests;
    const push = requests.push.bind(requests);
    requests.push = (...records: RecordedFakeRequest[]) => {
      const count = push(...records);
      for (const record of records) {
        arrivals.set(record, Date.now());
        for (const listener of listeners) listener(record, fake);
      }
      return count;
    };
  }
  return {
    arrivedAt(request) {
      const at = arrivals.get(request);
      if (at === undefined) throw new Error(`request ${request.method} ${request.path} arrived before the tap`);
      return at;
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** mulberry32: a small seeded PRNG, so a failing run can be replayed with its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of this run: `TEST_SEED` when set (to replay a failure), else a fresh one. */
export function testSeed(): number {
  const given = process.env['TEST_SEED'];
  return given ? Number(given) : Math.floor(Math.random() * 2 ** 31);
}
