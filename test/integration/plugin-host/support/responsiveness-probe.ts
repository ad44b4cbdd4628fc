import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/**
 * Stands in for the engine's HTTP server: a server in the test process and a client that asks it
 * something every few milliseconds. If anything a plugin does blocked the engine's event loop,
 * answers would stop arriving or fail.
 */
export interface ResponsivenessProbe {
  /** Answers received so far. */
  readonly answered: () => number;
  readonly failures: () => string[];
  /** The slowest answer so far, in milliseconds. */
  readonly slowestMs: () => number;
  stop(): Promise<void>;
}

export async function startResponsivenessProbe(everyMs = 20): Promise<ResponsivenessProbe> {
  const server = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
  let answered = 0;
  let slowest = 0;
  const failures: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await request(url, { headersTimeout: 5_000, bodyTimeout: 5_000 });
        if ((await response.body.text()) === 'ok') answered += 1;
        else failures.push(`unexpected answer (${response.statusCode})`);
      } catch (error) {
        failures.push((error as Error).message);
      }
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    answered: () => answered,
    failures: () => [...failures],
    slowestMs: () => slowest,
    async stop() {
      running = false;
      await loop;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
