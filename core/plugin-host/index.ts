// The engine's plugin sandbox host: isolates in a supervised child process.
export { PluginHost } from './plugin-host.ts';
export {
  DEFAULT_LIMITS,
  type HostAcquireRequest,
  type QuotaExhaustedEvent,
  type LoadedPluginInfo,
  type PluginBundle,
  type PluginCallContext,
  type PluginHostLogger,
  type PluginHostOptions,
  type QuarantineEvent,
  type QuarantineListener,
} from './plugin-host.types.ts';
