import { pluginErrorFromData, RateLimited } from '@opl/plugin-sdk';
import { isOperationName, SandboxError } from '@opl/plugin-sdk/sandbox';
import type { ErrorData, FromChild, ToChild } from './ipc-messages.schema.ts';
import type { PendingCall, PluginHostOptions } from './plugin-host.types.ts';
import { markQuotaFromResults, quotaAwareError, type QuotaReporting } from './quota-reports.ts';

/**
 * How the engine answers what the child says about a call in flight: its result, the chunks of a
 * streamed file, the slices of tracks a playlist writer asks for, and the rate limiter permits its
 * requests wait for. The host (plugin-host.ts) owns the calls; these only settle and answer them.
 */

type CallMessage = Extract<FromChild, { type: 'result' | 'chunk' | 'slice_request' | 'acquire' }>;

export interface CallReplyContext {
  readonly calls: Map<string, PendingCall>;
  readonly acquire: PluginHostOptions['acquire'];
  readonly quotaReporting: QuotaReporting;
  /** Sends to the child; a child that is gone is no error (its exit handler fails the calls). */
  readonly trySend: (message: ToChild) => void;
  /** Sends to the child; throws when it is not running. */
  readonly send: (message: ToChild) => void;
}

function toError(data: ErrorData): Error {
  if (data.failure) return new SandboxError(data.failure, data.message);
  return pluginErrorFromData({ type: data.type, message: data.message, retry_after_s: data.retry_after_s ?? null, quota: data.quota ?? null });
}

export function answerCallMessage(message: CallMessage, context: CallReplyContext): void {
  switch (message.type) {
    case 'result':
      return settleResult(message, context);
    case 'chunk':
      return deliverChunk(message, context);
    case 'slice_request':
      return answerSliceRequest(message, context);
    case 'acquire':
      return answerAcquire(message, context);
  }
}

function settleResult(message: Extract<FromChild, { type: 'result' }>, { calls, quotaReporting }: CallReplyContext): void {
  const call = calls.get(message.callId);
  if (!call) return;
  calls.delete(message.callId);
  // Chunks already handed over finish first, so the caller sees the file complete.
  void call.chunkChain.then(async () => {
    if (message.ok && message.json?.includes('[opl:quota ') && !call.quotaRefusal) await markQuotaFromResults(call, message.json, quotaReporting);
    if (message.ok) call.resolve({ ...(message.json !== undefined ? { json: message.json } : {}), value: message.value });
    else call.reject(message.error ? await quotaAwareError(call, toError(message.error), quotaReporting) : new SandboxError('crashed', `${call.pluginId}: the call failed without an error`));
  });
}

function deliverChunk(message: Extract<FromChild, { type: 'chunk' }>, { calls, send, trySend }: CallReplyContext): void {
  const call = calls.get(message.callId);
  if (!call?.onChunk) {
    send({ type: 'chunk_ack', callId: message.callId, seq: message.seq, ok: false, message: 'no such call' });
    return;
  }
  const onChunk = call.onChunk;
  call.chunkChain = call.chunkChain.then(async () => {
    try {
      await onChunk(message.bytes);
      trySend({ type: 'chunk_ack', callId: message.callId, seq: message.seq, ok: true });
    } catch (error) {
      trySend({ type: 'chunk_ack', callId: message.callId, seq: message.seq, ok: false, message: (error as Error).message?.slice(0, 500) ?? 'refused' });
    }
  });
}

function answerSliceRequest(message: Extract<FromChild, { type: 'slice_request' }>, { calls, trySend }: CallReplyContext): void {
  const nextSlice = calls.get(message.callId)?.nextSlice;
  const { callId, seq } = message;
  if (!nextSlice) {
    trySend({ type: 'slice', callId, seq, ok: false, message: 'no such call' });
    return;
  }
  void nextSlice().then(
    (slice) => trySend(slice.done ? { type: 'slice', callId, seq, ok: true, done: true, late: slice.late } : { type: 'slice', callId, seq, ok: true, tracks: slice.tracks }),
    (error: unknown) => trySend({ type: 'slice', callId, seq, ok: false, message: error instanceof Error ? error.message.slice(0, 500) : 'the tracks could not be read' }),
  );
}

function answerAcquire(message: Extract<FromChild, { type: 'acquire' }>, { calls, acquire, trySend }: CallReplyContext): void {
  const permit = message.permit;
  if (!acquire || !isOperationName(permit.op)) {
    trySend({ type: 'acquired', requestId: message.requestId, ok: true });
    return;
  }
  const { request, ...rest } = permit;
  void acquire({ ...rest, op: permit.op }, request ?? null).then(
    () => trySend({ type: 'acquired', requestId: message.requestId, ok: true }),
    (error: unknown) => {
      const text = error instanceof Error ? error.message.slice(0, 500) : 'refused';
      const quota = RateLimited.parseQuota(text);
      // Remembered per call: however the plugin reports the failed fetch, the call fails as a quota stop.
      if (quota) for (const call of calls.values()) if (call.pluginId === permit.pluginId && call.accountId === permit.accountId) call.quotaRefusal = quota;
      trySend({ type: 'acquired', requestId: message.requestId, ok: false, message: text });
    },
  );
}
