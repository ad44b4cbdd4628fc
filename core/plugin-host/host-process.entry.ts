import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Manifest, Track } from '@opl/plugin-sdk';
import { PluginError, Unsupported } from '@opl/plugin-sdk';
import {
  createHostFetch,
  createResolvingAgent,
  createSandbox,
  isOperationName,
  PluginLoadError,
  SandboxError,
  serializeInputOf,
  type AcquirePermit,
  type SerializeSlice,
  type HostFetch,
  type Sandbox,
  type SandboxCallContext,
  type SandboxLogEntry,
} from '@opl/plugin-sdk/sandbox';
import { childConfigSchema, toChildSchema, type ErrorData, type FromChild, type ToChild } from './ipc-messages.schema.ts';

/**
 * The plugin-host child process: it owns every plugin's isolate, so that an isolate's OOM, a
 * catastrophic V8 error or a runaway plugin can at worst take down this process, which the
 * engine's PluginHost then restarts. It speaks only IPC (validated both ways) and exits when the
 * engine goes away.
 */

if (!process.send) {
  process.stderr.write('host-process.entry.ts runs only as a forked child of PluginHost\n');
  process.exit(2);
}

const config = childConfigSchema.parse(JSON.parse(process.argv[2] ?? 'null'));
const dispatcher = config.hostResolver ? createResolvingAgent(config.hostResolver) : undefined;

interface Hosted {
  readonly manifest: Manifest;
  readonly code: string;
  /** The running sandbox, or the one being built; rebuilt lazily after it broke. */
  sandbox: Promise<Sandbox>;
}

const plugins = new Map<string, Hosted>();
const chunkAcks = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
const permits = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
const slices = new Map<string, { resolve: (slice: SerializeSlice) => void; reject: (error: Error) => void }>();
/** Calls in flight that the engine may cancel, by call id. */
const cancellable = new Map<string, AbortController>();

function send(message: FromChild): void {
  if (process.connected) process.send!(message);
}

function log(entry: SandboxLogEntry): void {
  send({ type: 'log', entry: { ...entry, message: entry.message.slice(0, 4_000) } });
}

/**
 * The request a plugin's fetch is sending, for the permit it asks for: a declared quota prices
 * requests by method and path. The sandbox's permit names only the operation, so the fetch
 * wrapper below keeps the request in async context, where `acquire` (awaited inside that fetch)
 * finds it.
 */
const currentRequest = new AsyncLocalStorage<{ method: string; url: string }>();

function requestOf(raw: unknown): { method: string; url: string } | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { url, method } = raw as { url?: unknown; method?: unknown };
  if (typeof url !== 'string' || url.length > 8_000) return null;
  return { url, method: typeof method === 'string' && /^[A-Za-z]{1,10}$/.test(method) ? method.toUpperCase() : 'GET' };
}

function withRequestContext(inner: HostFetch): HostFetch {
  return {
    fetch(request, call) {
      const described = requestOf(request);
      return described ? currentRequest.run(described, () => inner.fetch(request, call)) : inner.fetch(request, call);
    },
    close: () => inner.close(),
  };
}

function acquire(permit: AcquirePermit): Promise<void> {
  const requestId = randomUUID();
  const request = currentRequest.getStore() ?? null;
  return new Promise<void>((resolve, reject) => {
    permits.set(requestId, { resolve, reject });
    send({ type: 'acquire', requestId, permit: { ...permit, request } });
  });
}

function build(manifest: Manifest, code: string): Promise<Sandbox> {
  return createSandbox({
    manifest,
    code,
    limits: config.limits,
    hostFetch: withRequestContext(createHostFetch({ manifest, ...(dispatcher ? { dispatcher } : {}), ...(config.originOverrides ? { originOverrides: config.originOverrides } : {}) })),
    log,
    ...(config.acquire ? { acquire } : {}),
    onBroken: (failure, message) => {
      send({ type: 'broken', pluginId: manifest.id, failure, message });
      // V8 lost control of that isolate: this process cannot be trusted any more.
      if (failure === 'crashed') setImmediate(() => process.exit(70));
    },
  });
}

async function sandboxFor(pluginId: string): Promise<Sandbox> {
  const hosted = plugins.get(pluginId);
  if (!hosted) throw new SandboxError('not_loaded', `${pluginId} is not loaded`);
  const current = await hosted.sandbox;
  if (!current.isDisposed) return current;
  if (plugins.get(pluginId) !== hosted) throw new SandboxError('not_loaded', `${pluginId} was unloaded`);
  // A broken sandbox is replaced by a fresh isolate for the next call; strikes are the engine's business.
  hosted.sandbox = build(hosted.manifest, hosted.code);
  return hosted.sandbox;
}

function errorData(error: unknown): ErrorData {
  if (error instanceof SandboxError) return { type: 'ProviderError', message: error.message, failure: error.failure };
  if (error instanceof PluginError) return { ...error.toData(), message: error.message.slice(0, 4_000) };
  return { type: 'ProviderError', message: 'the plugin host failed to run the call' };
}

