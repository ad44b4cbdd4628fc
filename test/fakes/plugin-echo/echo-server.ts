import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A small HTTP server for sandbox tests and benchmarks. It records every request it receives (so a
 * test can prove that a refused request never left the sandbox) and offers the behaviours hostile
 * plugins poke at: echoing request headers (credential leaks), large bodies, redirects, a request
 * that never answers, and a paged playlist for the read benchmark.
 *
 * Routes (any host name; the sandbox's resolver points test names here):
 *   /v1/echo                      JSON of the request (method, path, headers); `x-echo-authorization` header too
 *   /v1/big?bytes=N[&chunked=1]   N bytes of "a" (without Content-Length when chunked)
 *   /v1/redirect?to=URL[&status]  a redirect to URL (302 unless status given)
 *   /v1/redirect-loop?n=K         redirects to itself forever
 *   /v1/slow                      never answers
 *   /v1/playlists/ID/tracks?offset=&limit=   a page of a playlist of `playlistSize` tracks (`next` is a
 *                                            path), after `pageLatencyMs`
 *   anything else                 {"ok":true}
 */

export interface RecordedRequest {
  readonly method: string;
  readonly host: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The client closed the connection before the answer was complete (it gave up: an abort, a timeout). */
  abandoned?: boolean;
}

export interface EchoServer {
  readonly port: number;
  /** `http://<host>:<port>`. */
  origin(host?: string): string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface EchoServerOptions {
  readonly playlistSize?: number;
  /** Delay before answering a playlist page, to stand in for a real API's latency. */
  readonly pageLatencyMs?: number;
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

/** A deterministic fake track in the shape a typical provider API returns. */
export function fakeApiTrack(index: number): Record<string, unknown> {
  return {
    id: `trk${index}`,
    name: `Track number ${index}`,
    artists: [{ id: `art${index % 97}`, name: `Artist ${index % 97}` }, { id: 'art-feat', name: 'Featured Singer' }],
    album: { id: `alb${index % 503}`, name: `Album ${index % 503}`, release_date: '2019-05-17' },
    duration_ms: 180_000 + (index % 120) * 1_000,
    explicit: index % 7 === 0,
    external_ids: { isrc: `USABC19${String(index).padStart(5, '0')}` },
    track_number: (index % 12) + 1,
    disc_number: 1,
    added_at: '2024-01-02T03:04:05Z',
    uri: `fake:track:trk${index}`,
  };
}

export async function startEchoServer(options: EchoServerOptions = {}): Promise<EchoServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const playlistSize = options.playlistSize ?? 10_000;

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const record: RecordedRequest = { method: request.method ?? 'GET', host: request.headers.host ?? '', path: url.pathname + url.search, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(record);
      response.on('close', () => {
        if (!response.writableFinished) record.abandoned = true;
      });
      const path = url.pathname;

      if (path === '/v1/echo') {
        json(response, 200, { method: request.method, path: url.pathname, headers: request.headers }, { 'x-echo-authorization': request.headers.authorization ?? '' });
        return;
      }
      if (path === '/v1/big') {
        const bytes = Number(url.searchParams.get('bytes') ?? '0');
        const chunked = url.searchParams.get('chunked') === '1';
        response.writeHead(200, { 'content-type': 'application/octet-stream', ...(chunked ? {} : { 'content-length': bytes }) });
        const block = Buffer.alloc(64 * 1024, 'a');
        let left = bytes;
        const pump = (): void => {
          while (left > 0) {
            const piece = left >= block.length ? block : block.subarray(0, left);
            left -= piece.length;
            if (!response.write(piece)) {
              response.once('drain', pump);
              return;
            }
          }
          response.end();
        };
        pump();
        return;
      }
      if (path === '/v1/redirect') {
        response.writeHead(Number(url.searchParams.get('status') ?? '302'), { location: url.searchParams.get('to') ?? '/' });
        response.end();
        return;
      }
      if (path === '/v1/redirect-loop') {
        const n = Number(url.searchParams.get('n') ?? '0');
        response.writeHead(302, { location: `/v1/redirect-loop?n=${n + 1}` });
        response.end();
        return;
      }
      if (path === '/v1/slow') return; // never answered; closed with the server
      const tracks = /^\/v1\/playlists\/([^/]+)\/tracks$/.exec(path);
      if (tracks) {
        const offset = Number(url.searchParams.get('offset') ?? '0');
        const limit = Math.min(100, Number(url.searchParams.get('limit') ?? '100'));
        const items: Record<string, unknown>[] = [];
        for (let index = offset; index < Math.min(offset + limit, playlistSize); index++) items.push(fakeApiTrack(index));
        const next = offset + limit < playlistSize ? `/v1/playlists/${tracks[1]}/tracks?offset=${offset + limit}&limit=${limit}` : null;
        const answer = () => json(response, 200, { items, total: playlistSize, offset, limit, next, snapshot_id: 'snap-1' });
        if (options.pageLatencyMs) setTimeout(answer, options.pageLatencyMs);
        else answer();
        return;
      }
      json(response, 200, { ok: true });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    origin: (host = 'api.example.com') => `http://${host}:${port}`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
