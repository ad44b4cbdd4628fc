import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Unsupported, type OperationName, type OperationResult } from '@opl/plugin-sdk';
import {
  isOperationName,
  LIMIT_BREACHES,
  PluginLoadError,
  SandboxError,
  type ChunkSink,
  type SandboxFailure,
  type SandboxLimits,
  type SliceSource,
  validateResult,
  validateResultText,
} from '@opl/plugin-sdk/sandbox';
import { manifestSchema, type OperationCallInput } from '@opl/plugin-sdk/schemas';
import { answerCallMessage, type CallReplyContext } from './call-replies.ts';
import { startChildWatchdog } from './child-watchdog.ts';
import { childConfigSchema, fromChildSchema, type FromChild, type ToChild } from './ipc-messages.schema.ts';
import {
  DEFAULT_LIMITS,
  type HostedPlugin,
  type LoadedPluginInfo,
  type PendingCall,
  type PendingPing,
  type PendingRequest,
  type PluginBundle,
  type PluginCallContext,
  type PluginHostLogger,
  type PluginHostOptions,
  type QuarantineEvent,
  type QuarantineListener,
} from './plugin-host.types.ts';

/** A call its caller gave up on (see `PluginHost.call`). */
function cancelledCall(pluginId: string, op: string): Error {
  return new DOMException(`${pluginId}: ${op} was cancelled`, 'AbortError');
}

/**
 * The engine's handle on plugin sandboxes. All isolates live in one child process (see
 * host-process.entry.ts) so that nothing a plugin does can stop the engine: if the child dies or
 * stops answering pings, in-flight calls fail with a typed error, the child is restarted and every
 * loaded plugin is loaded into it again. Limit breaches (CPU, wall clock, memory, crashes) are
 * strikes; a plugin with too many is quarantined — unloaded, reported to listeners, refused.
 */

const ENTRY = fileURLToPath(new URL('./host-process.entry.ts', import.meta.url));
const silentLogger: PluginHostLogger = { debug() {}, info() {}, warn() {}, error() {} };

export class PluginHost {
  readonly #limits: SandboxLimits;
  readonly #strikes: number;
  readonly #logger: PluginHostLogger;
  readonly #options: PluginHostOptions;
  readonly #plugins = new Map<string, HostedPlugin>();
  readonly #quarantined = new Map<string, QuarantineEvent>();
  readonly #calls = new Map<string, PendingCall>();
  readonly #requests = new Map<string, PendingRequest>();
  readonly #listeners = new Set<QuarantineListener>();
  /** Plugins whose load the child is working on. */
  readonly #loading = new Set<string>();
  readonly #pings = new Map<number, PendingPing>();
  #child: ChildProcess | null = null;
  #ready: Promise<void> | null = null;
  #stopWatchdogTimer: (() => void) | null = null;
  #pingSeq = 0;
  #restarts: number[] = [];
  #closed = false;

