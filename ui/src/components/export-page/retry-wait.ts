/**
 * The wait a refusal asked for (Retry-After) before the same export may be tried again. Pressing
 * Try again sooner would only be refused again (and a music service that asked to slow down may
 * limit the account for longer), so the page holds the button back and shows the time left,
 * counted down once a second, until the wait is over.
 */

/** What a wait is measured and scheduled with: the browser's clock, or a test's own so nothing really waits. */
export interface WaitClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: WaitClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface RetryWaitEvents {
  /** The whole seconds left changed (called once a second while waiting). */
  readonly onTick: (remainingSeconds: number) => void;
  /** The wait is over: called once, never after `stop()`. */
  readonly onOver: () => void;
}

export class RetryWait {
  readonly #until: number;
  readonly #clock: WaitClock;
  readonly #events: RetryWaitEvents;
  #handle: unknown = undefined;
  #done = false;

  constructor(seconds: number, events: RetryWaitEvents, clock: WaitClock = systemClock) {
    this.#clock = clock;
    this.#events = events;
    this.#until = clock.now() + Math.max(0, seconds) * 1000;
    this.#schedule();
  }

  /** Whole seconds left, rounded up so "0" only shows once the wait is really over. */
  get remainingSeconds(): number {
    return Math.max(0, Math.ceil((this.#until - this.#clock.now()) / 1000));
  }

  get over(): boolean {
    return this.#done || this.remainingSeconds === 0;
  }

  /** Forgets the wait (the refusal went stale, or the page was left); no event follows. */
  stop(): void {
    this.#done = true;
    if (this.#handle !== undefined) this.#clock.clearTimeout(this.#handle);
    this.#handle = undefined;
  }

  #schedule(): void {
    const left = this.#until - this.#clock.now();
    if (left <= 0) {
      this.#done = true;
      this.#handle = undefined;
      this.#events.onOver();
      return;
    }
    // Wake when the whole seconds left next change, so the shown time never lags a second behind.
    const delay = left % 1000 || 1000;
    this.#handle = this.#clock.setTimeout(() => {
      if (this.#done) return;
      const remaining = this.remainingSeconds;
      if (remaining > 0) this.#events.onTick(remaining);
      this.#schedule();
    }, delay);
  }
}

/** The time left in words short enough for a button: "45 s", "1 min 59 s", "2 min". */
export function formatRemaining(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  if (whole < 60) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  return rest === 0 ? `${minutes.toLocaleString('en')} min` : `${minutes.toLocaleString('en')} min ${rest} s`;
}
