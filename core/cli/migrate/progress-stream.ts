import { EngineRequestError, type EngineClient } from '../engine-command/index.ts';
import type { JobSnapshot } from './migration-views.ts';

/**
 * Follows `/api/migrations/{id}/events` until `stop` says the job reached a state the caller acts
 * on. Every event carries its progress number; after a dropped connection the stream is reopened
 * with `Last-Event-ID`, so the engine sends exactly the changes that were missed.
 */

export interface StreamOptions {
  /** Called with every `job` event; answer true to stop following. */
  onJob(job: JobSnapshot): boolean;
  /** Waits before reconnecting (tests and the CLI use the server's `retry` hint). */
  reconnectDelayMs?: number;
  /** Gives up after this many reconnects in a row without any event in between. */
  maxReconnects?: number;
  /** Told about every reconnect, so the user sees why the bar paused. */
  onReconnect?(attempt: number, lastEventId: number): void;
}

interface SseEvent {
  id: number | null;
  event: string;
  data: string;
}

/** Splits an SSE byte stream into events (comments and `retry:` lines are consumed here). */
async function* sseEvents(body: ReadableStream<Uint8Array>, onRetry: (ms: number) => void): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event: SseEvent = { id: null, event: 'message', data: '' };
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line === '' || line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'id' && /^\d+$/.test(text)) event.id = Number(text);
          else if (field === 'event') event.event = text;
          else if (field === 'data') data.push(text);
          else if (field === 'retry' && /^\d+$/.test(text)) onRetry(Number(text));
        }
        if (data.length === 0) continue;
        event.data = data.join('\n');
        yield event;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** Follows the job until `onJob` answers true; returns that job. Resumes dropped connections. */
export async function followJob(client: EngineClient, jobId: string, options: StreamOptions): Promise<JobSnapshot> {
  let last = 0;
  let retryMs = options.reconnectDelayMs ?? 2_000;
  let quietReconnects = 0;
  const maxReconnects = options.maxReconnects ?? 30;
  for (;;) {
    const controller = new AbortController();
    let sawEvent = false;
    try {
      const response = await client.raw(`/api/migrations/${jobId}/events`, { headers: { accept: 'text/event-stream', ...(last > 0 ? { 'last-event-id': String(last) } : {}) }, signal: controller.signal });
      if (response.status === 404) throw new Error(`No migration ${jobId} on this engine.`);
      if (!response.ok || !response.body) throw new StreamDropped(`the event stream answered HTTP ${response.status}`);
      for await (const event of sseEvents(response.body, (ms) => (retryMs = options.reconnectDelayMs ?? ms))) {
        sawEvent = true;
        if (event.id !== null) last = Math.max(last, event.id);
        if (event.event !== 'job') continue;
        const job = JSON.parse(event.data) as JobSnapshot;
        if (options.onJob(job)) return job;
      }
    } catch (error) {
      const unreachable = error instanceof EngineRequestError && error.status === 0;
      if (!unreachable && !(error instanceof StreamDropped) && !(error instanceof TypeError) && !(error instanceof Error && /terminated|ECONNRESET|socket|aborted/i.test(error.message))) throw error;
    } finally {
      controller.abort();
    }
    // The stream ended or broke before the job got where we wait for it: reopen after the hint.
    quietReconnects = sawEvent ? 1 : quietReconnects + 1;
    if (quietReconnects > maxReconnects) throw new Error(`Lost the progress stream of migration ${jobId} ${maxReconnects} times in a row; it keeps running in the engine (see \`opl migrate --list\`).`);
    options.onReconnect?.(quietReconnects, last);
    await new Promise((resolve) => setTimeout(resolve, retryMs));
  }
}

class StreamDropped extends Error {}
