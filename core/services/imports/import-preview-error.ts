export type ImportPreviewFailure =
  | 'too_large'
  | 'unprocessable'
  | 'unsupported_format'
  | 'invalid_request'
  | 'aborted'
  /** A URL refused by the import rules before any request (or its destination is not public). */
  | 'url_refused'
  /** A provider playlist link no connected account can read: connect one (`action`). */
  | 'needs_connection'
  /** The account that should read a provider link needs reconnecting (`action`). */
  | 'needs_reconnect'
  /** The `account_id` given is not a connected account of the link's provider. */
  | 'invalid_account'
  /** The provider asks to slow down (`retry_after_s`). */
  | 'rate_limited'
  /** A share link whose share does not exist (any more): revoked, expired or mistyped. */
  | 'not_found'
  /** The remote server failed, timed out or answered something other than the playlist. */
  | 'upstream_failed'
  /** The format's reader cannot run now (quarantined, not loaded, its plugin host restarting): not the content's fault. */
  | 'reader_unavailable'
  /** Too many previews wait for a reader already (`retry_after_s`). */
  | 'busy';

/** A preview refused for a reason the client can act on; `extensions` carry the numbers. */
export class ImportPreviewError extends Error {
  readonly reason: ImportPreviewFailure;
  readonly extensions: Record<string, unknown>;
  constructor(reason: ImportPreviewFailure, message: string, extensions: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ImportPreviewError';
    this.reason = reason;
    this.extensions = extensions;
  }
}
