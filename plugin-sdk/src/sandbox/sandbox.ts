import { randomUUID } from 'node:crypto';
import ivm from 'isolated-vm';
import { InvalidInput, pluginErrorFromData, ProviderError, type PluginError } from '../errors.ts';
import { OPERATIONS, type OperationInput, type OperationName, type OperationResult } from '../operations.schema.ts';
import { parseBoundaryJson } from './boundary-json.ts';
import { sandboxCallContextSchema, type ParsedCallContext, type SandboxCallContext } from './call-context.schema.ts';
import { createHostFetch, HostFetchError } from './host-fetch.ts';
import { operationRefusal, requestCost } from './operation-guard.ts';
import { pluginLogEntry, type LogBudget } from './plugin-log.ts';
import { PRELUDE_SOURCE } from './prelude.ts';
import { createRedactor, secretsOf, type Redactor } from './redactor.ts';
import { PluginLoadError, SandboxError, type PluginLoadFailure, type SandboxFailure } from './sandbox-error.ts';
import { decodeText, encodeText } from './text-codec.ts';
import { errorDataFromThrown } from './thrown-error.ts';
import { issuesText } from './zod-issues.ts';
import { validateResult, validateResultText } from './result-validation.ts';
import { MAX_SERIALIZE_BYTES, SERIALIZE_CHUNK_BYTES, type ChunkSink, type Sandbox, type SandboxOptions } from './sandbox-types.ts';
import { serializeSliceOf, type SliceSource } from './serialize-input.ts';

export { validateResult, validateResultText } from './result-validation.ts';
export { MAX_SERIALIZE_BYTES, SERIALIZE_CHUNK_BYTES, type Acquire, type AcquirePermit, type ChunkSink, type Sandbox, type SandboxLimits, type SandboxOptions } from './sandbox-types.ts';

/**
 * One plugin in one isolated-vm isolate. The plugin's bundle is compiled as an ES module that may
 * import nothing; a prelude builds each call's `ctx` from host references; data crosses as JSON
 * strings (and copied byte arrays), so the plugin never holds a host object and the host never
 * trusts a plugin object. Limits: the isolate's memory limit, a CPU budget per call (the
 * synchronous `timeout` plus a monitor of the isolate's CPU time for asynchronous continuations)
 * and a wall-clock limit per call. Breaking any of them disposes the isolate: the sandbox is then
 * broken for good and says why; whoever owns it decides whether to build a new one.
 */

const CPU_MONITOR_INTERVAL_MS = 20;
const TIMED_OUT = 'Script execution timed out.';
// Responses the host decodes as UTF-8 up front, so `response.json()` needs no further host call.
const TEXTUAL_TYPE = /^\s*(?:text\/|application\/(?:[\w.+-]*\+)?(?:json|xml|javascript|x-www-form-urlencoded))/i;

interface ActiveCall {
  readonly id: string;
  readonly op: OperationName;
  readonly context: ParsedCallContext;
  readonly redactor: Redactor;
  readonly abort: AbortController;
  readonly logBudget: LogBudget;
  readonly cpuStart: bigint;
  readonly startedAt: number;
  /** Host waits (rate limiter, chunk consumer) in progress, and their total so far. */
  waits: number;
  waitStartedAt: number;
  waitedMs: number;
  timer: ReturnType<typeof setTimeout> | null;
  fail: (error: SandboxError) => void;
  onChunk: ChunkSink | null;
  /** `serializePlaylist` only: where the writer's slices of tracks come from. */
  nextSlice: SliceSource | null;
  chunks: number;
  bytes: number;
}

type IsolateApi = {
  install: ivm.Reference<(namespace: unknown) => string>;
  dispatch: ivm.Reference<(...args: unknown[]) => Promise<string>>;
  serialize: ivm.Reference<(...args: unknown[]) => Promise<string>>;
  serializePlaylist: ivm.Reference<(...args: unknown[]) => Promise<string>>;
};

