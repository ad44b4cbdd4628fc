import { describe, expect, it } from 'vitest';
import { formatRemaining, RetryWait, type WaitClock } from '../../../ui/src/components/export-page/retry-wait.ts';

/** A clock that only moves when told to, firing the timers that fall due on the way. */
function manualClock(): WaitClock & { advance(ms: number): void; pending(): number } {
  let now = 1_000_000;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { at: now + ms, callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, timer]) => timer.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = end;
    },
    pending: () => timers.size,
  };
}

function recorder() {
  const ticks: number[] = [];
  let over = 0;
  return { ticks, overCount: () => over, events: { onTick: (remaining: number) => ticks.push(remaining), onOver: () => (over += 1) } };
}

describe('the wait a refusal asked for before Try again', () => {
  it('is held for the whole Retry-After, counting the seconds left down, and ends once', () => {
    const clock = manualClock();
    const seen = recorder();
    const wait = new RetryWait(120, seen.events, clock);
    expect(wait.remainingSeconds).toBe(120);
    expect(wait.over).toBe(false);

    clock.advance(1_000);
    expect(wait.remainingSeconds).toBe(119);
    expect(seen.ticks).toEqual([119]);
    clock.advance(60_500);
    expect(wait.remainingSeconds).toBe(59);
    expect(wait.over).toBe(false);
    expect(seen.overCount()).toBe(0);

    clock.advance(58_499);
    expect(wait.remainingSeconds).toBe(1);
    expect(wait.over).toBe(false);
    clock.advance(1);
    expect(wait.remainingSeconds).toBe(0);
    expect(wait.over).toBe(true);
    expect(seen.overCount()).toBe(1);
    // Every whole second was shown on the way down, never 0 (that is the end, said once).
    expect(seen.ticks).toEqual(Array.from({ length: 119 }, (_, index) => 119 - index));

    clock.advance(10_000);
    expect(seen.overCount()).toBe(1);
    expect(clock.pending()).toBe(0);
  });

  it('a wait of a fraction of a second is still counted as a whole second', () => {
    const clock = manualClock();
    const seen = recorder();
    const wait = new RetryWait(2, seen.events, clock);
    clock.advance(1_500);
    expect(wait.remainingSeconds).toBe(1);
    clock.advance(500);
    expect(seen.overCount()).toBe(1);
  });

  it('stopped (the refusal went stale, or the page was left), it says nothing more and leaves no timer', () => {
    const clock = manualClock();
    const seen = recorder();
    const wait = new RetryWait(30, seen.events, clock);
    clock.advance(2_000);
    wait.stop();
    expect(wait.over).toBe(true);
    expect(clock.pending()).toBe(0);
    clock.advance(60_000);
    expect(seen.ticks).toEqual([29, 28]);
    expect(seen.overCount()).toBe(0);
  });

  it('a wait of nothing is over at once', () => {
    const clock = manualClock();
    const seen = recorder();
    const wait = new RetryWait(0, seen.events, clock);
    expect(wait.over).toBe(true);
    expect(seen.overCount()).toBe(1);
    expect(clock.pending()).toBe(0);
  });
});

describe('the time left on the button', () => {
  it('in seconds under a minute, else minutes and seconds', () => {
    expect(formatRemaining(45)).toBe('45 s');
    expect(formatRemaining(1)).toBe('1 s');
    expect(formatRemaining(60)).toBe('1 min');
    expect(formatRemaining(119)).toBe('1 min 59 s');
    expect(formatRemaining(120)).toBe('2 min');
    expect(formatRemaining(0.2)).toBe('1 s');
  });
});
