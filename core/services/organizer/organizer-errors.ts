/** Organizer refusals the HTTP layer turns into problem responses (the spec's "unsupported organizer selection" and friends). */
export type OrganizerErrorCode =
  /** The selection asks for something the provider or the playlist does not allow: 422, nothing happens. */
  | 'organizer_unsupported'
  /** The preflight ran out, was used already, or the playlist changed since: 409, run a new preflight. */
  | 'organizer_preflight_stale'
  /** The typed phrase is not the one the preflight named: 422. */
  | 'organizer_confirmation_mismatch'
  /** The job names other playlists or entries than its preflight: 422. */
  | 'organizer_selection_mismatch'
  /** The job is not in a state that allows this (retry of a running job, …): 409. */
  | 'organizer_state_conflict'
  | 'not_found';

export class OrganizerError extends Error {
  readonly code: OrganizerErrorCode;
  readonly extensions: Record<string, unknown>;
  constructor(code: OrganizerErrorCode, message: string, extensions: Record<string, unknown> = {}) {
    super(message);
    this.name = 'OrganizerError';
    this.code = code;
    this.extensions = extensions;
  }
}
