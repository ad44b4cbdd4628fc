import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config/index.ts';
import type { Logger } from '../logging/logger.ts';
import type { ReadinessCheck } from '../services/health/readiness.ts';
import { ownerPolicy } from '../services/owner/owner.ts';
import type { OidcSignIn } from '../services/users/index.ts';
import type { OwnerSessionService } from '../services/owner/owner-session.service.ts';
import type { PluginAdminApi } from '../services/plugins/plugin-admin.service.ts';
import { registerJsonBodyParser } from './json-body-parser.ts';
import { AppError, registerErrorHandling } from './errors/index.ts';
import { findUnstorableText } from './unstorable-text.ts';
import { openApiDocument, registerOpenApi } from './openapi.ts';
import { answerClientError } from './errors/client-error.ts';
import { registerOwnerGate } from './owner/owner-gate.ts';
import { requestIdFor } from './request-context.ts';
import { RedactingLogController } from './request-logging.ts';
import { connectionRoutes, type ConnectionsApi } from './routes/connections.routes.ts';
import { exportRoutes, unavailableExports, type ExportsApi } from './routes/exports.routes.ts';
import { healthRoutes } from './routes/health.routes.ts';
import { importRoutes, unavailableImports, type ImportsApi } from './routes/imports.routes.ts';
import { playlistRoutes, type PlaylistsApi } from './routes/playlists.routes.ts';
import { libraryRoutes, type LibraryApi } from './routes/library.routes.ts';
import { libraryWorkspaceRoutes, type WorkspaceApi } from './routes/library-workspace.routes.ts';
import type { WorkspaceService } from '../services/library/index.ts';
import { generatorRoutes, type GeneratorApi } from './routes/generator.routes.ts';
import { snapshotRoutes, type SnapshotsApi } from './routes/snapshots.routes.ts';
import type { UserLimits } from '../services/user-limits/index.ts';
import { migrationRoutes, unavailableMigrations, type MigrationsApi } from './routes/migrations.routes.ts';
import { openPlaylistRoutes, unavailableOpenPlaylists, type OpenPlaylistsApi } from './routes/open-playlists.routes.ts';
import { pluginRoutes } from './routes/plugins.routes.ts';
import { schemaRoutes } from './routes/schemas.routes.ts';
import { shareRoutes, unavailableShares, type SharesApi } from './routes/shares.routes.ts';
import type { SignInThrottle } from '../services/sign-in/index.ts';
import type { ShareRecipientService } from '../services/shares/index.ts';
import { shareRecipientRoutes } from './routes/share-recipients.routes.ts';
import { sessionRoutes } from './routes/session.routes.ts';
import { oidcRoutes } from './routes/oidc.routes.ts';
import { registerUi } from './routes/ui.routes.ts';
import { organizerRoutes, type OrganizerApi } from './routes/organizer.routes.ts';
import { syncRoutes, unavailableSync, type SyncApi } from './routes/sync.routes.ts';
import { demoRoutes, type DemoApi } from './routes/demo.routes.ts';

export interface HttpDependencies {
  config: Config;
  logger: Logger;
  version: string;
  readiness: readonly ReadinessCheck[];
  ownerSessions: OwnerSessionService;
  /** Failed-sign-in throttle of the owner secret and the admin token. */
  signInThrottle: SignInThrottle;
  pluginAdmin: PluginAdminApi;
  /** Hosted mode's user sign-in; null or absent when no OpenID provider is configured. */
  oidc?: OidcSignIn | null;
  /** Import previews and records; absent only where no database exists (the OpenAPI generator). */
  imports?: ImportsApi;
  /** Playlist exports; absent only where no database exists (the OpenAPI generator). */
  exports?: ExportsApi;
  /** Connected accounts and their playlists; absent only where no database exists (the OpenAPI generator). */
  connections?: ConnectionsApi & { connectInfo(provider: string): { demo: boolean; connectable: boolean; reason: string | null } };
  playlists?: PlaylistsApi;
  /** Saved albums and followed artists of connected accounts; absent only where no database exists. */
  library?: LibraryApi;
  /** The Library workspace (groups, coverage, migration status); absent only where no database exists. */
  workspace?: WorkspaceApi & Pick<WorkspaceService, 'statusesOf'>;
  /** Playlist shares; absent only where no database exists (the OpenAPI generator). */
  shares?: SharesApi;
  /** Share recipients' sessions; absent only where no database exists (the OpenAPI generator). */
  shareRecipients?: Pick<ShareRecipientService, 'join' | 'leave' | 'resolve' | 'ttlSeconds'>;
  /** Migrations; absent only where no database exists (the OpenAPI generator). */
  migrations?: Omit<MigrationsApi, 'reportBatchSize'>;
  /** The playlist generator; absent only where no database exists (the OpenAPI generator). */
  generator?: GeneratorApi;
  /** The organizer; absent only where no database exists (the OpenAPI generator). */
  organizer?: OrganizerApi;
  /** Library snapshots; absent only where no database exists (the OpenAPI generator). */
  snapshots?: SnapshotsApi;
  /** Hosted mode's per-user limits; absent in self-host mode (and where no database exists). */
  userLimits?: Pick<UserLimits, 'admitSnapshot'>;
  /** Scheduled sync rules; absent only where no database exists (the OpenAPI generator). */
  sync?: SyncApi;
  /** Demo mode's own routes; absent (they answer 404) when demo mode is off. */
  demo?: DemoApi;
  /** The Open Playlist interchange API; absent only where no database exists (the OpenAPI generator). */
  openPlaylists?: OpenPlaylistsApi;
  uiDistDir: string;
  /** Tests: sees every response body sent (to prove no secret is ever in one). */
  responseTap?: (body: string) => void;
}

