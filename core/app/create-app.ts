import { fileURLToPath } from 'node:url';
import type { Config } from '../config/index.ts';
import { buildHttpServer, type HttpServer } from '../http/http-server.ts';
import { JobQueue } from '../jobs/index.ts';
import { createLogger, type Logger } from '../logging/logger.ts';
import type { ReadinessCheck } from '../services/health/readiness.ts';
import { ExportService } from '../services/exports/index.ts';
import { ImportPreviewService, ImportRecordService } from '../services/imports/index.ts';
import { ConnectionService } from '../services/connections/connection.service.ts';
import { loadProviderClients, type ProviderClients } from '../services/connections/provider-clients.ts';
import { CredentialVault } from '../services/connections/vault/credential-vault.ts';
import { envKeyProvider, fileKeyProvider } from '../services/connections/vault/key-provider.ts';
import { MatchService } from '../services/matching/index.ts';
import { createMigrationEngine, ProgressChannel, runMigrationJob } from '../services/migrations/index.ts';
import { RateLimiter } from '../services/pacing/rate-limiter.ts';
import { sqlExecutors, type SqlExecute } from '../storage/sql/executors.ts';
import { PlaylistReadService } from '../services/playlists/playlist-read.service.ts';
import { LibraryReadService, WorkspaceService } from '../services/library/index.ts';
import { OpenPlaylistsService } from '../services/open-playlists/index.ts';
import { SignInThrottle } from '../services/sign-in/index.ts';
import { OidcSignIn } from '../services/users/index.ts';
import type { CustomFetch } from 'openid-client';
import { OwnerSessionService } from '../services/owner/owner-session.service.ts';
import { PluginAdmin } from '../services/plugins/plugin-admin.service.ts';
import { ShareRecipientService, ShareService } from '../services/shares/index.ts';
import { UserLimits } from '../services/user-limits/index.ts';
import { ProviderLinkReader } from '../services/imports/provider-link-reader.ts';
import { createLocalRegistrySource, type RegistrySource } from '@opl/plugin-sdk/tools';
import type { Dispatcher } from 'undici';
import type { Pacing } from '@opl/plugin-sdk';
import type { SafeFetchPolicy } from '../net/index.ts';
import { PluginHost } from '../plugin-host/index.ts';
import { PluginCatalogue } from '../plugins/plugin-catalogue.service.ts';
import { PluginChangeChannel } from '../plugins/plugin-change-channel.ts';
import { PluginStore } from '../plugins/plugin-store.ts';
import { createHttpsRegistrySource } from '../plugins/registry/https-registry-source.ts';
import { openDatabase, type Database } from '../storage/index.ts';
import type { AppServices } from './app-services.ts';
import { startDemoProviders } from './demo-providers.ts';
import { DemoEditService } from '../services/demo/demo-edits.service.ts';
import { startDemoModel } from './demo-model.ts';
import { ChatModelClient, GENERATION_PROGRESS_CHANNEL, GeneratedDraftSource, GeneratorService } from '../services/generator/index.ts';
import { createOrganizer } from '../services/organizer/organizer-wiring.ts';
import { createSnapshotJob, SnapshotService } from '../services/snapshots/index.ts';
import { SNAPSHOT_PROGRESS_CHANNEL } from '../storage/entities/snapshot.entity.ts';
import { heapProfileEnv, heapProfileFlags } from '../bootstrap/heap-profile.mjs';
import { JOB_CATALOGUE } from './job-catalogue.ts';
import { runOrganizerJob } from '../services/organizer/index.ts';
import { createSyncEngine } from '../services/sync/index.ts';
import { runSyncJob } from '../services/sync/sync.jobs.ts';
import { ENGINE_VERSION } from './version.ts';

export interface AppRoles {
  /** Serve the HTTP API and the UI. */
  http: boolean;
  /** Run job handlers, schedules and queue maintenance. */
  worker: boolean;
}

