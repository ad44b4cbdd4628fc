import type { ChildProcess } from 'node:child_process';
import type { PendingPing, PluginHostLogger } from './plugin-host.types.ts';

/**
 * Pings the plugin host's child process and kills it when a ping stays unanswered too long (its
 * exit handler then restarts it). Returns the function that stops the watchdog.
 */

export interface ChildWatchdog {
  readonly child: ChildProcess;
  readonly pings: Map<number, PendingPing>;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly logger: PluginHostLogger;
  /** False once the host has moved on to another child (or none). */
  readonly isCurrent: () => boolean;
  readonly sendPing: () => Promise<number>;
}

export function startChildWatchdog({ child, pings, intervalMs, timeoutMs, logger, isCurrent, sendPing }: ChildWatchdog): () => void {
  let lastTick = performance.now();
  const overdue = (): boolean => {
    const oldest = Math.min(...[...pings.values()].map((ping) => ping.sentAt));
    return Number.isFinite(oldest) && performance.now() - oldest > timeoutMs;
  };
  const timer = setInterval(() => {
    if (!isCurrent()) return;
    // While the engine's own thread was busy (parsing a large import record, say), no pong
    // could be heard: that stall is not the child's, so pending pings are dated forward by it.
    const now = performance.now();
    const stall = now - lastTick - intervalMs;
    lastTick = now;
    if (stall > 0) for (const ping of pings.values()) ping.sentAt += stall;
    if (overdue()) {
      // Timers run before pending I/O: after a stall the pong may be waiting in the channel.
      // Judge again once this turn of the event loop has read it.
      setImmediate(() => {
        if (!isCurrent() || !overdue()) return;
        logger.error({ source: 'plugin-host', pid: child.pid }, `the plugin host process did not answer a ping within ${timeoutMs} ms; restarting it`);
        child.kill('SIGKILL');
      });
      return;
    }
    if (child.connected) void sendPing().catch(() => undefined);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
