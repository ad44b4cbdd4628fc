export type ExportErrorReason =
  | 'unsupported_source'
  | 'unknown_format'
  | 'format_unavailable'
  | 'too_many_playlists'
  | 'invalid_selection'
  | 'write_failed'
  | 'temporary_storage_full'
  | 'temporary_storage_failed'
  | 'playlist_not_found'
  | 'playlist_access_denied'
  | 'all_playlists_failed'
  | 'no_playlist_portion'
  | 'migration_not_finished'
  | 'detail_expired';

/** Why an export cannot be made; the HTTP layer maps each reason onto its status. */
export class ExportError extends Error {
  readonly reason: ExportErrorReason;
  readonly extensions: Record<string, unknown>;
  constructor(reason: ExportErrorReason, message: string, extensions: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ExportError';
    this.reason = reason;
    this.extensions = extensions;
  }
}
