import { AppUser, OidcSignInAttempt } from './app-user.entity.ts';
import { AuthAttempt } from './auth-attempt.entity.ts';
import { GenerationDraftItem } from './generation-draft-item.entity.ts';
import { GenerationDraft } from './generation-draft.entity.ts';
import { GenerationPreference } from './generation-preference.entity.ts';
import { ImportRecord } from './import-record.entity.ts';
import { JobItem } from './job-item.entity.ts';
import { LibraryImportMatch } from './library-import-match.entity.ts';
import { LibraryMemberPair } from './library-member-pair.entity.ts';
import { MatchDenial } from './match-denial.entity.ts';
import { MatchMiss } from './match-miss.entity.ts';
import { MigrationJob } from './migration-job.entity.ts';
import { OperationLedger } from './operation-ledger.entity.ts';
import { OrganizerItem } from './organizer-item.entity.ts';
import { OrganizerJob } from './organizer-job.entity.ts';
import { OrganizerPreflight } from './organizer-preflight.entity.ts';
import { OwnerSession } from './owner-session.entity.ts';
import { PluginAllowListEntry } from './plugin-allow-list-entry.entity.ts';
import { PlaylistCache } from './playlist-cache.entity.ts';
import { PluginRecord } from './plugin-record.entity.ts';
import { ProviderAccount } from './provider-account.entity.ts';
import { ProviderCredential } from './provider-credential.entity.ts';
import { RateLimitBucket } from './rate-limit-bucket.entity.ts';
import { ReviewDecision } from './review-decision.entity.ts';
import { Share } from './share.entity.ts';
import { ShareRecipient } from './share-recipient.entity.ts';
import { SignInDevice, SignInThrottle } from './sign-in-throttle.entity.ts';
import { UserUsage } from './user-usage.entity.ts';
import { SnapshotProfile } from './snapshot-profile.entity.ts';
import { Snapshot } from './snapshot.entity.ts';
import { SnapshotRewind, SnapshotRewindStep } from './snapshot-rewind.entity.ts';
import { SyncCheckpoint } from './sync-checkpoint.entity.ts';
import { SyncMirrorStep } from './sync-mirror-step.entity.ts';
import { SyncRule } from './sync-rule.entity.ts';
import { SyncRuleDeletion } from './sync-rule-deletion.entity.ts';
import { SyncRun } from './sync-run.entity.ts';
import { TrackEdge } from './track-edge.entity.ts';
import { TrackIdentity } from './track-identity.entity.ts';

export {
  AppUser,
  AuthAttempt,
  GenerationDraft,
  GenerationDraftItem,
  GenerationPreference,
  ImportRecord,
  JobItem,
  LibraryImportMatch,
  LibraryMemberPair,
  MatchDenial,
  MatchMiss,
  MigrationJob,
  OidcSignInAttempt,
  OperationLedger,
  OrganizerItem,
  OrganizerJob,
  OrganizerPreflight,
  OwnerSession,
  PlaylistCache,
  PluginAllowListEntry,
  PluginRecord,
  ProviderAccount,
  ProviderCredential,
  RateLimitBucket,
  ReviewDecision,
  Share,
  ShareRecipient,
  SignInDevice,
  SignInThrottle,
  Snapshot,
  SnapshotProfile,
  SnapshotRewind,
  SnapshotRewindStep,
  SyncCheckpoint,
  SyncMirrorStep,
  SyncRule,
  SyncRuleDeletion,
  SyncRun,
  TrackEdge,
  TrackIdentity,
  UserUsage,
};
export * from './values.ts';

/** Every entity the ORM knows; the schema (and so the migrations) is generated from this list. */
export const ENTITIES = [
  ProviderAccount,
  ProviderCredential,
  MigrationJob,
  JobItem,
  OperationLedger,
  ReviewDecision,
  TrackIdentity,
  TrackEdge,
  MatchMiss,
  MatchDenial,
  ImportRecord,
  SyncRule,
  SyncRuleDeletion,
  SyncRun,
  SyncMirrorStep,
  SyncCheckpoint,
  OrganizerJob,
  OrganizerItem,
  OrganizerPreflight,
  GenerationPreference,
  GenerationDraft,
  GenerationDraftItem,
  Share,
  ShareRecipient,
  SnapshotProfile,
  Snapshot,
  SnapshotRewind,
  SnapshotRewindStep,
  PluginRecord,
  PluginAllowListEntry,
  AppUser,
  OwnerSession,
  OidcSignInAttempt,
  SignInThrottle,
  SignInDevice,
  AuthAttempt,
  RateLimitBucket,
  PlaylistCache,
  LibraryMemberPair,
  LibraryImportMatch,
  UserUsage,
] as const;