const notWired = async (): Promise<never> => {
  throw new Error('connections are not wired in this server');
};

function unwiredSnapshots(limits: SnapshotsApi['limits']): SnapshotsApi {
  return {
    limits,
    createProfile: notWired,
    updateProfile: notWired,
    profiles: notWired,
    profile: notWired,
    deleteProfile: notWired,
    createSnapshot: notWired,
    snapshots: notWired,
    snapshot: notWired,
    archive: notWired,
    verify: notWired,
    deleteSnapshot: notWired,
    upload: notWired,
    eventsAfter: notWired,
    follow: notWired,
    diffs: { between: notWired, againstLive: notWired },
    rewinds: { preview: notWired, rewind: notWired, read: notWired },
    asOf: notWired,
    signingKey: notWired,
    openArchive: () => {
      throw new Error('snapshots are not wired in this server');
    },
  };
}

const unwiredGenerator: GeneratorApi = {
  config: () => ({ available: false, backend: 'openai_compatible', model: '', demo: false, message: 'The generator is not wired in this server.', limits: { max_prompt_chars: 0, max_output_chars: 0, max_tracks: 0 } }),
  createDraft: notWired,
  preferences: notWired,
  startDraft: notWired,
  regenerate: notWired,
  cancel: notWired,
  eventsAfter: notWired,
  follow: notWired,
  replaceItem: notWired,
  draft: notWired,
  drafts: notWired,
  deleteDraft: notWired,
  rename: notWired,
  updateItem: notWired,
  confirm: notWired,
  search: notWired,
  addFromSearch: notWired,
  reorder: notWired,
};

export type HttpServer = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'self'; img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
};

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

