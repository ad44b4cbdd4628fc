import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Server-sent events derived from persisted rows, shared by every progress stream (migrations,
 * generator drafts, sync rules): each event is a row change numbered by a sequence, so a client that
 * reconnects with `Last-Event-ID: N` gets every change after N. A notification (LISTEN/NOTIFY, any
 * process) wakes the stream, which reads the rows changed since the last event it sent.
 */

export interface RowEvent {
  id: number;
  type: string;
  data: unknown;
}

export interface RowEventSource {
  /** The changes after event id `after`, oldest first; a full batch means "call again". */
  eventsAfter(after: number): Promise<RowEvent[]>;
  /** Calls `wake` on every change; returns the unsubscribe. */
  subscribe(wake: () => void): Promise<() => void>;
  batchSize: number;
}

export const SSE_HEARTBEAT_MS = 15_000;

/** Ends every open stream when the server closes: hijacked streams are not fastify's to end. */
export class OpenEventStreams {
  readonly #ends = new Set<() => void>();

  add(end: () => void): () => void {
    this.#ends.add(end);
    return () => this.#ends.delete(end);
  }

  endAll(): void {
    for (const end of [...this.#ends]) end();
  }
}

/** Takes over the reply and streams `source`'s events from `after` until the client goes away. */
export async function streamRowEvents(request: FastifyRequest, reply: FastifyReply, source: RowEventSource, after: number, streams: OpenEventStreams): Promise<void> {
  let last = after;
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no', 'x-content-type-options': 'nosniff' });
  raw.write('retry: 2000\n\n');
  let closed = false;
  let pending = true;
  let draining: Promise<void> | null = null;
  const drain = async () => {
    while (pending && !closed) {
      pending = false;
      const events = await source.eventsAfter(last);
      for (const event of events) {
        if (closed) return;
        raw.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
        last = Math.max(last, event.id);
      }
      if (events.length >= source.batchSize) pending = true;
    }
  };
  const wake = () => {
    pending = true;
    draining ??= drain()
      .catch((error: unknown) => request.log.warn({ err: error }, 'progress stream failed'))
      .finally(() => {
        draining = null;
        if (pending && !closed) wake();
      });
  };
  const unsubscribe = await source.subscribe(wake);
  const heartbeat = setInterval(() => raw.write(': ping\n\n'), SSE_HEARTBEAT_MS);
  const forget = streams.add(() => raw.end());
  raw.once('close', () => {
    closed = true;
    forget();
    clearInterval(heartbeat);
    unsubscribe();
  });
  wake();
}