/** Moves top-level byte arrays out of an input so the rest can cross as JSON. */
function splitBinaries(input: Record<string, unknown>): { json: string; keys: string[]; binaries: Uint8Array[] } {
  const rest: Record<string, unknown> = {};
  const keys: string[] = [];
  const binaries: Uint8Array[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (value instanceof Uint8Array) {
      keys.push(key);
      binaries.push(value);
    } else {
      rest[key] = value;
    }
  }
  return { json: JSON.stringify(rest), keys, binaries };
}

function loadFailure(failure: PluginLoadFailure, message: string): PluginLoadError {
  return new PluginLoadError(failure, message.slice(0, 1_000));
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  const { manifest, limits, log } = options;
  const pluginId = manifest.id;
  const ownsFetch = !options.hostFetch;
  const hostFetch = options.hostFetch ?? createHostFetch({ manifest });
  const active = new Map<string, ActiveCall>();
  let failure: SandboxFailure | null = null;
  let cpuMonitor: ReturnType<typeof setInterval> | null = null;

  const isolate = new ivm.Isolate({
    memoryLimit: limits.memoryMb,
    onCatastrophicError: (message) => breakSandbox('crashed', `${pluginId}: the sandbox crashed (${message.slice(0, 200)})`),
  });

  function failureMessage(kind: SandboxFailure): string {
    switch (kind) {
      case 'cpu_timeout':
        return `${pluginId} used more than ${limits.cpuTimeMs} ms of CPU time in one call; its sandbox was stopped`;
      case 'wall_timeout':
        return `${pluginId} did not finish a call within ${limits.callTimeoutMs} ms; its sandbox was stopped`;
      case 'memory':
        return `${pluginId} exceeded its memory limit of ${limits.memoryMb} MiB; its sandbox was stopped`;
      case 'crashed':
        return `${pluginId}: the sandbox crashed`;
      default:
        return `${pluginId}: the sandbox is closed`;
    }
  }

  function stopMonitor(): void {
    if (cpuMonitor) clearInterval(cpuMonitor);
    cpuMonitor = null;
  }

  function breakSandbox(kind: SandboxFailure, message = failureMessage(kind)): void {
    if (failure) return;
    failure = kind;
    stopMonitor();
    try {
      if (!isolate.isDisposed) isolate.dispose();
    } catch {
      // Already gone: nothing left to release.
    }
    if (kind !== 'disposed') {
      log({ level: 'warn', source: 'sandbox', pluginId, message });
      options.onBroken?.(kind, message);
    }
    for (const call of active.values()) call.fail(new SandboxError(kind, message));
    if (ownsFetch) void hostFetch.close().catch(() => undefined);
  }

  /**
   * Catches CPU burnt in asynchronous continuations, which the synchronous `timeout` does not
   * cover. The isolate's CPU time is shared by its concurrent calls, so a call is charged for all
   * of it while in flight: conservative, and far below the budget for calls that mostly wait.
   */
  function checkCpu(): void {
    if (failure || active.size === 0) return;
    let spent: bigint;
    try {
      spent = isolate.cpuTime;
    } catch {
      return;
    }
    const budget = BigInt(limits.cpuTimeMs) * 1_000_000n;
    for (const call of active.values()) {
      if (spent - call.cpuStart > budget) {
        breakSandbox('cpu_timeout');
        return;
      }
    }
  }

  function armWallClock(call: ActiveCall): void {
    const elapsed = Date.now() - call.startedAt - call.waitedMs;
    call.timer = setTimeout(
      () => {
        call.timer = null;
        if (call.waits > 0) return; // re-armed when the host wait ends
        if (Date.now() - call.startedAt - call.waitedMs >= limits.callTimeoutMs) breakSandbox('wall_timeout');
        else armWallClock(call);
      },
      Math.max(1, limits.callTimeoutMs - elapsed),
    );
  }

  /** Time the host spends on the engine's behalf (rate limiter, slow consumer) does not count against the plugin. */
  async function hostWait<T>(call: ActiveCall, work: () => Promise<T>): Promise<T> {
    if (call.waits++ === 0) call.waitStartedAt = Date.now();
    try {
      return await work();
    } finally {
      if (--call.waits === 0) {
        call.waitedMs += Date.now() - call.waitStartedAt;
        if (!call.timer && active.has(call.id)) armWallClock(call);
      }
    }
  }

  // Host functions the prelude closes over. None of them ever throws into the isolate
  // asynchronously: outcomes are data, so a rejected host promise cannot go unhandled. The fetch
  // outcome crosses as an explicit ExternalCopy, much cheaper than a per-call structured copy.
  const fetchReference = new ivm.Reference(async (callId: unknown, requestJson: unknown) => new ivm.ExternalCopy(await fetchFor(callId, requestJson)).copyInto({ release: true }));

  async function fetchFor(callId: unknown, requestJson: unknown): Promise<Record<string, unknown>> {
    const call = typeof callId === 'string' ? active.get(callId) : undefined;
    if (!call) return { ok: false, message: 'this ctx belongs to a call that has ended; a plugin must not keep ctx between calls' };
    try {
      const request = parseBoundaryJson(String(requestJson));
      const response = await hostFetch.fetch(request, {
        credentials: call.context.credentials,
        redactor: call.redactor,
        signal: call.abort.signal,
        ...(options.acquire
          ? {
              beforeRequest: (retryAfterS) =>
                hostWait(call, () => options.acquire!({ pluginId, accountId: call.context.account?.id ?? null, op: call.op, cost: requestCost(manifest, call.op), retryAfterS: retryAfterS ?? null })),
            }
          : {}),
      });
      const contentType = response.headers['content-type'];
      const textual = contentType === undefined || TEXTUAL_TYPE.test(contentType);
      return { ok: true, response: textual ? { ...response, text: decodeText(response.body, 'utf-8') } : response };
    } catch (error) {
      const message = error instanceof HostFetchError ? error.message : 'the request failed';
      if (error instanceof HostFetchError && error.failure === 'refused') log({ level: 'warn', source: 'sandbox', pluginId, op: call.op, message: call.redactor.text(message) });
      return { ok: false, message: call.redactor.text(message) };
    }
  }

  const logCallback = new ivm.Callback((callId: unknown, level: unknown, message: unknown, data: unknown) => {
    const call = typeof callId === 'string' ? active.get(callId) : undefined;
    if (!call) return;
    const entry = pluginLogEntry({ level, message, data }, call.logBudget, call.redactor, { pluginId, op: call.op });
    if (entry) log(entry);
  });
  const decodeCallback = new ivm.Callback((bytes: unknown, label: unknown) => decodeText(bytes, label));
  const encodeCallback = new ivm.Callback((text: unknown) => encodeText(text));
  const nowCallback = new ivm.Callback(() => new Date().toISOString());

  const chunkReference = new ivm.Reference(async (callId: unknown, chunk: unknown) => {
    const call = typeof callId === 'string' ? active.get(callId) : undefined;
    if (!call?.onChunk) return { ok: false, message: 'this ctx belongs to a call that has ended' };
    const bytes = typeof chunk === 'string' ? encodeText(chunk) : chunk instanceof Uint8Array ? chunk : null;
    if (!bytes) return { ok: false, message: 'serialize chunks must be strings or Uint8Array' };
    if (call.bytes + bytes.byteLength > MAX_SERIALIZE_BYTES) return { ok: false, message: `the serialized file is larger than ${MAX_SERIALIZE_BYTES} bytes` };
    call.bytes += bytes.byteLength;
    try {
      // `bytes` is the host's own copy (encoded here, or copied out of the isolate), so the pieces
      // are views of it: a copy per 64 KiB would only add garbage for the collector to find.
      for (let offset = 0; offset < bytes.byteLength; offset += SERIALIZE_CHUNK_BYTES) {
        const piece = bytes.subarray(offset, offset + SERIALIZE_CHUNK_BYTES);
        call.chunks += 1;
        await hostWait(call, async () => call.onChunk!(piece));
      }
      return { ok: true };
    } catch (error) {
      return { ok: false, message: `the consumer of the serialized file failed: ${errorMessage(error).slice(0, 200)}` };
    }
  });

  // A writer's next slice of tracks, checked on this side and handed over as an explicit copy (as fetch outcomes are).
  const sliceReference = new ivm.Reference(async (callId: unknown) => {
    const call = typeof callId === 'string' ? active.get(callId) : undefined;
    let outcome: Record<string, unknown>;
    if (!call?.nextSlice) {
      outcome = { ok: false, message: 'this ctx belongs to a call that has ended' };
    } else {
      const source = call.nextSlice;
      try {
        outcome = { ok: true, ...serializeSliceOf(await hostWait(call, () => source())) };
      } catch (error) {
        outcome = { ok: false, message: `the tracks to write could not be read: ${errorMessage(error).slice(0, 300)}` };
      }
    }
    return new ivm.ExternalCopy(outcome).copyInto({ release: true });
  });

  let api: IsolateApi;
  let implemented: Set<string>;
  try {
    const context = await isolate.createContext();
    const prelude = await context.evalClosure(
      PRELUDE_SOURCE,
      [fetchReference, logCallback, decodeCallback, encodeCallback, nowCallback, chunkReference, manifest.kind, sliceReference],
      { result: { reference: true }, timeout: limits.cpuTimeMs },
    );
    api = {
      install: (await prelude.get('install', { reference: true })) as IsolateApi['install'],
      dispatch: (await prelude.get('dispatch', { reference: true })) as IsolateApi['dispatch'],
      serialize: (await prelude.get('serialize', { reference: true })) as IsolateApi['serialize'],
      serializePlaylist: (await prelude.get('serializePlaylist', { reference: true })) as IsolateApi['serializePlaylist'],
    };

    let module: ivm.Module;
    try {
      module = await isolate.compileModule(options.code, { filename: `file:///${pluginId}/${manifest.entry}` });
    } catch (error) {
      throw loadFailure('invalid_code', `${pluginId}: ${manifest.entry} does not compile: ${errorMessage(error)}`);
    }
    if (module.dependencySpecifiers.length > 0) {
      throw loadFailure('imports_not_allowed', `${pluginId}: ${manifest.entry} imports ${module.dependencySpecifiers.slice(0, 3).join(', ')}; a plugin bundle must be one self-contained module`);
    }
    await module.instantiate(context, (specifier) => {
      throw new Error(`imports are not allowed (${specifier})`);
    });
    try {
      await module.evaluate({ timeout: limits.cpuTimeMs });
    } catch (error) {
      if (isolate.isDisposed || errorMessage(error) === TIMED_OUT) throw loadFailure('resource_limit', `${pluginId}: evaluating ${manifest.entry} broke the sandbox limits: ${errorMessage(error)}`);
      throw loadFailure('invalid_code', `${pluginId}: evaluating ${manifest.entry} failed: ${errorMessage(error)}`);
    }
    const installed = await api.install.apply(undefined, [module.namespace.derefInto()], { timeout: limits.cpuTimeMs });
    const outcome = typeof installed === 'string' ? (parseBoundaryJson(installed) as { ok?: unknown; failure?: unknown; message?: unknown; operations?: unknown }) : null;
    if (!outcome || outcome.ok !== true || !Array.isArray(outcome.operations)) {
      const kind = outcome?.failure === 'kind_mismatch' ? 'kind_mismatch' : 'not_a_definition';
      throw loadFailure(kind, `${pluginId}: ${typeof outcome?.message === 'string' ? outcome.message : 'the default export is not a plugin definition'}`);
    }
    implemented = new Set(outcome.operations.filter((name): name is string => typeof name === 'string'));
  } catch (error) {
    failure = 'disposed';
    if (!isolate.isDisposed) isolate.dispose();
    if (ownsFetch) await hostFetch.close().catch(() => undefined);
    if (error instanceof PluginLoadError) throw error;
    const message = errorMessage(error);
    if (message.includes('memory limit') || message === TIMED_OUT) throw loadFailure('resource_limit', `${pluginId}: loading broke the sandbox limits: ${message}`);
    throw loadFailure('invalid_code', `${pluginId}: loading failed: ${message}`);
  }

  function begin(op: OperationName, context: ParsedCallContext, onChunk: ChunkSink | null, nextSlice: SliceSource | null = null): { call: ActiveCall; failed: Promise<never> } {
    let fail!: (error: SandboxError) => void;
    const failed = new Promise<never>((_, reject) => {
      fail = reject;
    });
    failed.catch(() => undefined);
    const call: ActiveCall = {
      id: randomUUID(),
      op,
      context,
      redactor: createRedactor(secretsOf(context.credentials)),
      abort: new AbortController(),
      logBudget: { count: 0 },
      cpuStart: isolate.cpuTime,
      startedAt: Date.now(),
      waits: 0,
      waitStartedAt: 0,
      waitedMs: 0,
      timer: null,
      fail,
      onChunk,
      nextSlice,
      chunks: 0,
      bytes: 0,
    };
    active.set(call.id, call);
    armWallClock(call);
    if (!cpuMonitor) {
      cpuMonitor = setInterval(checkCpu, Math.min(CPU_MONITOR_INTERVAL_MS, Math.max(1, Math.floor(limits.cpuTimeMs / 4))));
      cpuMonitor.unref?.();
    }
    return { call, failed };
  }

  function end(call: ActiveCall): void {
    if (call.timer) clearTimeout(call.timer);
    call.timer = null;
    call.abort.abort();
    active.delete(call.id);
    if (active.size === 0) stopMonitor();
  }

  /** Maps an error of isolated-vm itself (not of the plugin) to what happened to the sandbox. */
  function isolateFailure(error: unknown): PluginError {
    if (failure) return new SandboxError(failure, failureMessage(failure));
    const message = errorMessage(error);
    if (message === TIMED_OUT) breakSandbox('cpu_timeout');
    else if (message.includes('memory limit')) breakSandbox('memory');
    else if (isolate.isDisposed) breakSandbox('crashed');
    if (failure) return new SandboxError(failure, failureMessage(failure));
    return new ProviderError(`${pluginId}: the sandbox could not run the call: ${message.slice(0, 300)}`);
  }

  function prepare(op: OperationName, input: unknown, context: unknown): { input: Record<string, unknown>; context: ParsedCallContext } {
    if (failure) throw new SandboxError(failure, failureMessage(failure));
    const refusal = operationRefusal(manifest, op, implemented);
    if (refusal) throw refusal;
    const parsedInput = OPERATIONS[op].input.safeParse(input ?? {});
    if (!parsedInput.success) throw new InvalidInput(`invalid ${op} input: ${issuesText(parsedInput.error.issues)}`);
    const parsedContext = sandboxCallContextSchema.safeParse(context ?? {});
    if (!parsedContext.success) throw new InvalidInput(`invalid call context: ${issuesText(parsedContext.error.issues)}`);
    return { input: parsedInput.data as Record<string, unknown>, context: parsedContext.data };
  }

  function pluginCallJson(context: ParsedCallContext): string {
    const grantedOrigins = new Set(manifest.credential_access?.origins ?? []);
    const shown = context.credentials.find((credential) => credential.token && grantedOrigins.has(credential.origin));
    return JSON.stringify({ account: context.account, credential: shown ? { access_token: shown.token, origin: shown.origin } : null });
  }

  /** Runs the call in the isolate; resolves with the result's JSON text (credential values masked) or throws its typed error. */
  async function execute(op: OperationName, call: ActiveCall, failed: Promise<never>, run: () => Promise<unknown>): Promise<string> {
    let raw: unknown;
    try {
      const running = run();
      running.catch(() => undefined);
      raw = await Promise.race([running, failed]);
    } catch (error) {
      if (error instanceof SandboxError) throw error;
      throw isolateFailure(error);
    } finally {
      end(call);
    }
    if (typeof raw !== 'string' || (raw[0] !== '1' && raw[0] !== '0')) throw new ProviderError(`${pluginId}: the sandbox returned no result for ${op}`);
    // A plugin shown a token (credential_access) must not hand it on in its results either.
    const text = call.redactor.active ? call.redactor.text(raw.slice(1)) : raw.slice(1);
    if (raw[0] === '1') return text;
    let thrown: unknown = null;
    try {
      thrown = parseBoundaryJson(text);
    } catch {
      // described as an unknown failure below
    }
    throw pluginErrorFromData(errorDataFromThrown(thrown, call.redactor.text));
  }

  function validated<N extends OperationName>(op: N, value: unknown): OperationResult<N> {
    return validateResult(pluginId, op, value);
  }

  async function callJson(op: OperationName, input: unknown, context: SandboxCallContext, signal?: AbortSignal): Promise<string> {
    if (op === 'serialize' || op === 'serializePlaylist') throw new InvalidInput(`${op} streams its output: use sandbox.${op}`);
    const prepared = prepare(op, input, context);
    const { json, keys, binaries } = splitBinaries(prepared.input);
    const { call, failed } = begin(op, prepared.context, null);
    // The caller gave up: the call's requests in flight are aborted (the plugin sees a failed fetch and ends).
    signal?.addEventListener('abort', () => call.abort.abort(), { once: true });
    return execute(op, call, failed, () =>
      api.dispatch.apply(
        undefined,
        [call.id, op, json, pluginCallJson(prepared.context), JSON.stringify(keys), ...binaries.map((bytes) => new ivm.ExternalCopy(bytes).copyInto({ release: true }))],
        { timeout: limits.cpuTimeMs, result: { promise: true } },
      ),
    );
  }

  /**
   * The input crosses into the isolate as a structured copy: no JSON text of it is made on either
   * side. A 100,000-track playlist as JSON is a 120 MB two-byte string as soon as one title is not
   * Latin-1, and it was held twice (the host's text and the isolate's copy of it, the latter
   * counted against the sandbox's memory limit) next to the objects parsed from it. Measured on
   * one 100,000-track CSV export: the plugin-host process peaked at ~440 MiB instead of ~620.
   */
  async function runSerialize(input: unknown, context: ParsedCallContext, onChunk: ChunkSink): Promise<OperationResult<'serialize'>> {
    const { call, failed } = begin('serialize', context, onChunk);
    await execute('serialize', call, failed, () =>
      api.serialize.apply(undefined, [call.id, new ivm.ExternalCopy(input).copyInto({ release: true }), pluginCallJson(context)], { timeout: limits.cpuTimeMs, result: { promise: true } }),
    );
    return validated('serialize', { chunks: call.chunks });
  }

  return {
    pluginId,
    operations: [...implemented],
    get isDisposed() {
      return failure !== null;
    },
    get failure() {
      return failure;
    },

    async call<N extends OperationName>(op: N, input: unknown, context: SandboxCallContext): Promise<OperationResult<N>> {
      return validateResultText(pluginId, op, await callJson(op, input, context));
    },

    callJson,

    async serialize(input: unknown, onChunk: ChunkSink): Promise<OperationResult<'serialize'>> {
      const prepared = prepare('serialize', input, {});
      return runSerialize(prepared.input, prepared.context, onChunk);
    },

    async serializeChecked(input: OperationInput<'serialize'>, onChunk: ChunkSink): Promise<OperationResult<'serialize'>> {
      if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new InvalidInput('serializeChecked expects the checked input object');
      // Only the operation, the call context and the failure state are checked: the caller vouches for the input.
      const prepared = prepare('serialize', { playlists: [] }, {});
      return runSerialize(input, prepared.context, onChunk);
    },

    async serializePlaylist(input: unknown, nextSlice: SliceSource, onChunk: ChunkSink): Promise<OperationResult<'serializePlaylist'>> {
      const prepared = prepare('serializePlaylist', input, {});
      const { call, failed } = begin('serializePlaylist', prepared.context, onChunk, nextSlice);
      await execute('serializePlaylist', call, failed, () =>
        api.serializePlaylist.apply(undefined, [call.id, new ivm.ExternalCopy(prepared.input).copyInto({ release: true }), pluginCallJson(prepared.context)], { timeout: limits.cpuTimeMs, result: { promise: true } }),
      );
      return validated('serializePlaylist', { chunks: call.chunks });
    },

    dispose(): void {
      breakSandbox('disposed');
    },
  };
}
