import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Server } from 'node:net';
import { gzipSync } from 'node:zlib';

/**
 * Local listeners for the SSRF suite. The "public" listener stands in for an allowed public host
 * (the test resolver maps registry.opl.test to 127.0.0.2 and the test-only escape hatch lets that
 * one address through). The forbidden listeners sit on the addresses an attacker would aim at
 * (127.0.0.1, ::1, and a plain-HTTP one) on the same port, so any request that slips through lands
 * on them and is counted.
 */

const TLS_DIR = new URL('../../fixtures/tls/', import.meta.url);
export const TEST_CA = readFileSync(new URL('test-only-registry.cert.pem', TLS_DIR), 'utf8');
const TEST_KEY = readFileSync(new URL('test-only-registry.key.pem', TLS_DIR), 'utf8');

export const PUBLIC_ADDRESS = '127.0.0.2';

export interface CountingListener {
  readonly name: string;
  connections: number;
  requests: string[];
  close(): Promise<void>;
}

export interface LocalListeners {
  readonly port: number;
  readonly publicHttps: CountingListener;
  readonly forbidden: readonly CountingListener[];
  /** Bytes the streaming route wrote before the client hung up. */
  streamed: { bytes: number; closed: boolean };
  reset(): void;
  forbiddenConnections(): number;
  close(): Promise<void>;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

function counting(name: string, server: Server, address: string, port: number): Promise<CountingListener> {
  const listener: CountingListener = {
    name,
    connections: 0,
    requests: [],
    close: () =>
      new Promise((resolve) => {
        (server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => {
    listener.connections += 1;
  });
  server.on('request', (request: IncomingMessage) => {
    listener.requests.push(request.url ?? '');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => resolve(listener));
  });
}

function portOf(server: Server): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

const trap: Handler = (_request, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end('{"reached":"forbidden"}');
/** Ports tried before giving up: another process may hold the public listener's port on a forbidden address. */
const PORT_ATTEMPTS = 20;

/**
 * The public listener on a free port of 127.0.0.2, and the forbidden ones on the same port of the
 * other addresses. The port is free on 127.0.0.2 only: under a parallel test run another socket
 * may already hold it on 127.0.0.1 or ::1 (EADDRINUSE), so such a port is given up and another tried.
 */
async function onOnePort(routes: Handler): Promise<{ port: number; publicHttps: CountingListener; forbidden: CountingListener[] }> {
  for (let attempt = 1; ; attempt++) {
    const publicServer = createHttpsServer({ cert: TEST_CA, key: TEST_KEY }, routes);
    const publicHttps = await counting('public https 127.0.0.2', publicServer, PUBLIC_ADDRESS, 0);
    const port = portOf(publicServer);
    const forbidden: CountingListener[] = [];
    try {
      forbidden.push(await counting('forbidden https 127.0.0.1', createHttpsServer({ cert: TEST_CA, key: TEST_KEY }, trap), '127.0.0.1', port));
      forbidden.push(await counting('forbidden https ::1', createHttpsServer({ cert: TEST_CA, key: TEST_KEY }, trap), '::1', port));
      forbidden.push(await counting('forbidden http 127.0.0.3', createHttpServer(trap), '127.0.0.3', port));
      return { port, publicHttps, forbidden };
    } catch (error) {
      await Promise.all([publicHttps, ...forbidden].map((listener) => listener.close()));
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}

export async function startLocalListeners(): Promise<LocalListeners> {
  const streamed = { bytes: 0, closed: false };
  const routes: Handler = (request, response) => {
    const url = new URL(request.url ?? '/', 'https://registry.opl.test');
    const path = url.pathname;
    const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    };
    if (path === '/playlists/ok') return json(200, { ok: true, encoding: request.headers['accept-encoding'] ?? null, accept: request.headers.accept ?? null });
    if (path.startsWith('/playlists/chain/')) {
      const left = Number(path.slice('/playlists/chain/'.length));
      if (left <= 0) return json(200, { ok: true });
      response.writeHead(302, { location: `/playlists/chain/${left - 1}` }).end();
      return;
    }
    if (path === '/playlists/loop') return void response.writeHead(301, { location: '/playlists/loop' }).end();
    if (path === '/playlists/to') return void response.writeHead(302, { location: url.searchParams.get('location') ?? '/' }).end();
    if (path === '/playlists/gzip') {
      const body = gzipSync(JSON.stringify({ ok: true }));
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(body.length) }).end(body);
      return;
    }
    if (path === '/playlists/declared-large') {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) });
      response.write('[');
      return;
    }
    if (path === '/playlists/endless') {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      const pump = (): void => {
        while (!response.destroyed && streamed.bytes < 256 * 1024 * 1024) {
          streamed.bytes += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
      };
      response.on('close', () => {
        streamed.closed = true;
      });
      pump();
      return;
    }
    if (path === '/playlists/huge-header') return json(200, {}, { 'x-padding': 'a'.repeat(64 * 1024) });
    if (path === '/playlists/silent') return; // never answers
    if (path === '/playlists/trickle') {
      response.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => response.write(' '), 50);
      response.on('close', () => clearInterval(timer));
      return;
    }
    json(404, { error: 'not found' });
  };

  const { port, publicHttps, forbidden } = await onOnePort(routes);
  const all = [publicHttps, ...forbidden];
  return {
    port,
    publicHttps,
    forbidden,
    streamed,
    reset() {
      for (const listener of all) {
        listener.connections = 0;
        listener.requests = [];
      }
      streamed.bytes = 0;
      streamed.closed = false;
    },
    forbiddenConnections: () => forbidden.reduce((sum, listener) => sum + listener.connections, 0),
    async close() {
      await Promise.all(all.map((listener) => listener.close()));
    },
  };
}
