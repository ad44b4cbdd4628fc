import { expect } from 'vitest';

/** One server-sent event as the engine's streams send it: a numeric id, a type, JSON data. */
export interface ServerEvent<T = unknown> {
  id: number;
  type: string;
  data: T;
}

export interface ReadServerEventsOptions<T> {
  /** Resumes after this event (sent as `Last-Event-ID`). */
  readonly lastEventId?: number | string;
  /** Stops reading (and disconnects) once this holds for the events read so far. */
  readonly until: (events: readonly ServerEvent<T>[]) => boolean;
  readonly timeoutMs?: number;
}

/**
 * Reads an engine event stream the way a browser's EventSource would, until `until` holds, then
 * disconnects. A stream that ends or times out before that is an error naming what arrived, so a
 * test waiting for an event that never comes fails with a reason instead of hanging.
 */
export async function readServerEvents<T = Record<string, unknown>>(url: string, options: ReadServerEventsOptions<T>): Promise<ServerEvent<T>[]> {
  const controller = new AbortController();
  const timeoutMs = options.timeoutMs ?? 30_000;
  const timer = setTimeout(() => controller.abort(new Error(`no awaited event within ${timeoutMs} ms`)), timeoutMs);
  const events: ServerEvent<T>[] = [];
  try {
    const response = await fetch(url, {
      headers: { accept: 'text/event-stream', ...(options.lastEventId === undefined ? {} : { 'last-event-id': String(options.lastEventId) }) },
      signal: controller.signal,
    });
    expect(response.status, `${url} answered ${response.status}`).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        // Comment lines (`: keep-alive`) carry no field; a field's value starts after one optional space.
        const fields = Object.fromEntries(block.split('\n').filter((line) => /^(id|event|data):/.test(line)).map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).replace(/^ /, '')]));
        if (!fields['data']) continue;
        events.push({ id: Number(fields['id']), type: fields['event'] ?? 'message', data: JSON.parse(fields['data']) as T });
        if (options.until(events)) return events;
      }
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  throw new Error(`the stream ended before the awaited event; got ${events.length} events: ${events.map((event) => event.type).join(', ')}`);
}