async function handle(message: ToChild): Promise<void> {
  switch (message.type) {
    case 'ping':
      send({ type: 'pong', seq: message.seq });
      return;
    case 'load': {
      const previous = plugins.get(message.manifest.id);
      const sandbox = build(message.manifest, message.code);
      sandbox.catch(() => undefined);
      try {
        const ready = await sandbox;
        plugins.set(message.manifest.id, { manifest: message.manifest, code: message.code, sandbox });
        if (previous) void previous.sandbox.then((old) => old.dispose(), () => undefined);
        send({ type: 'loaded', requestId: message.requestId, ok: true, operations: [...ready.operations] });
      } catch (error) {
        const failure = error instanceof PluginLoadError ? error.failure : 'invalid_code';
        send({ type: 'loaded', requestId: message.requestId, ok: false, failure, message: (error as Error).message.slice(0, 2_000) });
      }
      return;
    }
    case 'unload': {
      const hosted = plugins.get(message.pluginId);
      plugins.delete(message.pluginId);
      if (hosted) await hosted.sandbox.then((sandbox) => sandbox.dispose(), () => undefined);
      send({ type: 'unloaded', requestId: message.requestId });
      return;
    }
    case 'call':
    case 'serialize':
    case 'serialize_playlist': {
      try {
        const sandbox = await sandboxFor(message.pluginId);
        let seq = 0;
        const onChunk = (bytes: Uint8Array) => {
          const key = `${message.callId}:${seq}`;
          const ack = new Promise<void>((resolve, reject) => chunkAcks.set(key, { resolve, reject }));
          send({ type: 'chunk', callId: message.callId, seq: seq++, bytes: bytes as Uint8Array<ArrayBuffer> });
          return ack;
        };
        if (message.type === 'serialize') {
          // A structured clone of the engine's playlists is plain data, which the fast check reads at a fraction of zod's cost.
          const value = await sandbox.serializeChecked(serializeInputOf(message.input), onChunk);
          send({ type: 'result', callId: message.callId, ok: true, value });
        } else if (message.type === 'serialize_playlist') {
          let sliceSeq = 0;
          // Each slice is asked of the engine when the writer wants it: the engine reads its source no faster than the plugin writes.
          const nextSlice = () => {
            const key = `${message.callId}:${sliceSeq}`;
            const slice = new Promise<SerializeSlice>((resolve, reject) => slices.set(key, { resolve, reject }));
            send({ type: 'slice_request', callId: message.callId, seq: sliceSeq++ });
            return slice;
          };
          const value = await sandbox.serializePlaylist(message.input, nextSlice, onChunk);
          send({ type: 'result', callId: message.callId, ok: true, value });
        } else {
          if (!isOperationName(message.op)) throw new Unsupported(`"${message.op.slice(0, 60)}" is not a plugin operation`);
          const cancel = new AbortController();
          cancellable.set(message.callId, cancel);
          try {
            // The engine parses and validates the result itself: once, on its side of the boundary.
            const json = await sandbox.callJson(message.op, message.input, message.context as SandboxCallContext, cancel.signal);
            send({ type: 'result', callId: message.callId, ok: true, json });
          } finally {
            cancellable.delete(message.callId);
          }
        }
      } catch (error) {
        send({ type: 'result', callId: message.callId, ok: false, error: errorData(error) });
      }
      return;
    }
    case 'cancel':
      cancellable.get(message.callId)?.abort();
      return;
    case 'chunk_ack': {
      const key = `${message.callId}:${message.seq}`;
      const ack = chunkAcks.get(key);
      chunkAcks.delete(key);
      if (message.ok) ack?.resolve();
      else ack?.reject(new Error(message.message ?? 'the consumer refused the chunk'));
      return;
    }
    case 'slice': {
      const key = `${message.callId}:${message.seq}`;
      const waiting = slices.get(key);
      slices.delete(key);
      // The sandbox checks the slice (serializeSliceOf) before the writer sees it.
      if (message.ok) waiting?.resolve(message.done === true ? { done: true, late: (message.late ?? {}) as Record<string, unknown> } : { done: false, tracks: message.tracks as Track[] });
      else waiting?.reject(new Error(message.message ?? 'the engine could not read the tracks'));
      return;
    }
    case 'acquired': {
      const permit = permits.get(message.requestId);
      permits.delete(message.requestId);
      if (message.ok) permit?.resolve();
      else permit?.reject(new Error(message.message ?? 'no permit'));
      return;
    }
  }
}

process.on('message', (raw: unknown) => {
  const parsed = toChildSchema.safeParse(raw);
  if (!parsed.success) {
    process.stderr.write('plugin host: ignored a malformed message from the engine\n');
    return;
  }
  void handle(parsed.data);
});

// Without the engine there is no one to serve: leave rather than linger as an orphan.
process.on('disconnect', () => process.exit(0));

send({ type: 'ready', pid: process.pid });