  constructor(options: PluginHostOptions = {}) {
    const callTimeoutMs = options.limits?.callTimeoutMs ?? DEFAULT_LIMITS.callTimeoutMs;
    this.#limits = {
      memoryMb: options.limits?.memoryMb ?? DEFAULT_LIMITS.memoryMb,
      callTimeoutMs,
      cpuTimeMs: options.limits?.cpuTimeMs ?? callTimeoutMs,
    };
    this.#strikes = options.quarantineStrikes ?? 3;
    this.#logger = options.logger ?? silentLogger;
    this.#options = options;
  }

  /** The child's process id (diagnostics, and tests that kill it). */
  get childPid(): number | null {
    return this.#child?.pid ?? null;
  }

  /** Starts the child process; other methods do so on demand. */
  async start(): Promise<void> {
    await this.#ensureChild();
  }

  /** Loads (or replaces) a plugin; a quarantined plugin loaded again is released. Throws `PluginLoadError`. */
  async load(bundle: PluginBundle): Promise<void> {
    this.#assertOpen();
    const manifest = manifestSchema.parse(bundle.manifest);
    const operations = await this.#loadIntoChild({ manifest, code: bundle.code });
    // Loading again (an admin's release, an update) starts with a clean record.
    this.#quarantined.delete(manifest.id);
    this.#plugins.set(manifest.id, { bundle: { manifest, code: bundle.code }, operations, failures: [] });
    this.#logger.info({ plugin: manifest.id, version: manifest.version }, 'plugin loaded into the sandbox host');
  }

  async unload(pluginId: string): Promise<void> {
    const known = this.#plugins.delete(pluginId);
    this.#quarantined.delete(pluginId);
    if (known && this.#child && !this.#closed) await this.#request({ type: 'unload', requestId: randomUUID(), pluginId }).catch(() => undefined);
  }

  /**
   * `signal`: the caller gave up (a cancelled generation, say). The call then fails at once with an
   * `AbortError`, and the child aborts its requests in flight; whatever it answers later is dropped.
   */
  async call<N extends OperationName>(pluginId: string, op: N, input: OperationCallInput<N>, context: PluginCallContext = {}, signal?: AbortSignal): Promise<OperationResult<N>> {
    if (!isOperationName(op)) throw new Unsupported(`"${String(op).slice(0, 60)}" is not a plugin operation`);
    if (op === 'serialize' || op === 'serializePlaylist') throw new Unsupported(`${op} streams its output: use PluginHost.${op}`);
    const result = await this.#run(pluginId, op, null, (callId) => ({ type: 'call', callId, pluginId, op, input, context }), context.account?.id ?? null, undefined, signal);
    if (result.json === undefined) throw new SandboxError('crashed', `${pluginId}: the plugin host sent no ${op} result`);
    // The one parse and validation of the plugin's result, on the engine's side of the process boundary.
    return validateResultText(pluginId, op, result.json);
  }

  async serialize(pluginId: string, input: OperationCallInput<'serialize'>, onChunk: ChunkSink): Promise<OperationResult<'serialize'>> {
    const result = await this.#run(pluginId, 'serialize', onChunk, (callId) => ({ type: 'serialize', callId, pluginId, input }));
    return validateResult(pluginId, 'serialize', result.value);
  }

  /**
   * Writes one playlist's file through the plugin's playlist writer (`serializePlaylist`): `input`
   * holds the playlist's details without tracks, `nextSlice` is asked for the tracks a slice at a
   * time as the writer wants them (a plugin that predates writers gets them gathered into its
   * `serialize`, in the plugin-host process). A `nextSlice` that throws fails the call.
   */
  async serializePlaylist(pluginId: string, input: OperationCallInput<'serializePlaylist'>, nextSlice: SliceSource, onChunk: ChunkSink): Promise<OperationResult<'serializePlaylist'>> {
    const result = await this.#run(pluginId, 'serializePlaylist', onChunk, (callId) => ({ type: 'serialize_playlist', callId, pluginId, input }), null, nextSlice);
    return validateResult(pluginId, 'serializePlaylist', result.value);
  }

  /** Resolves when the child answers (the readiness probe); `pingMs` gives the round trip. */
  async ping(): Promise<void> {
    await this.pingMs();
  }

  /** Round trip to the child in milliseconds. */
  async pingMs(): Promise<number> {
    this.#assertOpen();
    await this.#ensureChild();
    return this.#sendPing();
  }

  onQuarantine(listener: QuarantineListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  loadedPlugins(): LoadedPluginInfo[] {
    return [...this.#plugins.keys()].map((id) => this.#info(id)!);
  }

  quarantinedPlugins(): QuarantineEvent[] {
    return [...this.#quarantined.values()];
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stopWatchdog();
    const child = this.#child;
    this.#child = null;
    this.#failAll(new SandboxError('disposed', 'the plugin host is shutting down'));
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      if (child.connected) child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(timer);
    }
  }

  #info(id: string): LoadedPluginInfo | null {
    const hosted = this.#plugins.get(id);
    if (!hosted) return null;
    const { manifest } = hosted.bundle;
    return { id, version: manifest.version, kind: manifest.kind, operations: hosted.operations, strikes: hosted.failures.length };
  }

  #assertOpen(): void {
    if (this.#closed) throw new SandboxError('disposed', 'the plugin host is closed');
  }

  async #run(
    pluginId: string,
    op: OperationName,
    onChunk: ChunkSink | null,
    message: (callId: string) => ToChild,
    accountId: string | null = null,
    nextSlice?: SliceSource,
    signal?: AbortSignal,
  ): Promise<{ json?: string; value?: unknown }> {
    this.#assertOpen();
    if (signal?.aborted) throw cancelledCall(pluginId, op);
    const quarantine = this.#quarantined.get(pluginId);
    if (quarantine) throw new SandboxError('quarantined', `${pluginId} is quarantined: ${quarantine.reason}`);
    if (!this.#plugins.has(pluginId)) throw new SandboxError('not_loaded', `no plugin ${pluginId} is loaded`);
    await this.#ensureChild();
    // It may have been quarantined or unloaded while the child restarted.
    if (!this.#plugins.has(pluginId)) {
      const reason = this.#quarantined.get(pluginId)?.reason;
      throw reason ? new SandboxError('quarantined', `${pluginId} is quarantined: ${reason}`) : new SandboxError('not_loaded', `no plugin ${pluginId} is loaded`);
    }
    const callId = randomUUID();
    return new Promise<{ json?: string; value?: unknown }>((settle, fail) => {
      const onAbort = () => {
        if (!this.#calls.delete(callId)) return;
        this.#trySend({ type: 'cancel', callId });
        fail(cancelledCall(pluginId, op));
      };
      const done = () => signal?.removeEventListener('abort', onAbort);
      const resolve = (result: { json?: string; value?: unknown }) => (done(), settle(result));
      const reject = (error: Error) => (done(), fail(error));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#calls.set(callId, { pluginId, op, accountId, quotaRefusal: null, resolve, reject, onChunk, chunkChain: Promise.resolve(), ...(nextSlice ? { nextSlice } : {}) });
      try {
        this.#send(message(callId));
      } catch (error) {
        this.#calls.delete(callId);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  async #loadIntoChild(bundle: PluginBundle): Promise<string[]> {
    await this.#ensureChild();
    return this.#sendLoad(bundle);
  }

  /** Loads into the running child (also while #ready is still settling, during a restart). */
  async #sendLoad(bundle: PluginBundle): Promise<string[]> {
    const id = bundle.manifest.id;
    this.#loading.add(id);
    try {
      const reply = await this.#request({ type: 'load', requestId: randomUUID(), manifest: bundle.manifest, code: bundle.code });
      if (reply.type !== 'loaded') throw new SandboxError('crashed', 'unexpected reply from the plugin host');
      if (!reply.ok) throw new PluginLoadError(reply.failure ?? 'invalid_code', reply.message ?? `${id} could not be loaded`);
      return reply.operations ?? [];
    } finally {
      this.#loading.delete(id);
    }
  }

  #request(message: Extract<ToChild, { requestId: string }>): Promise<FromChild> {
    return new Promise<FromChild>((resolve, reject) => {
      this.#requests.set(message.requestId, { resolve, reject });
      try {
        this.#send(message);
      } catch (error) {
        this.#requests.delete(message.requestId);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  #send(message: ToChild): void {
    const child = this.#child;
    if (!child?.connected) throw new SandboxError('crashed', 'the plugin host process is not running');
    // A failed write means the child is going away; its exit handler fails what is pending.
    child.send(message, (error) => {
      if (error) this.#logger.debug({ source: 'plugin-host', err: error }, 'a message to the plugin host process was not delivered');
    });
  }

  #sendPing(): Promise<number> {
    const seq = this.#pingSeq++;
    return new Promise<number>((resolve, reject) => {
      this.#pings.set(seq, { sentAt: performance.now(), resolve, reject });
      try {
        this.#send({ type: 'ping', seq });
      } catch (error) {
        this.#pings.delete(seq);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  async #ensureChild(): Promise<void> {
    this.#assertOpen();
    if (!this.#ready) {
      const now = Date.now();
      this.#restarts = this.#restarts.filter((at) => now - at < 60_000);
      const allowed = this.#options.maxRestartsPerMinute ?? 5;
      if (this.#restarts.length > allowed) {
        this.#restarts = [];
        throw new SandboxError('host_unavailable', `the plugin host process restarted more than ${allowed} times in a minute; it stays down until the next request`);
      }
      this.#restarts.push(now);
      const ready = this.#spawn();
      this.#ready = ready;
      ready.catch(() => {
        if (this.#ready === ready) this.#ready = null;
      });
    }
    await this.#ready;
  }

  async #spawn(): Promise<void> {
    const config = childConfigSchema.parse({ limits: this.#limits, acquire: Boolean(this.#options.acquire), hostResolver: this.#options.hostResolver ?? null, originOverrides: this.#options.originOverrides ?? null });
    const child = fork(ENTRY, [JSON.stringify(config)], {
      execArgv: ['--no-node-snapshot', `--max-old-space-size=${this.#options.childHeapMb ?? 1024}`, ...(this.#options.childNodeFlags ?? [])],
      serialization: 'advanced',
      // The engine's environment goes on to the child, as fork's default would pass it; nothing here is configuration read from it.
      // eslint-disable-next-line no-restricted-properties
      env: { ...this.#options.childEnv, ...process.env },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.#child = child;
    child.on('error', (error) => this.#logger.warn({ source: 'plugin-host', err: error }, 'plugin host process error'));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => this.#logger.warn({ source: 'plugin-host-process' }, text.slice(0, 2_000).trimEnd()));

    const ready = new Promise<void>((resolve, reject) => {
      const onEarlyExit = (code: number | null, signal: NodeJS.Signals | null) => reject(new SandboxError('host_unavailable', `the plugin host process exited while starting (${signal ?? code})`));
      child.once('exit', onEarlyExit);
      child.on('message', (raw: unknown) => {
        const parsed = fromChildSchema.safeParse(raw);
        if (!parsed.success) {
          this.#logger.error({ source: 'plugin-host' }, 'the plugin host process sent a malformed message; restarting it');
          child.kill('SIGKILL');
          return;
        }
        if (parsed.data.type === 'ready') {
          child.off('exit', onEarlyExit);
          child.once('exit', (code, signal) => this.#onExit(child, code, signal));
          resolve();
          return;
        }
        this.#onMessage(parsed.data);
      });
    });
    await ready;
    this.#logger.debug({ source: 'plugin-host', pid: child.pid }, 'plugin host process started');

    // Reload what was running before a restart; a plugin that no longer loads is dropped.
    for (const [id, hosted] of [...this.#plugins]) {
      try {
        hosted.operations = await this.#sendLoad(hosted.bundle);
      } catch (error) {
        if (this.#child !== child) throw new SandboxError('crashed', 'the plugin host process stopped while reloading plugins');
        this.#plugins.delete(id);
        this.#logger.error({ plugin: id, err: error }, 'plugin could not be reloaded after the plugin host restarted');
      }
    }
    if (this.#child === child) this.#startWatchdog(child);
  }

  #startWatchdog(child: ChildProcess): void {
    this.#stopWatchdog();
    this.#stopWatchdogTimer = startChildWatchdog({
      child,
      pings: this.#pings,
      intervalMs: this.#options.pingIntervalMs ?? 1_000,
      timeoutMs: this.#options.pingTimeoutMs ?? 5_000,
      logger: this.#logger,
      isCurrent: () => this.#child === child,
      sendPing: () => this.#sendPing(),
    });
  }

  #stopWatchdog(): void {
    this.#stopWatchdogTimer?.();
    this.#stopWatchdogTimer = null;
  }

  #onMessage(message: FromChild): void {
    switch (message.type) {
      case 'ready':
        return;
      case 'pong': {
        const ping = this.#pings.get(message.seq);
        this.#pings.delete(message.seq);
        ping?.resolve(performance.now() - ping.sentAt);
        return;
      }
      case 'loaded':
      case 'unloaded': {
        const request = this.#requests.get(message.requestId);
        this.#requests.delete(message.requestId);
        request?.resolve(message);
        return;
      }
      case 'result':
      case 'chunk':
      case 'slice_request':
      case 'acquire':
        answerCallMessage(message, this.#callReplies());
        return;
      case 'log': {
        const { entry } = message;
        const data = { plugin: entry.pluginId, source: entry.source, ...(entry.op ? { op: entry.op } : {}), ...(entry.data ? { data: entry.data } : {}) };
        this.#logger[entry.level](data, entry.message);
        return;
      }
      case 'broken':
        this.#strike(message.pluginId, message.failure, message.message);
        return;
    }
  }

  #callReplies(): CallReplyContext {
    return {
      calls: this.#calls,
      acquire: this.#options.acquire,
      quotaReporting: { onQuotaExhausted: this.#options.onQuotaExhausted, logger: this.#logger },
      trySend: (message) => this.#trySend(message),
      send: (message) => this.#send(message),
    };
  }

  #trySend(message: ToChild): void {
    try {
      this.#send(message);
    } catch {
      // The child is gone; its calls are failed by the exit handler.
    }
  }

  #strike(pluginId: string, failure: SandboxFailure, message: string): void {
    const hosted = this.#plugins.get(pluginId);
    if (!hosted || !LIMIT_BREACHES.has(failure)) return;
    hosted.failures.push(failure);
    this.#logger.warn({ plugin: pluginId, failure, strikes: hosted.failures.length, limit: this.#strikes }, message);
    if (hosted.failures.length < this.#strikes) return;

    const event: QuarantineEvent = {
      pluginId,
      version: hosted.bundle.manifest.version,
      reason: `it broke its sandbox limits ${hosted.failures.length} times (${hosted.failures.join(', ')}); an admin must release it`,
      failures: [...hosted.failures],
      at: new Date().toISOString(),
    };
    this.#plugins.delete(pluginId);
    this.#quarantined.set(pluginId, event);
    if (this.#child?.connected) void this.#request({ type: 'unload', requestId: randomUUID(), pluginId }).catch(() => undefined);
    this.#logger.error({ plugin: pluginId, version: event.version, failures: event.failures }, `plugin quarantined: ${event.reason}`);
    for (const listener of this.#listeners) {
      try {
        listener(pluginId, event.reason, event);
      } catch (error) {
        this.#logger.error({ plugin: pluginId, err: error }, 'a quarantine listener failed');
      }
    }
  }

  #failAll(error: Error): void {
    for (const call of this.#calls.values()) call.reject(error);
    this.#calls.clear();
    for (const request of this.#requests.values()) request.reject(error);
    this.#requests.clear();
    for (const ping of this.#pings.values()) ping.reject(error);
    this.#pings.clear();
  }

  #onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#child !== child) return;
    this.#child = null;
    this.#ready = null;
    this.#stopWatchdog();
    if (this.#closed) return;
    const how = signal ?? `exit code ${code}`;
    // Every plugin with a call in flight or being loaded is a suspect: each gets a strike.
    const suspects = new Set([...[...this.#calls.values()].map((call) => call.pluginId), ...this.#loading]);
    this.#logger.error({ source: 'plugin-host', how, inFlight: this.#calls.size, suspects: [...suspects] }, 'the plugin host process stopped; restarting it');
    this.#failAll(new SandboxError('crashed', `the plugin host process stopped (${how}) during the call`));
    for (const pluginId of suspects) this.#strike(pluginId, 'crashed', `${pluginId} had a call in flight when the plugin host process stopped (${how})`);
    void this.#ensureChild().catch((error: unknown) => this.#logger.error({ source: 'plugin-host', err: error }, 'the plugin host process could not be restarted'));
  }
}
