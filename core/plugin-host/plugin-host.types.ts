import type { Manifest, OperationName } from '@opl/plugin-sdk';
import type { AcquirePermit, ChunkSink, SandboxCallContext, SandboxFailure, SandboxLimits, SliceSource } from '@opl/plugin-sdk/sandbox';
import type { FromChild } from './ipc-messages.schema.ts';

/** The plugin host's options, events and bookkeeping records (the host itself: plugin-host.ts). */

export interface PluginBundle {
  readonly manifest: Manifest;
  readonly code: string;
}

export type PluginCallContext = SandboxCallContext;

/** The request a rate limiter permit is for (method and the real URL), when the sandbox's fetch is sending one. */
export interface HostAcquireRequest {
  readonly method: string;
  readonly url: string;
}

/** A plugin reported that the provider's daily quota is used up (the provider's own answer). */
export interface QuotaExhaustedEvent {
  readonly pluginId: string;
  readonly accountId: string | null;
  /** The manifest's quota bucket (`default`, `search`, …). */
  readonly bucket: string;
}

/** A pino-compatible logger (core/logging/logger.ts). */
export interface PluginHostLogger {
  debug(data: object, message: string): void;
  info(data: object, message: string): void;
  warn(data: object, message: string): void;
  error(data: object, message: string): void;
}

export interface PluginHostOptions {
  readonly limits?: Partial<SandboxLimits>;
  /** Limit breaches after which a plugin is quarantined. Default 3. */
  readonly quarantineStrikes?: number;
  readonly logger?: PluginHostLogger;
  /** The central rate limiter: awaited before every request a plugin makes. */
  readonly acquire?: (permit: AcquirePermit, request?: HostAcquireRequest | null) => Promise<void>;
  /**
   * Called when a plugin reports that the provider itself answered "quota exhausted": mark the
   * bucket spent (RateLimiter.markExhausted) and resolve with when it resets, which the call's
   * error then carries. Refusals by `acquire` need no report: the limiter already knows.
   */
  readonly onQuotaExhausted?: (event: QuotaExhaustedEvent) => Promise<Date | null>;
  /** Host names the sandbox's fetch resolves without DNS (fake providers in tests and demos). */
  readonly hostResolver?: Readonly<Record<string, string>>;
  /** Real origin → local base URL the sandbox's requests really go to (fake providers; see host-fetch.ts). */
  readonly originOverrides?: Readonly<Record<string, string>>;
  readonly pingIntervalMs?: number;
  /** A child that leaves a ping unanswered this long is killed and restarted. */
  readonly pingTimeoutMs?: number;
  /** Node heap limit of the child process (isolates have their own limits on top). */
  readonly childHeapMb?: number;
  /** Further node flags of the child process: the heap profile's (`OPL_HEAP_PROFILE`). */
  readonly childNodeFlags?: readonly string[];
  /** Environment defaults of the child process, the heap profile's (`heapProfileEnv`): the engine's environment overrides them. */
  readonly childEnv?: Readonly<Record<string, string>>;
  /** Restarts allowed per minute before the host gives up until the next request. */
  readonly maxRestartsPerMinute?: number;
}

export interface LoadedPluginInfo {
  readonly id: string;
  readonly version: string;
  readonly kind: Manifest['kind'];
  /** Operations the plugin implements. */
  readonly operations: readonly string[];
  /** Limit breaches so far. */
  readonly strikes: number;
}

export interface QuarantineEvent {
  readonly pluginId: string;
  readonly version: string;
  /** A sentence for admins. */
  readonly reason: string;
  readonly failures: readonly SandboxFailure[];
  readonly at: string;
}

/** `reason` is `event.reason`; the first two arguments are what most listeners need. */
export type QuarantineListener = (pluginId: string, reason: string, event: QuarantineEvent) => void;

export const DEFAULT_LIMITS: SandboxLimits = { memoryMb: 128, callTimeoutMs: 30_000, cpuTimeMs: 30_000 };

/** A plugin the host keeps loaded (and loads again after a restart of the child). */
export interface HostedPlugin {
  bundle: PluginBundle;
  operations: readonly string[];
  failures: SandboxFailure[];
}

/** A call in flight in the child. */
export interface PendingCall {
  readonly pluginId: string;
  readonly op: OperationName;
  readonly accountId: string | null;
  /** The limiter refused one of this call's requests for quota (nothing was sent). */
  quotaRefusal: { readonly bucket: string; readonly resets_at: string | null } | null;
  readonly resolve: (result: { json?: string; value?: unknown }) => void;
  readonly reject: (error: Error) => void;
  readonly onChunk: ChunkSink | null;
  /** Chunks are handed over strictly in order, one at a time. */
  chunkChain: Promise<void>;
  /** `serializePlaylist` only: the slices of tracks the child asks for, one at a time. */
  readonly nextSlice?: SliceSource;
}

/** A request to the child (a load, say) waiting for its answer. */
export interface PendingRequest {
  readonly resolve: (message: FromChild) => void;
  readonly reject: (error: Error) => void;
}

/** A ping to the child waiting for its pong; `sentAt` moves forward over the engine's own stalls. */
export interface PendingPing {
  sentAt: number;
  readonly resolve: (ms: number) => void;
  readonly reject: (error: Error) => void;
}
