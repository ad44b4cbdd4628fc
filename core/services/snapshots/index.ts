export { SnapshotService, type ProfileView, type SnapshotServiceDependencies, type SnapshotView } from './snapshot.service.ts';
export { SnapshotError, type SnapshotErrorCode } from './snapshot-error.ts';
export { profileBodySchema, profileSelectionSchema, type ProfileBody, type ProfileSelection } from './snapshot-profile.ts';
export { createSnapshotJob } from './snapshot.jobs.ts';