/** Tests replace parts of the wiring here instead of patching modules. */
export interface AppOverrides {
  logger?: Logger;
  uiDistDir?: string;
  /** Skips applying migrations at start (the database is already migrated). */
  skipMigrations?: boolean;
  workerPollingIntervalSeconds?: number;
  /** Tests of an HTTPS registry pass an agent that trusts their self-signed certificate. */
  registryDispatcher?: Dispatcher;
  /** Tests of URL imports: a resolver they control and test-only fetch hooks (never set in production). */
  importUrlFetch?: Partial<SafeFetchPolicy>;
  /** Host names the plugin sandbox resolves without DNS (fake providers in tests and demos). */
  pluginHostResolver?: Readonly<Record<string, string>>;
  /** Tests with fake providers: real origin → fake base URL, for plugin requests, OAuth calls and redirects. */
  providerOriginOverrides?: Readonly<Record<string, string>>;
  /** Tests: OAuth client registrations instead of OPL_PROVIDER_CLIENTS_FILE. */
  providerClients?: ProviderClients;
  /** Tests: sees every HTTP response body (the suite-wide secret scan). */
  responseTap?: (body: string) => void;
  /** Tests of crash recovery: short migration leases and slices. */
  migrationLeaseSeconds?: number;
  migrationSliceSeconds?: number;
  /** Tests: first wait before a migration reads its target again for writes not visible yet. */
  migrationVisibilityWaitMs?: number;
  /** Tests of organizer crash recovery: a short job lease. */
  organizerLeaseSeconds?: number;
  /** Tests of crash recovery: how often a snapshot job says it is alive (stale after 6 times as long). */
  snapshotHeartbeatSeconds?: number;
  /** Tests of sync and snapshot schedules: the clock every scheduling decision reads (moved by the test). */
  scheduleClock?: () => Date;
  /** Tests: short sync run leases (a stalled worker's run is taken over quickly). */
  syncLeaseSeconds?: number;
  /** Tests of sign-in lockouts: the clock the throttle reads (moved past a lockout by the test). */
  signInClock?: () => Date;
  /** Tests of OIDC sign-in: the fetch the relying party uses (trusts the test provider's certificate). */
  oidcFetch?: CustomFetch;
}

function registrySourceFor(config: Config, dispatcher: Dispatcher | undefined): RegistrySource {
  const { registry } = config.plugins;
  return registry.source === 'https'
    ? createHttpsRegistrySource({ baseUrl: registry.location, ...(dispatcher ? { dispatcher } : {}) })
    : createLocalRegistrySource(registry.location);
}

export interface App {
  readonly services: AppServices;
  /** Present when the app has the http role. */
  readonly http: HttpServer | undefined;
  /** Starts listening (http role) and working (worker role); returns the listening URL, if any. */
  start(): Promise<string | undefined>;
  /** Stops everything in reverse order; safe to call twice. */
  stop(): Promise<void>;
}

const DEFAULT_UI_DIST = fileURLToPath(new URL('../../ui/dist', import.meta.url));

/**
 * Wires one engine process: database (embedded or external), job queue, services, HTTP server.
 * No global singletons: everything hangs off the returned App.
 */
