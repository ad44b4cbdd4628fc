/**
 * Why a plugin is not loaded. The codes are shared by the SDK tools (which produce the bundle and
 * trust ones) and the engine (which adds rollback, engine range, allow-list and quarantine); the
 * accompanying `detail` is always a sentence a person can act on. The engine's UI imports this
 * list at build time (ui/src/api/plugin-refusals.ts), so this file stays pure data: no imports.
 */
export const REFUSAL_REASONS = [
  'unsigned',
  'invalid_manifest',
  'missing_file',
  'modified_file',
  'unlisted_file',
  'bad_signature',
  'unknown_key',
  'revoked_key',
  'rollback',
  'engine_range',
  'not_allow_listed',
  'quarantined',
  'unreadable',
  'duplicate',
  /** The bundle verified but the sandbox could not start it (no plugin definition, a syntax error). */
  'load_failed',
] as const;

export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export interface Refusal<R extends RefusalReason = RefusalReason> {
  readonly ok: false;
  readonly reason: R;
  readonly detail: string;
}

export function refuse<R extends RefusalReason>(reason: R, detail: string): Refusal<R> {
  return { ok: false, reason, detail };
}
