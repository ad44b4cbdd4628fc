// `@opl/plugin-sdk/sandbox`: the isolated-vm runtime that runs a plugin bundle (node only, run
// with --no-node-snapshot). The engine hosts it in a child process; `opl-plugin test` uses it alone.
export { parseBoundaryJson } from './boundary-json.ts';
export {
  hostCredentialSchema,
  pluginAccountSchema,
  sandboxCallContextSchema,
  type ParsedCallContext,
  type SandboxCallContext,
} from './call-context.schema.ts';
export { decodedPath, describeUrl, isHttpMethod, isIpLiteralHost, matchGrant, pathMatchesPrefix, type GrantDecision, type GrantRefusalReason } from './grant-matcher.ts';
export {
  createHostFetch,
  createResolvingAgent,
  HostFetchError,
  MAX_RATE_LIMIT_RETRIES,
  MAX_REDIRECTS,
  MAX_RETRY_AFTER_S,
  retryAfterSeconds,
  wireUrl,
  pluginFetchRequestSchema,
  type HostCredential,
  type HostFetch,
  type HostFetchCall,
  type HostFetchFailure,
  type HostFetchOptions,
  type HostFetchResponse,
  type PluginFetchRequest,
} from './host-fetch.ts';
export { isOperationName, operationRefusal, requestCost } from './operation-guard.ts';
export { LOG_LEVELS, MAX_LOG_DATA, MAX_LOG_MESSAGE, MAX_LOGS_PER_CALL, type LogLevel, type SandboxLog, type SandboxLogEntry } from './plugin-log.ts';
export { createRedactor, REDACTED, secretsOf, type Redactor } from './redactor.ts';
export {
  LIMIT_BREACHES,
  PLUGIN_LOAD_FAILURES,
  PluginLoadError,
  SANDBOX_FAILURES,
  SandboxError,
  type PluginLoadFailure,
  type SandboxFailure,
} from './sandbox-error.ts';
export {
  createSandbox,
  MAX_SERIALIZE_BYTES,
  SERIALIZE_CHUNK_BYTES,
  validateResult,
  validateResultText,
  type Acquire,
  type AcquirePermit,
  type ChunkSink,
  type Sandbox,
  type SandboxLimits,
  type SandboxOptions,
} from './sandbox.ts';
export { serializeInputOf, serializeSliceOf, type SerializeSlice, type SliceSource } from './serialize-input.ts';
export { ALLOWED_ENCODINGS, decodeText, encodeText, TextCodecError } from './text-codec.ts';
export { errorDataFromThrown, MAX_ERROR_MESSAGE } from './thrown-error.ts';
