import { ProviderError } from '../errors.ts';

/**
 * Failures of the sandbox itself rather than of the provider. They are `ProviderError`s (so the
 * engine treats them like any failed adapter call) with a `failure` that says what happened; the
 * limit breaches among them count as strikes towards quarantine.
 */
export const SANDBOX_FAILURES = [
  /** A synchronous stretch of plugin code, or its CPU use over one call, ran past the CPU limit. */
  'cpu_timeout',
  /** The call did not settle within the wall-clock limit (async loop, never-settling promise). */
  'wall_timeout',
  /** The isolate ran out of its memory limit. */
  'memory',
  /** The isolate or the plugin-host process died under the call. */
  'crashed',
  /** The sandbox was closed (unload, shutdown) while the call ran. */
  'disposed',
  /** The plugin broke its limits too often and is no longer run. */
  'quarantined',
  /** No plugin with this id is loaded. */
  'not_loaded',
  /** The plugin host process could not be (re)started. */
  'host_unavailable',
] as const;

export type SandboxFailure = (typeof SANDBOX_FAILURES)[number];

/** The failures that are the plugin's fault and count as strikes. */
export const LIMIT_BREACHES: ReadonlySet<SandboxFailure> = new Set(['cpu_timeout', 'wall_timeout', 'memory', 'crashed']);

export class SandboxError extends ProviderError {
  readonly failure: SandboxFailure;
  constructor(failure: SandboxFailure, message: string) {
    super(message);
    this.failure = failure;
  }
}

export const PLUGIN_LOAD_FAILURES = ['invalid_code', 'imports_not_allowed', 'not_a_definition', 'kind_mismatch', 'resource_limit'] as const;
export type PluginLoadFailure = (typeof PLUGIN_LOAD_FAILURES)[number];

/** A bundle that cannot become a running sandbox: the code does not compile or is not a plugin definition. */
export class PluginLoadError extends Error {
  readonly failure: PluginLoadFailure;
  constructor(failure: PluginLoadFailure, message: string) {
    super(message);
    this.name = 'PluginLoadError';
    this.failure = failure;
  }
}
