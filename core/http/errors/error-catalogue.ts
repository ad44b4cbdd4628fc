/**
 * The one catalogue of API errors. Every error the HTTP API answers has a stable `code` from here;
 * clients branch on `code`, never on `title` or `detail` text. Add new codes here, never inline.
 */
export const ERROR_CATALOGUE = {
  validation_failed: { status: 400, title: 'The request is not valid' },
  malformed_body: { status: 400, title: 'The request body could not be read' },
  malformed_request: { status: 400, title: 'The request is not valid HTTP' },
  session_required: { status: 401, title: 'Owner session required' },
  invalid_owner_secret: { status: 401, title: 'The owner secret is not correct' },
  admin_token_required: { status: 401, title: 'Admin token required' },
  admin_not_configured: { status: 403, title: 'Admin access is not configured' },
  authentication_not_configured: { status: 403, title: 'User authentication is not configured' },
  cross_origin_request: { status: 403, title: 'Cross-origin request refused' },
  header_paste_disabled: { status: 403, title: 'Pasting browser headers is disabled on this instance' },
  playlist_access_denied: { status: 403, title: 'The provider does not let this account read the playlist' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  request_timeout: { status: 408, title: 'The request did not arrive in time' },
  conflict: { status: 409, title: 'Conflict' },
  provider_not_configured: { status: 409, title: 'The provider cannot be connected on this instance' },
  provider_auth_expired: { status: 409, title: 'The provider account needs reconnecting' },
  account_mismatch: { status: 409, title: 'A different provider account signed in' },
  migration_warnings: { status: 409, title: 'Review and acknowledge migration warnings before starting' },
  sync_rule_cycle: { status: 409, title: 'The sync rule would feed changes back into its own source (an inverse rule or a longer loop)' },
  migration_state_conflict: { status: 409, title: 'The migration is not in a state that allows this' },
  migration_detail_expired: { status: 410, title: 'The migration item detail has expired' },
  gone: { status: 410, title: 'Gone' },
  auth_attempt_expired: { status: 410, title: 'The connection attempt expired' },
  payload_too_large: { status: 413, title: 'The request body is too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported content type' },
  unprocessable_content: { status: 422, title: 'The request cannot be processed' },
  unsupported_schema_version: { status: 422, title: 'The document\'s schema_version is not supported' },
  auth_failed: { status: 422, title: 'The connection could not be completed' },
  provider_unsupported: { status: 422, title: 'The provider does not support this' },
  unsupported_target_type: { status: 422, title: 'The target cannot receive what was selected' },
  invalid_selection: { status: 422, title: 'The selection cannot be migrated' },
  rate_limited: { status: 429, title: 'Too many requests' },
  request_headers_too_large: { status: 431, title: 'The request headers are too large' },
  provider_rate_limited: { status: 429, title: 'The provider asks to slow down' },
  internal_error: { status: 500, title: 'Internal server error' },
  bad_gateway: { status: 502, title: 'An upstream server failed' },
  model_failed: { status: 502, title: 'The language model failed or answered unusably' },
  model_timeout: { status: 504, title: 'The language model did not answer in time' },
  model_rate_limited: { status: 429, title: 'The language model server asks to slow down' },
  generator_unavailable: { status: 503, title: 'No language model is configured for the generator' },
  provider_unavailable: { status: 502, title: 'The provider could not be reached or failed' },
  ui_not_built: { status: 503, title: 'The web UI has not been built' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];
