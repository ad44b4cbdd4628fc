export { SnapshotService, type SnapshotServiceDependencies } from './snapshot.service.ts';
export { ARCHIVE_MISSING, type ProfileView, type SnapshotEvent, type SnapshotView } from './snapshot-views.ts';
export { retentionSchema, snapshotScheduleSchema, type RetentionPolicy, type SnapshotSchedule } from './snapshot-schedule.ts';
export { SnapshotScheduler } from './snapshot-scheduler.ts';
export { SnapshotError, type SnapshotErrorCode } from './snapshot-error.ts';
export { profileBodySchema, profileSelectionSchema, type ProfileBody, type ProfileSelection } from './snapshot-profile.ts';
export { createSnapshotJob, evaluateSnapshotScheduleJob } from './snapshot.jobs.ts';
export { SnapshotDiffs, type CollectionDiff, type SnapshotDiffView } from './snapshot-diff.ts';
export { diffTracks, trackIdentity, type DiffTrack, type TrackDiff } from './track-diff.ts';
