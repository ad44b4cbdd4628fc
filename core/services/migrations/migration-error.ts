/** A migration request the engine refuses, with the problem code the HTTP layer answers. */
export class MigrationError extends Error {
  readonly code: 'not_found' | 'migration_warnings' | 'unsupported_target_type' | 'invalid_selection' | 'migration_detail_expired' | 'migration_state_conflict';
  readonly extensions: Record<string, unknown>;
  constructor(code: MigrationError['code'], message: string, extensions: Record<string, unknown> = {}) {
    super(message);
    this.name = 'MigrationError';
    this.code = code;
    this.extensions = extensions;
  }
}