export async function createApp(config: Config, roles: AppRoles, overrides: AppOverrides = {}): Promise<App> {
  const logger = overrides.logger ?? createLogger({ level: config.logLevel });
  const database: Database = await openDatabase(config, logger, { migrate: overrides.skipMigrations !== true });
  const stack: Array<() => Promise<void>> = [() => database.close()];
  const stop = async () => {
    while (stack.length > 0) {
      const step = stack.pop();
      try {
        await step?.();
      } catch (error) {
        logger.error({ err: error }, 'error while stopping');
      }
    }
  };

  try {
    const { execute, transaction } = sqlExecutors(database.orm);
    const jobs = new JobQueue<AppServices>({
      connectionString: database.connectionString,
      logger,
      definitions: JOB_CATALOGUE,
      role: roles.worker ? 'worker' : 'sender',
    });
    await jobs.start();
    stack.push(() => jobs.stop());

    const demo = config.demo ? await startDemoProviders(logger) : null;
    if (demo) stack.push(() => demo.close());
    const originOverrides = { ...demo?.originOverrides, ...overrides.providerOriginOverrides };
    // The limiter reads pacing from the loaded manifests; the catalogue is built just below.
    const rateLimiter: RateLimiter = new RateLimiter({ transaction, pacingFor: (pluginId): Pacing | null => catalogue.manifest(pluginId)?.provider?.pacing ?? null });

    const pluginHost: PluginHost = new PluginHost({
      logger: logger.child({ component: 'plugin-host' }),
      ...(overrides.pluginHostResolver ? { hostResolver: overrides.pluginHostResolver } : {}),
      ...(Object.keys(originOverrides).length > 0 ? { originOverrides } : {}),
      acquire: (permit, request) => rateLimiter.acquire(permit, request ?? null),
      onQuotaExhausted: (event) => rateLimiter.markExhausted(event.pluginId, event.accountId, event.bucket),
      limits: { memoryMb: config.plugins.memoryMb, callTimeoutMs: config.plugins.callTimeoutMs },
      quarantineStrikes: config.plugins.quarantineStrikes,
      childNodeFlags: heapProfileFlags(config.heapProfile),
      childEnv: heapProfileEnv(config.heapProfile),
    });
    await pluginHost.start();
    stack.push(() => pluginHost.close());
    const pluginStore = new PluginStore(execute);
    const catalogue: PluginCatalogue = new PluginCatalogue({
      registry: registrySourceFor(config, overrides.registryDispatcher),
      trustFile: config.plugins.trustFile,
      allowUnsigned: config.plugins.allowUnsigned,
      deploymentMode: config.deploymentMode,
      engineVersion: ENGINE_VERSION,
      store: pluginStore,
      runtime: pluginHost,
      logger: logger.child({ component: 'plugins' }),
    });
    stack.push(() => catalogue.close());
    const changes = new PluginChangeChannel(database.connectionString, logger);
    stack.push(() => changes.close());
    pluginHost.onQuarantine((pluginId, reason) => {
      void catalogue.quarantine(pluginId, reason).then(() => changes.announce(execute));
    });
    await changes.listen(() => void catalogue.refresh());
    await catalogue.refresh();

    const importRecords = new ImportRecordService({ execute, ttlHours: config.imports.ttlHours });
    const keys = config.connections.vaultKey ? envKeyProvider(config.connections.vaultKey, config.connections.vaultPreviousKeys) : await fileKeyProvider(config.connections.vaultKeyFile);
    const vault = new CredentialVault(execute, keys);
    const connections = new ConnectionService({
      execute,
      transaction,
      vault,
      plugins: catalogue,
      host: pluginHost,
      clients: { ...(await loadProviderClients(config.connections.providerClientsFile)), ...overrides.providerClients, ...demo?.clients },
      deploymentMode: config.deploymentMode,
      attemptTtlMinutes: config.connections.authAttemptTtlMinutes,
      originOverrides,
      demoProviders: demo?.providers ?? new Set(),
      logger: logger.child({ component: 'connections' }),
    });
    const playlists = new PlaylistReadService({ execute, connections, capabilitiesOf: (provider) => catalogue.providerPlugin(provider)?.provider?.capabilities ?? [] });
    const library = new LibraryReadService({ connections, capabilitiesOf: (provider) => catalogue.providerPlugin(provider)?.provider?.capabilities ?? [] });
    const shares = new ShareService({ execute, imports: importRecords, playlists, connections, limits: config.shares, schemaBaseUrl: config.schemaBaseUrl });
    // Hosted mode serves many users: each has limits (a self-hosted owner has none).
    const userLimits = config.deploymentMode === 'hosted' ? new UserLimits({ limits: config.userLimits, execute, transaction }) : null;
    const importPreview = new ImportPreviewService({
      ...(userLimits ? { admitBytes: (ownerId: string, bytes: number) => userLimits.admitImport(ownerId, bytes) } : {}),
      records: importRecords,
      plugins: { call: (pluginId, op, input) => pluginHost.call(pluginId, op, input), manifests: () => catalogue.manifests() },
      limits: config.imports,
      url: {
        allowedHosts: config.imports.urlAllowedHosts,
        ...(overrides.importUrlFetch ? { fetchOverrides: overrides.importUrlFetch } : {}),
        ...(config.publicBaseUrl ? { publicBaseUrl: config.publicBaseUrl } : {}),
        // A link names a playlist the owner may not have in any list: always read it fresh.
        providerLinks: new ProviderLinkReader({
          accounts: (ownerId, provider) => connections.list(ownerId, provider),
          read: async (ownerId, accountId, playlistId) => (await playlists.read(ownerId, accountId, playlistId, true)).playlist,
        }),
        shares,
      },
    });
    stack.push(() => importPreview.close());
    const matching = new MatchService({ execute, transaction, plugins: pluginHost, catalogue });
    const snapshotProgress = new ProgressChannel(database.connectionString, logger.child({ component: 'snapshot-progress' }), SNAPSHOT_PROGRESS_CHANNEL);
    stack.push(() => snapshotProgress.close());
    const snapshots = new SnapshotService({
      execute,
      transaction,
      progress: snapshotProgress,
      // Snapshot schedules read the same injected clock as sync schedules.
      ...(overrides.scheduleClock ? { clock: overrides.scheduleClock } : {}),
      connections,
      playlists,
      enqueue: async (snapshotId) => {
        await jobs.enqueue(createSnapshotJob, { snapshot_id: snapshotId }, { singletonKey: snapshotId });
      },
      root: config.snapshotDir,
      limits: config.snapshotLimits,
      schemaBaseUrl: config.schemaBaseUrl,
      signingKeyFile: config.snapshotSigningKeyFile,
      library,
      logger,
      ...(overrides.snapshotHeartbeatSeconds ? { heartbeatSeconds: overrides.snapshotHeartbeatSeconds } : {}),
    });
    const migrations = createMigrationEngine({
      drafts: new GeneratedDraftSource(execute),
      snapshots,
      config,
      logger,
      execute,
      transaction,
      connectionString: database.connectionString,
      enqueue: async (jobId, startAfter) => {
        await jobs.enqueue(runMigrationJob, { job_id: jobId }, { singletonKey: jobId, ...(startAfter ? { startAfter } : {}) });
      },
      connections,
      playlists,
      imports: importRecords,
      matching,
      catalogue,
      pluginOperations: (pluginId) => pluginHost.loadedPlugins().find((plugin) => plugin.id === pluginId)?.operations ?? [],
      quotaForecast: async (pluginId, accountId) => {
        const forecast = await rateLimiter.forecast(pluginId, accountId, { tracksPerInsert: catalogue.manifest(pluginId)?.provider?.write_constraints.max_add_batch ?? 1 });
        if (!forecast.limited) return null;
        // Each new song costs a search (unless the identity graph knows it) and an insert.
        const fit = Math.min(forecast.tracks_fit_today ?? Number.POSITIVE_INFINITY, forecast.searches_fit_today ?? Number.POSITIVE_INFINITY);
        return { tracksFitToday: Number.isFinite(fit) ? fit : 0, resetsAt: forecast.resets_at };
      },
      ...(userLimits ? { admitJob: (execute: SqlExecute, ownerId: string) => userLimits.admitJob(execute, ownerId) } : {}),
      ...(overrides.migrationLeaseSeconds ? { leaseSeconds: overrides.migrationLeaseSeconds } : {}),
      ...(overrides.migrationSliceSeconds ? { sliceSeconds: overrides.migrationSliceSeconds } : {}),
      ...(overrides.migrationVisibilityWaitMs === undefined ? {} : { visibilityWaitMs: overrides.migrationVisibilityWaitMs }),
    });
    stack.push(() => migrations.progress.close());
    const exportService = new ExportService({
      records: importRecords,
      accounts: { connections, playlists },
      history: { job: (ownerId, jobId) => migrations.service.job(ownerId, jobId), execute },
      plugins: { manifests: () => catalogue.manifests(), serializePlaylist: (pluginId, input, nextSlice, onChunk) => pluginHost.serializePlaylist(pluginId, input, nextSlice, onChunk) },
      maxPlaylists: config.exportMaxPlaylists,
      schemaBaseUrl: config.schemaBaseUrl,
    });
    stack.push(() => exportService.close());
    const demoModel = config.demo && !config.generator ? await startDemoModel(logger) : null;
    if (demoModel) stack.push(() => demoModel.close());
    const modelEndpoint = config.generator ?? (demoModel ? { url: demoModel.url, model: demoModel.model, apiKey: undefined, timeoutMs: 30_000, maxOutputBytes: 256 * 1024 } : null);
    const generationProgress = new ProgressChannel(database.connectionString, logger.child({ component: 'generation-progress' }), GENERATION_PROGRESS_CHANNEL);
    stack.push(() => generationProgress.close());
    const generator = new GeneratorService({
      execute,
      transaction,
      connections,
      catalogue,
      pluginOperations: (pluginId) => pluginHost.loadedPlugins().find((plugin) => plugin.id === pluginId)?.operations ?? [],
      model: modelEndpoint ? new ChatModelClient(modelEndpoint) : null,
      migrations: migrations.service,
      demo: demoModel !== null,
      maxOutputBytes: modelEndpoint?.maxOutputBytes ?? 256 * 1024,
      draftTtlHours: config.generatorDraftTtlHours,
      progress: generationProgress,
      snapshots,
    });
    const organizer = createOrganizer({
      execute,
      connections,
      playlists,
      catalogue,
      logger,
      preflightTtlSeconds: config.organizerPreflightTtlSeconds,
      enqueue: (jobId) => jobs.enqueue(runOrganizerJob, { job_id: jobId }, { singletonKey: jobId }),
      ...(overrides.organizerLeaseSeconds ? { leaseSeconds: overrides.organizerLeaseSeconds } : {}),
      // Before an organizer job's first destructive call, the playlists it touches are snapshotted.
      snapshotBeforeDestructive: (ownerId, accountId, playlistIds, reason, options) => snapshots.snapshotBeforeDestructive(ownerId, accountId, playlistIds, reason, options),
    });
    // Generations running here stop (each leaves its draft in a clear state) before the database goes.
    stack.push(() => generator.close());
    const sync = createSyncEngine({
      execute,
      transaction,
      connectionString: database.connectionString,
      logger,
      migrations,
      connections,
      playlists,
      catalogue,
      enqueueRun: async (runId) => {
        await jobs.enqueue(runSyncJob, { run_id: runId }, { singletonKey: runId });
      },
      ...(overrides.scheduleClock ? { clock: overrides.scheduleClock } : {}),
      ...(overrides.syncLeaseSeconds ? { leaseSeconds: overrides.syncLeaseSeconds } : {}),
      // Before a mirror run removes or moves anything, the target playlist is snapshotted — as the
      // run's plan just read it, so it is not read twice; a snapshot that cannot be taken stops the
      // run before its first write.
      beforeDestructiveMirrorStep: async ({ ownerId, accountId, playlistId, target }) => {
        await snapshots.snapshotBeforeDestructive(ownerId, accountId, [playlistId], 'sync', { readPlaylists: [target] });
      },
    });
    stack.push(() => sync.events.close());
    const services: AppServices = {
      config,
      logger,
      database,
      jobs,
      ownerSessions: new OwnerSessionService({ execute, ownerSecret: config.ownerSecret, ttlHours: config.sessionTtlHours }),
      signInThrottle: new SignInThrottle({ execute, ...(overrides.signInClock ? { clock: overrides.signInClock } : {}) }),
      oidcSignIn: config.oidc ? new OidcSignIn({ config: config.oidc, execute, vault, ...(overrides.oidcFetch ? { fetch: overrides.oidcFetch } : {}) }) : null,
      userLimits,
      imports: { records: importRecords, preview: importPreview },
      shares,
      shareRecipients: new ShareRecipientService({ execute, ttlHours: config.sessionTtlHours }),
      exports: exportService,
      connections,
      playlists,
      library,
      workspace: new WorkspaceService({ execute, transaction, catalogue, connections, playlists }),
      rateLimiter,
      matching,
      migrations,
      generator,
      organizer,
      snapshots,
      sync,
      plugins: {
        host: pluginHost,
        catalogue,
        admin: new PluginAdmin({ config, catalogue, store: pluginStore, announceChange: () => changes.announce(execute) }),
      },
    };
    const readiness: ReadinessCheck[] = [
      { name: 'database', check: () => database.ping() },
      { name: 'job_queue', check: () => jobs.ping() },
      { name: 'plugin_host', check: () => pluginHost.ping() },
    ];

    const http = roles.http
      ? await buildHttpServer({
          config,
          logger,
          version: ENGINE_VERSION,
          readiness,
          ownerSessions: services.ownerSessions,
          signInThrottle: services.signInThrottle,
          oidc: services.oidcSignIn,
          pluginAdmin: services.plugins.admin,
          imports: services.imports,
          exports: services.exports,
          shares: services.shares,
          shareRecipients: services.shareRecipients,
          connections: services.connections,
          playlists: services.playlists,
          library: services.library,
          workspace: services.workspace,
          migrations: services.migrations,
          generator: services.generator,
          organizer: services.organizer.service,
          snapshots: services.snapshots,
          sync: services.sync,
          ...(userLimits ? { userLimits } : {}),
          ...(demo ? { demo: new DemoEditService({ connections, playlists, editors: demo.editors }) } : {}),
          openPlaylists: new OpenPlaylistsService({ connections, playlists, records: importRecords, limits: config.imports, migrations: migrations.service, providers: catalogue }),
          ...(overrides.responseTap ? { responseTap: overrides.responseTap } : {}),
          uiDistDir: overrides.uiDistDir ?? DEFAULT_UI_DIST,
        })
      : undefined;
    if (http) stack.push(() => http.close());

    let stopped = false;
    return {
      services,
      http,
      async start() {
        if (roles.worker) {
          const pollingIntervalSeconds = overrides.workerPollingIntervalSeconds;
          await jobs.startWorkers(services, pollingIntervalSeconds === undefined ? {} : { pollingIntervalSeconds });
          migrations.recovery.start();
          stack.push(async () => migrations.recovery.stop());
          organizer.recovery.start();
          stack.push(async () => organizer.recovery.stop());
          await snapshots.reconcile();
          // The schedule is evaluated at start too, not only at the next minute: catch-up comes first.
          void sync.scheduler.evaluate().catch((error: unknown) => logger.warn({ err: error }, 'the start-up sync evaluation failed'));
          void snapshots.scheduler.evaluate().catch((error: unknown) => logger.warn({ err: error }, 'the start-up snapshot evaluation failed'));
          logger.info({ jobs: JOB_CATALOGUE.map((job) => job.name) }, 'worker started');
        }
        if (!http) return undefined;
        const address = await http.listen({ host: config.host, port: config.port });
        logger.info({ url: address, version: ENGINE_VERSION, mode: config.deploymentMode, database: database.embedded ? 'embedded' : 'external', heap_profile: config.heapProfile }, 'listening');
        return address;
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
