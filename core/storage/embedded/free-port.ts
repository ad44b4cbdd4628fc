import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago (for throwaway servers in tests and tools). */
export function findFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolvePort(port) : reject(new Error('Could not find a free port'))));
    });
  });
}
