import { PLUGIN_ERROR_TYPES } from '@opl/plugin-sdk';
import { LOG_LEVELS, PLUGIN_LOAD_FAILURES, SANDBOX_FAILURES } from '@opl/plugin-sdk/sandbox';
import { manifestSchema } from '@opl/plugin-sdk/schemas';
import { z } from 'zod';

/**
 * Every message between the engine and the plugin-host child process, both ways. Each side parses
 * what it receives with these schemas before acting on it: the child runs hostile code, so the
 * engine treats it as a peer to validate, not as part of itself. (IPC uses Node's "advanced"
 * serialization, so byte arrays cross as Uint8Array.)
 */

const id = z.string().min(1).max(200);
const sandboxLimits = z.object({
  memoryMb: z.number().int().min(8).max(8_192),
  callTimeoutMs: z.number().int().positive().max(3_600_000),
  cpuTimeMs: z.number().int().positive().max(3_600_000),
});

/** What the child is started with (its first argument, as JSON). */
export const childConfigSchema = z.object({
  limits: sandboxLimits,
  /** Ask the engine for a rate limiter permit before every request. */
  acquire: z.boolean(),
  hostResolver: z.record(z.string().max(253), z.string().max(64)).nullable(),
  originOverrides: z.record(z.string().max(300), z.string().max(300)).nullable().default(null),
});
export type ChildConfig = z.infer<typeof childConfigSchema>;

export const errorDataSchema = z.object({
  type: z.enum(PLUGIN_ERROR_TYPES),
  message: z.string().max(4_000),
  retry_after_s: z.number().nonnegative().nullable().optional(),
  /** RateLimited only: a daily quota is used up (see RateLimited.quota). */
  quota: z
    .object({ bucket: z.string().regex(/^[a-z][a-z0-9_]{0,31}$/), resets_at: z.iso.datetime().nullable() })
    .nullable()
    .optional(),
  /** Set when the sandbox itself failed (limits, crash) rather than the plugin reporting an error. */
  failure: z.enum(SANDBOX_FAILURES).optional(),
});
export type ErrorData = z.infer<typeof errorDataSchema>;

export const toChildSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('load'), requestId: id, manifest: manifestSchema, code: z.string().max(64 * 1024 * 1024) }),
  z.object({ type: z.literal('unload'), requestId: id, pluginId: id }),
  z.object({ type: z.literal('call'), callId: id, pluginId: id, op: z.string().max(100), input: z.unknown(), context: z.unknown() }),
  z.object({ type: z.literal('serialize'), callId: id, pluginId: id, input: z.unknown() }),
  /** The engine gave up on a call (its caller cancelled): the sandbox aborts the call's requests in flight. */
  z.object({ type: z.literal('cancel'), callId: id }),
  z.object({ type: z.literal('serialize_playlist'), callId: id, pluginId: id, input: z.unknown() }),
  /** The answer to `slice_request`: the next tracks (checked again by the child), the end with the late options, or why there are none. */
  z.object({
    type: z.literal('slice'),
    callId: id,
    seq: z.number().int().nonnegative(),
    ok: z.boolean(),
    done: z.boolean().optional(),
    tracks: z.unknown().optional(),
    late: z.unknown().optional(),
    message: z.string().max(1_000).optional(),
  }),
  z.object({ type: z.literal('chunk_ack'), callId: id, seq: z.number().int().nonnegative(), ok: z.boolean(), message: z.string().max(1_000).optional() }),
  z.object({ type: z.literal('acquired'), requestId: id, ok: z.boolean(), message: z.string().max(1_000).optional() }),
  z.object({ type: z.literal('ping'), seq: z.number().int().nonnegative() }),
]);
export type ToChild = z.infer<typeof toChildSchema>;

export const fromChildSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), pid: z.number().int() }),
  z.object({
    type: z.literal('loaded'),
    requestId: id,
    ok: z.boolean(),
    operations: z.array(z.string().max(100)).max(100).optional(),
    failure: z.enum(PLUGIN_LOAD_FAILURES).optional(),
    message: z.string().max(2_000).optional(),
  }),
  z.object({ type: z.literal('unloaded'), requestId: id }),
  /**
   * `ok` with the result as JSON text in `json` (parsed and validated by the engine, once) or as a
   * value (serialize's chunk count), or a failure in `error`.
   */
  z.object({ type: z.literal('result'), callId: id, ok: z.boolean(), json: z.string().max(512 * 1024 * 1024).optional(), value: z.unknown().optional(), error: errorDataSchema.optional() }),
  z.object({ type: z.literal('chunk'), callId: id, seq: z.number().int().nonnegative(), bytes: z.instanceof(Uint8Array) }),
  /** A `serializePlaylist` writer wants the next slice of its tracks. */
  z.object({ type: z.literal('slice_request'), callId: id, seq: z.number().int().nonnegative() }),
  z.object({
    type: z.literal('acquire'),
    requestId: id,
    permit: z.object({
      pluginId: id,
      accountId: z.string().max(500).nullable(),
      op: z.string().max(100),
      cost: z.number().nonnegative().max(1_000_000),
      retryAfterS: z.number().nonnegative().max(86_400).nullable().optional(),
      /** The request the permit is for, so a declared quota can price it by kind. */
      request: z.object({ method: z.string().max(10), url: z.string().max(8_000) }).nullable().optional(),
    }),
  }),
  z.object({
    type: z.literal('log'),
    entry: z.object({
      level: z.enum(LOG_LEVELS),
      message: z.string().max(4_000),
      data: z.record(z.string(), z.unknown()).optional(),
      source: z.enum(['plugin', 'sandbox']),
      pluginId: id,
      op: z.string().max(100).optional(),
    }),
  }),
  z.object({ type: z.literal('broken'), pluginId: id, failure: z.enum(SANDBOX_FAILURES), message: z.string().max(2_000) }),
  z.object({ type: z.literal('pong'), seq: z.number().int().nonnegative() }),
]);
export type FromChild = z.infer<typeof fromChildSchema>;
