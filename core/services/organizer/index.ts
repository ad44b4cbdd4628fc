export { availability, confirmationPhrase, MAX_PLAYLISTS_PER_JOB, MAX_SONG_REMOVALS_PER_JOB, ORGANIZER_ACTIONS, relationOf, type ActionAvailability, type OrganizerAction, type PlaylistRelation } from './organizer-actions.ts';
export { OrganizerError, type OrganizerErrorCode } from './organizer-errors.ts';
export { createJobRequestSchema, preflightRequestSchema, songEntrySchema, type CreateJobRequest, type PreflightRequest } from './organizer-request.ts';
export { ORGANIZER_LEASE_SECONDS, OrganizerRunner } from './organizer-runner.ts';
export { OrganizerRecovery } from './organizer-recovery.ts';
export { OrganizerService, DEFAULT_PREFLIGHT_TTL_SECONDS, type OrganizerItemView, type OrganizerJobView, type OrganizerPlaylistView, type PreflightView } from './organizer.service.ts';
export { runOrganizerJob } from './organizer.jobs.ts';
export type { ProviderOrganizer } from './organizer-preflight.ts';
export { duplicatesRequestSchema, type DuplicatesRequest, type DuplicatesView } from './organizer-duplicates.ts';