/** Builds the fastify server with every route of the API; `listen` is the caller's business. */
export async function buildHttpServer(deps: HttpDependencies): Promise<HttpServer> {
  const { config } = deps;
  const app = Fastify<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger>({
    loggerInstance: deps.logger.child({ component: 'http' }),
    genReqId: requestIdFor,
    logController: new RedactingLogController(),
    bodyLimit: 1024 * 1024,
    // Who the client is (request.ip) counts for sign-in throttling: only named proxies may say.
    // A hop count trusts that many proxies nearest the engine (proxy-addr's meaning of a number).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1024 },
    // Requests Node's parser refuses (a raw `é` in the URL, oversized headers) answer problem+json too.
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();

  const tap = deps.responseTap;
  app.addHook('onSend', async (request, reply, payload) => {
    void reply.header('x-request-id', request.id);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!reply.hasHeader(name)) void reply.header(name, value);
    if (tap) {
      if (typeof payload === 'string') tap(payload);
      else if (Buffer.isBuffer(payload)) tap(payload.toString('utf8'));
      const location = reply.getHeader('location');
      if (typeof location === 'string') tap(location);
    }
    return payload;
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  // JSON is the API's only body type (imports.routes.ts reads raw files in its own scope). Without
  // fastify's default text/plain parser, a text/plain body is a 415 rather than a string the
  // schema refuses — and no cross-site "simple" request can carry a body any route reads.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);
  app.addHook('preValidation', async (request) => {
    const found = request.body === undefined ? null : findUnstorableText(request.body);
    if (found) throw new AppError('malformed_body', `${found.path} contains ${found.what}, which cannot be stored; remove it or replace it (U+FFFD is the usual replacement).`, { extensions: { path: found.path } });
  });
  await registerOpenApi(app, deps.version);
  await app.register(fastifyCookie);

  const policy = ownerPolicy(config);
  const recipients = deps.shareRecipients ?? { join: notWired, leave: notWired, resolve: async () => null, ttlSeconds: 0 };
  registerOwnerGate(app, policy, deps.ownerSessions, recipients, config.publicBaseUrl);
  const secureCookie = config.publicBaseUrl?.startsWith('https://') ?? false;
  const oidc = policy.userSignIn ? (deps.oidc ?? null) : null;

  await app.register(healthRoutes, { readiness: deps.readiness });
  await app.register(sessionRoutes, { policy, sessions: deps.ownerSessions, throttle: deps.signInThrottle, secureCookie, users: oidc });
  await app.register(oidcRoutes, { oidc, sessions: deps.ownerSessions, throttle: deps.signInThrottle, publicBaseUrl: config.publicBaseUrl, secureCookie });

  await app.register(pluginRoutes, {
    admin: deps.pluginAdmin,
    policy: { deploymentMode: config.deploymentMode, adminToken: config.adminToken, throttle: deps.signInThrottle },
    ...(deps.connections ? { connectInfo: deps.connections.connectInfo.bind(deps.connections) } : {}),
  });
  await app.register(connectionRoutes, {
    connections: deps.connections ?? { list: notWired, get: notWired, begin: notWired, complete: notWired, setLabel: notWired, disconnect: notWired, call: notWired },
    publicBaseUrl: config.publicBaseUrl,
  });
  await app.register(playlistRoutes, { playlists: deps.playlists ?? { list: notWired, read: notWired }, statuses: deps.workspace ?? { statusesOf: notWired } });
  await app.register(libraryRoutes, { library: deps.library ?? { albums: notWired, artists: notWired } });
  await app.register(libraryWorkspaceRoutes, { workspace: deps.workspace ?? { workspace: notWired, overview: notWired, refresh: notWired, join: notWired, split: notWired, diff: notWired, resolve: notWired } });
  await app.register(generatorRoutes, { generator: deps.generator ?? unwiredGenerator });
  await app.register(organizerRoutes, { organizer: deps.organizer ?? { playlists: notWired, duplicates: notWired, preflight: notWired, createJob: notWired, job: notWired, jobs: notWired, retry: notWired, undo: notWired } });
  await app.register(snapshotRoutes, { snapshots: deps.snapshots ?? unwiredSnapshots(config.snapshotLimits), ...(deps.userLimits ? { admitSnapshot: (ownerId: string) => deps.userLimits!.admitSnapshot(ownerId) } : {}) });
  await app.register(syncRoutes, { sync: deps.sync ?? unavailableSync() });
  await app.register(demoRoutes, { demo: deps.demo ?? null });
  await app.register(migrationRoutes, { migrations: deps.migrations ? { ...deps.migrations, reportBatchSize: config.migrationReportBatchSize } : unavailableMigrations() });

  await app.register(importRoutes, { imports: deps.imports ?? unavailableImports(config.imports) });
  await app.register(exportRoutes, { exports: deps.exports ?? unavailableExports() });
  await app.register(shareRoutes, { shares: deps.shares ?? unavailableShares(config.shares), publicBaseUrl: config.publicBaseUrl });
  const imports = deps.imports;
  await app.register(shareRecipientRoutes, {
    recipients,
    copyShare: imports ? (ownerId, shareUrl, requestOrigin) => imports.preview.previewUrl(ownerId, shareUrl, { requestOrigin }) : notWired,
    publicBaseUrl: config.publicBaseUrl,
    secureCookie,
  });
  await app.register(openPlaylistRoutes, { openPlaylists: deps.openPlaylists ?? unavailableOpenPlaylists(), importBodyLimit: config.imports.maxBytes });

  await app.register(schemaRoutes, { schemaBaseUrl: config.schemaBaseUrl });

  app.get('/openapi.json', { schema: { hide: true } }, async () => openApiDocument(app));
  await registerUi(app, deps.uiDistDir);
  await app.ready();
  return app;
}
