/** What the sync API refuses, by stable code (the HTTP layer maps each to a problem). */
export class SyncError extends Error {
  readonly code: 'not_found' | 'invalid_origin' | 'sync_rule_cycle' | 'sync_rule_duplicate' | 'mirror_unavailable' | 'sync_state_conflict';
  readonly extensions: Record<string, unknown>;
  constructor(code: SyncError['code'], message: string, extensions: Record<string, unknown> = {}) {
    super(message);
    this.name = 'SyncError';
    this.code = code;
    this.extensions = extensions;
  }
}
