import type { Logger } from '../../logging/logger.ts';
import type { PluginCatalogue } from '../../plugins/plugin-catalogue.service.ts';
import type { SqlExecute } from '../../storage/sql/executors.ts';
import type { ConnectionService } from '../connections/connection.service.ts';
import type { PlaylistReadService } from '../playlists/playlist-read.service.ts';
import type { ProviderOrganizer } from './organizer-preflight.ts';
import { OrganizerRecovery } from './organizer-recovery.ts';
import { ORGANIZER_LEASE_SECONDS, OrganizerRunner, type OrganizerRunnerDeps } from './organizer-runner.ts';
import { OrganizerService } from './organizer.service.ts';

/**
 * Builds the organizer's two sides from the engine's services. What a provider allows comes only
 * from its loaded manifest's `organizer` section, looked up by the account's provider name.
 */
export function createOrganizer(deps: {
  execute: SqlExecute;
  connections: ConnectionService;
  playlists: PlaylistReadService;
  catalogue: Pick<PluginCatalogue, 'providerPlugin'>;
  logger: Logger;
  enqueue: (jobId: string) => Promise<unknown>;
  /** `OPL_ORGANIZER_PREFLIGHT_TTL_SECONDS`. */
  preflightTtlSeconds: number;
  /** Tests of crash recovery: a short lease. */
  leaseSeconds?: number;
  /** The automatic snapshot before destructive work (the snapshot service's `snapshotBeforeDestructive`). */
  snapshotBeforeDestructive?: OrganizerRunnerDeps['snapshotBeforeDestructive'];
}): { service: OrganizerService; runner: OrganizerRunner; recovery: OrganizerRecovery } {
  const leaseSeconds = deps.leaseSeconds ?? ORGANIZER_LEASE_SECONDS;
  const enqueue = async (jobId: string) => {
    await deps.enqueue(jobId);
  };
  const organizerOf = (provider: string): ProviderOrganizer | null => {
    const section = deps.catalogue.providerPlugin(provider)?.provider;
    return section ? { provider: section.name, displayName: section.display_name, section: section.organizer, addsTracks: section.capabilities.includes('ADD_TRACKS') } : null;
  };
  const service = new OrganizerService({
    execute: deps.execute,
    connections: deps.connections,
    playlists: deps.playlists,
    organizerOf,
    enqueue,
    preflightTtlSeconds: deps.preflightTtlSeconds,
  });
  const runner = new OrganizerRunner({
    execute: deps.execute,
    connections: deps.connections,
    playlists: deps.playlists,
    organizerOf,
    logger: deps.logger.child({ component: 'organizer' }),
    invalidate: (ownerId, accountId) => deps.playlists.invalidate(ownerId, accountId),
    leaseSeconds,
    ...(deps.snapshotBeforeDestructive ? { snapshotBeforeDestructive: deps.snapshotBeforeDestructive } : {}),
  });
  const recovery = new OrganizerRecovery({ execute: deps.execute, enqueue, intervalSeconds: leaseSeconds, logger: deps.logger.child({ component: 'organizer-recovery' }) });
  return { service, runner, recovery };
}
