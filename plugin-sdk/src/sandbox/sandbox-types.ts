import type { Manifest } from '../manifest.schema.ts';
import type { OperationInput, OperationName, OperationResult } from '../operations.schema.ts';
import type { SandboxCallContext } from './call-context.schema.ts';
import type { HostFetch } from './host-fetch.ts';
import type { SandboxLog } from './plugin-log.ts';
import type { SandboxFailure } from './sandbox-error.ts';
import type { SliceSource } from './serialize-input.ts';

/** The sandbox's public face: its options, limits and the calls it offers (built by `createSandbox`). */

export interface SandboxLimits {
  /** The isolate's heap limit, in MiB. */
  readonly memoryMb: number;
  /** Wall-clock limit of one call (time spent waiting for the rate limiter or a chunk consumer excluded). */
  readonly callTimeoutMs: number;
  /** CPU time one call may use. */
  readonly cpuTimeMs: number;
}

/** One request's worth of the central rate limiter. */
export interface AcquirePermit {
  readonly pluginId: string;
  readonly accountId: string | null;
  readonly op: OperationName;
  readonly cost: number;
  /** Set when the previous attempt of this request was answered 429: the provider asked to wait this long. */
  readonly retryAfterS?: number | null;
}

export type Acquire = (permit: AcquirePermit) => Promise<void>;

export type ChunkSink = (chunk: Uint8Array) => void | Promise<void>;

export interface SandboxOptions {
  readonly manifest: Manifest;
  /** The bundle's entry module (plugin.js). */
  readonly code: string;
  readonly limits: SandboxLimits;
  /** The grant-checked fetch; by default one built from the manifest with the global undici dispatcher. */
  readonly hostFetch?: HostFetch;
  readonly log: SandboxLog;
  /** Awaited before every outgoing request (redirect hops included). */
  readonly acquire?: Acquire;
  /** Called once when the sandbox breaks (a limit breach or a crash), before the affected calls fail. */
  readonly onBroken?: (failure: SandboxFailure, message: string) => void;
}

export interface Sandbox {
  readonly pluginId: string;
  /** The operations the plugin's definition implements (whether or not its manifest allows them). */
  readonly operations: readonly string[];
  readonly isDisposed: boolean;
  /** Why the sandbox stopped, once it did. */
  readonly failure: SandboxFailure | null;
  /** Runs an operation; resolves with its result validated against the operation's output schema. */
  call<N extends OperationName>(op: N, input: unknown, context: SandboxCallContext): Promise<OperationResult<N>>;
  /**
   * Runs an operation like `call` but resolves with the result as JSON text, not yet parsed or
   * validated: for a host that validates at its own boundary (the engine's PluginHost), so the
   * result is parsed and checked once, where it is used. Pass it to `validateResult` before use.
   */
  /** `signal`: the caller gave up; the call's requests in flight are aborted. */
  callJson(op: OperationName, input: unknown, context: SandboxCallContext, signal?: AbortSignal): Promise<string>;
  /** Runs a format plugin's `serialize`, handing each chunk (at most `SERIALIZE_CHUNK_BYTES`) to `onChunk` in order. */
  serialize(input: unknown, onChunk: ChunkSink): Promise<OperationResult<'serialize'>>;
  /**
   * `serialize` for a host that has checked the input itself (with `serializeInputOf`, as the
   * engine's plugin host does): it goes into the isolate as it is. `serialize` checks with zod,
   * which for a 10,000-track playlist is a quarter of a whole export's time.
   */
  serializeChecked(input: OperationInput<'serialize'>, onChunk: ChunkSink): Promise<OperationResult<'serialize'>>;
  /**
   * Writes one playlist's file from its details (`{playlist, options}`, no tracks) and the slices
   * `nextSlice` hands over one at a time (checked here), through the plugin's `serializePlaylist`
   * writer, or its `serialize` with the tracks gathered first when it predates writers. Time spent
   * waiting for a slice is the host's, not the plugin's.
   */
  serializePlaylist(input: unknown, nextSlice: SliceSource, onChunk: ChunkSink): Promise<OperationResult<'serializePlaylist'>>;
  dispose(): void;
}

/** Largest chunk handed to a serialize consumer; bigger plugin chunks are split. */
export const SERIALIZE_CHUNK_BYTES = 64 * 1024;
/** Largest file one serialize call may produce. */
export const MAX_SERIALIZE_BYTES = 512 * 1024 * 1024;
