import { setTimeout as sleep } from 'node:timers/promises';
import type { RecordedFakeRequest } from '../../../fakes/fake-provider.ts';
import type { RequestTap } from './request-tap.ts';
import type { WorkerProcess } from './worker-process.ts';

/**
 * The steps every crash test shares: a relay of worker processes, and seeded kill points.
 *
 * A crash test kills a worker process with SIGKILL at a seeded point of a job's path, starts the
 * next one, and repeats twenty to fifty times. Building a worker (the engine, its plugin host, the
 * catalogue) costs seconds; the relay builds the next worker while the current one works, so a kill
 * costs the job's steps, not an engine's start.
 */

export interface WorkerRelay {
  /**
   * The worker built in standby, now polling; the one after it starts building at once. After a
   * kill it goes only once the killed worker's lease ran out, as a worker started later would: its
   * start-up recovery then takes the job over at once instead of waiting for its next sweep.
   */
  next(): Promise<WorkerProcess>;
  /** SIGKILL, noting when the killed worker's lease runs out. */
  kill(worker: WorkerProcess): Promise<void>;
  /** Kills the standby worker that nobody took. */
  close(): Promise<void>;
}

export function workerRelay(start: (options: { standby: boolean }) => WorkerProcess, leaseSeconds: number): WorkerRelay {
  let warm: WorkerProcess | null = start({ standby: true });
  let leaseEndsAt = 0;
  return {
    async next() {
      if (!warm) throw new Error('the worker relay is closed');
      const worker = warm;
      warm = start({ standby: true });
      await worker.built;
      const wait = leaseEndsAt - Date.now();
      if (wait > 0) await sleep(wait);
      worker.go();
      await worker.ready;
      return worker;
    },
    async kill(worker) {
      await worker.kill();
      // Leases are renewed while the worker lives; the last renewal ran out at most a lease later.
      leaseEndsAt = Date.now() + leaseSeconds * 1000 + 250;
    },
    async close() {
      await warm?.kill();
      warm = null;
    },
  };
}

/** Where a worker dies: after some of the job's provider requests, or right after a write, plus a little bookkeeping time. */
export interface KillPoint {
  afterRequests: number;
  onWrite: boolean;
  extraMs: number;
}

export interface KillPointShape {
  /** Kills after 1…maxRequests of the job's requests… */
  maxRequests: number;
  /** …or, this share of the time, right after a write reached the provider (its answer is lost). */
  writeShare: number;
  /** Half of the kills land 0…maxExtraMs later: the engine is then inside its own bookkeeping. */
  maxExtraMs: number;
}

/** Draws a kill point; the draws are always made in one order, so TEST_SEED replays a run. */
export function seededKillPoint(random: () => number, shape: KillPointShape): KillPoint {
  const afterRequests = 1 + Math.floor(random() * shape.maxRequests);
  const onWrite = random() < shape.writeShare;
  const extraMs = random() < 0.5 ? 0 : Math.floor(random() * shape.maxExtraMs);
  return { afterRequests, onWrite, extraMs };
}

export interface KillWatch {
  /** Which requests are the job's steps; token refreshes and connection checks usually are not. */
  isStep?(request: RecordedFakeRequest): boolean;
  /** Which steps are writes. */
  isWrite(request: RecordedFakeRequest): boolean;
  /**
   * A write point also ends after `afterRequests` steps, whichever comes first (else it waits for
   * a write): for jobs that make many reads before their first write, where waiting for it would
   * let one worker's life do most of a job.
   */
  writeOrCount?: boolean;
  /** What is left may need no provider request at all: then the kill lands after this long. */
  giveUpMs: number;
}

/**
 * Lets `worker` run until it reaches `point` (or `giveUpMs` passed), without killing it; returns
 * where it was ("METHOD path+Nms"). Throws with the worker's log when it exits by itself.
 */
export async function reachKillPoint(worker: WorkerProcess, tap: RequestTap, point: KillPoint, watch: KillWatch): Promise<string> {
  let seen = 0;
  let last = '';
  let stopListening: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => {
    stopListening = tap.listen((request) => {
      if (watch.isStep && !watch.isStep(request)) return;
      last = `${request.method} ${request.path}`;
      const counted = ++seen >= point.afterRequests;
      if (point.onWrite ? watch.isWrite(request) || (watch.writeOrCount === true && counted) : counted) {
        stopListening();
        resolve();
      }
    });
  });
  const exited = worker.exited.then(() => {
    throw new Error(`the worker exited by itself:\n${worker.output().slice(-4000)}`);
  });
  try {
    await Promise.race([reached, exited, sleep(watch.giveUpMs)]);
    if (point.extraMs > 0) await sleep(point.extraMs);
  } finally {
    stopListening();
  }
  return `${last || 'no request'}+${point.extraMs}ms`;
}

/** Polls `done` until it holds; throws with the worker's log after `timeoutMs`. */
export async function waitForWorker(worker: WorkerProcess, what: string, done: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${Math.round(timeoutMs / 1000)} s:\n${worker.output().slice(-4000)}`);
    await sleep(250);
  }
}
