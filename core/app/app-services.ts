import type { Config } from '../config/index.ts';
import type { JobQueue } from '../jobs/index.ts';
import type { Logger } from '../logging/logger.ts';
import type { PluginHost } from '../plugin-host/index.ts';
import type { PluginCatalogue } from '../plugins/plugin-catalogue.service.ts';
import type { ExportService } from '../services/exports/index.ts';
import type { ImportPreviewService, ImportRecordService } from '../services/imports/index.ts';
import type { ConnectionService } from '../services/connections/connection.service.ts';
import type { MatchService } from '../services/matching/index.ts';
import type { MigrationEngine } from '../services/migrations/index.ts';
import type { RateLimiter } from '../services/pacing/rate-limiter.ts';
import type { PlaylistReadService } from '../services/playlists/playlist-read.service.ts';
import type { LibraryReadService, WorkspaceService } from '../services/library/index.ts';
import type { OwnerSessionService } from '../services/owner/owner-session.service.ts';
import type { PluginAdmin } from '../services/plugins/plugin-admin.service.ts';
import type { ShareRecipientService, ShareService } from '../services/shares/index.ts';
import type { Database } from '../storage/index.ts';

/** Everything the engine wires together once per process; handed to routes and job handlers. */
import type { GeneratorService } from '../services/generator/index.ts';
import type { OrganizerRecovery, OrganizerRunner, OrganizerService } from '../services/organizer/index.ts';
import type { SignInThrottle } from '../services/sign-in/index.ts';
import type { OidcSignIn } from '../services/users/index.ts';
import type { SnapshotService } from '../services/snapshots/index.ts';
import type { SyncEngine } from '../services/sync/index.ts';
import type { UserLimits } from '../services/user-limits/index.ts';

export interface AppServices {
  config: Config;
  logger: Logger;
  database: Database;
  jobs: JobQueue<AppServices>;
  ownerSessions: OwnerSessionService;
  /** Counts failed sign-ins (owner secret, admin token) per address, account and device. */
  signInThrottle: SignInThrottle;
  /** Hosted mode's user sign-in through the OpenID provider; null when none is configured. */
  oidcSignIn: OidcSignIn | null;
  /** Hosted mode's per-user limits (jobs, imports, snapshots); null in self-host mode. */
  userLimits: UserLimits | null;
  /** Import records (private, expiring normalised playlists) and the file/text previews that make them. */
  imports: { records: ImportRecordService; preview: ImportPreviewService };
  /** Playlist shares: bounded public snapshots read by token. */
  shares: ShareService;
  /** Share recipients: identities bound to one share, with their sessions. */
  shareRecipients: ShareRecipientService;
  /** File exports of playlists (temporary files, ZIP64 archives). */
  exports: ExportService;
  /** Connected provider accounts: auth flows, credential vault, provider calls with credentials. */
  connections: ConnectionService;
  /** Reads of a connected account's playlists, cached by snapshot id. */
  playlists: PlaylistReadService;
  /** Reads of a connected account's saved albums and followed artists (for choosing them). */
  library: LibraryReadService;
  /** The Library workspace: every account's playlists grouped across services, coverage, migration status. */
  workspace: WorkspaceService;
  /** The central rate limiter every provider request waits on (state in PostgreSQL). */
  rateLimiter: RateLimiter;
  /** Track matching: identity graph, no-match cache, review learning. */
  matching: MatchService;
  /** Migrations: preflight, jobs, the worker pipeline, progress events, reports. */
  migrations: MigrationEngine;
  /** The playlist generator: model proposals resolved to real tracks, as private drafts. */
  generator: GeneratorService;
  /** The organizer: remove from library, permanent delete, remove songs (API side and worker side). */
  organizer: { service: OrganizerService; runner: OrganizerRunner; recovery: OrganizerRecovery };
  /** Library snapshots: profiles, archives taken by a job, verification, upload and download. */
  snapshots: SnapshotService;
  /** Scheduled sync: rules, the schedule's evaluation, runs (each an ordinary migration job). */
  sync: SyncEngine;
  plugins: {
    /** The sandbox host: call loaded plugins through it. */
    host: PluginHost;
    /** Which plugins are loaded (and which refused, and why). */
    catalogue: PluginCatalogue;
    admin: PluginAdmin;
  };
}
