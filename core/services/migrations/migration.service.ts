import { randomUUID } from 'node:crypto';
import type { Manifest } from '@opl/plugin-sdk';
import type { ConnectionService } from '../connections/connection.service.ts';
import type { ImportRecordService } from '../imports/index.ts';
import { claimDraft } from '../generator/generator.sql.ts';
import { claimImportRecord } from '../imports/import-record.sql.ts';
import { isLinkOnly, linksOf, type MatchService } from '../matching/index.ts';
import type { PlaylistReadService } from '../playlists/playlist-read.service.ts';
import { countFilteredItems, selectFilteredItems, type ItemFilter } from './item-filters.ts';
import {
  cancelJob,
  insertJob,
  requeueJob,
  selectCollectionCounts,
  selectItemCounts,
  selectItemCountsOfJobs,
  selectJob,
  selectJobs,
  selectLatestJobCreatedAt,
  selectTargetTracksToday,
} from './migration-jobs.sql.ts';
import { linksForAnotherService, preflightWarnings, sameName, selectionSummary, songsOverlap, unsupportedTargets, type LinksElsewhere, type MigrationWarning, type SelectionSummary } from './migration-preflight.ts';
import { GENERATED_SOURCE, IMPORT_SOURCE, SNAPSHOT_SOURCE, type CreateMigration } from './migration-request.ts';
import { MigrationSources, SelectionError, type GeneratedSourceReader, type LoadedSource, type SnapshotSourceReader } from './migration-source.ts';
import type { SourceLookup } from './source-lookup.ts';
import { PLAYLIST_SNAPSHOTS_KEY, playlistSnapshots } from './playlist-snapshot.ts';
import type { Execute, MigrationStore } from './migration-store.ts';
import { countsFrom, detailExpired, itemView, jobRow, jobView, type ItemView, type JobRow, type JobView } from './migration-views.ts';
import { MigrationError } from './migration-error.ts';
import { MigrationReview, type ReviewInput, type SearchCandidate } from './migration-review.ts';

/**
 * The API side of migrations: preflight and creation, job and item reads, review decisions, and
 * the moves that put a stopped job back in the queue. The worker side is `MigrationRunner`.
 */

/** What a sync run asks `createForSync` for. */
export interface SyncJobInput {
  ownerId: string;
  syncRunId: string;
  sourceProvider: string;
  sourceAccountId: string;
  targetProvider: string;
  targetAccountId: string;
  targetPlaylistId: string;
  strictness: string;
  collection: { id: string; kind: 'PLAYLIST' | 'LIKED_TRACKS'; name: string; description: string | null; total_tracks: number };
  /** Selection keys of the tracks to migrate (entry ids, track ids or `pos:<n>`). */
  trackKeys: string[];
}

/** The sync run lost its lease before its job was recorded: the job is rolled back. */
class SyncClaimLost extends Error {}

export interface PreflightView {
  code: 'migration_warnings' | 'ok';
  message: string;
  summary: SelectionSummary;
  warnings: MigrationWarning[];
  collections: { id: string; name: string; kind: string; tracks: number; selected_tracks: number }[];
}

/** Distinct links of link-only songs a preflight puts to the target's `validateUri` (see `#linksElsewhere`). */
const LINKS_CHECKED = 1_000;
const LINKS_IN_FLIGHT = 8;

export interface QuotaForecaster {
  /** How many more songs the target's provider quota allows today, or null when it has no quota. */
  (pluginId: string, accountId: string): Promise<{ tracksFitToday: number; resetsAt: string | null } | null>;
}

export interface MigrationServiceOptions {
  store: MigrationStore;
  connections: Pick<ConnectionService, 'get' | 'call'>;
  playlists: Pick<PlaylistReadService, 'read' | 'list'>;
  imports: Pick<ImportRecordService, 'get' | 'claimForJob'>;
  drafts: GeneratedSourceReader;
  snapshots: SnapshotSourceReader;
  catalogue: { providerPlugin(provider: string): Manifest | undefined };
  matching: Pick<MatchService, 'confirm' | 'deny'>;
  enqueue(jobId: string): Promise<void>;
  quotaForecast?: QuotaForecaster;
  /** The services whose links the owner's accounts can read (`SourceLookup`): such link-only songs are not warned about. */
  lookups?: Pick<SourceLookup, 'providers'>;
  /**
   * Hosted mode's per-user job limits (`UserLimits.admitJob`): runs in the job's insert
   * transaction, after the new job's own lock, and throws to refuse the job.
   */
  admitJob?: (execute: Execute, ownerId: string) => Promise<void>;
}

/** A job's counts: from its items while they are kept, from the summary once they are gone. */
function countsOf(job: JobRow, itemCounts: readonly Record<string, unknown>[]): ReturnType<typeof countsFrom> {
  if (detailExpired(job) && job.summary?.['counts']) {
    return { counts: job.summary['counts'] as ReturnType<typeof countsFrom>['counts'], entity_counts: (job.summary['entity_counts'] ?? {}) as ReturnType<typeof countsFrom>['entity_counts'] };
  }
  return countsFrom(itemCounts);
}

export class MigrationService {
  readonly #o: MigrationServiceOptions;
  readonly #sources: MigrationSources;
  readonly #review: MigrationReview;

  constructor(options: MigrationServiceOptions) {
    this.#o = options;
    this.#review = new MigrationReview({ ...options, detailedJob: (ownerId, jobId) => this.detailedJob(ownerId, jobId) });
    this.#sources = new MigrationSources({ playlists: options.playlists, connections: options.connections, imports: options.imports, drafts: options.drafts, snapshots: options.snapshots });
  }

  get sources(): MigrationSources {
    return this.#sources;
  }

  // --- preflight and creation ------------------------------------------------------------------

  async preflight(ownerId: string, request: CreateMigration): Promise<PreflightView> {
    const { view } = await this.#check(ownerId, request);
    return view;
  }

  /** Creates and queues a job; 409 (`migration_warnings`) unless the warnings are acknowledged. */
  async create(ownerId: string, request: CreateMigration): Promise<JobView> {
    const { view, source, sourceKind, sourceProvider, sourceAccountId, sourceSnapshotId } = await this.#check(ownerId, request);
    if (view.warnings.length > 0 && !request.acknowledge_warnings) {
      throw new MigrationError('migration_warnings', view.message, { summary: view.summary, warnings: view.warnings });
    }
    const id = randomUUID();
    const collections = source.collections.map((collection) => ({ id: collection.id, kind: collection.kind, name: collection.name, description: collection.description, total_tracks: collection.totalTracks, selected_tracks: collection.tracks.length, target_playlist_id: null }));
    const [row] = await this.#o.store.inJob(id, async (execute) => {
      if (this.#o.admitJob) await this.#o.admitJob(execute, ownerId);
      const rows = await execute(
        insertJob({
          id,
          ownerId,
          sourceProvider,
          sourceAccountId,
          sourceKind,
          sourceSnapshotId,
          targetProvider: request.target_provider,
          targetAccountId: request.target_account_id,
          strictness: request.strictness,
          selection: { request: request.selection, summary: view.summary, collections, [PLAYLIST_SNAPSHOTS_KEY]: playlistSnapshots(source) },
          warnings: view.warnings,
          acknowledgedWarnings: request.acknowledge_warnings ? view.warnings : [],
        }),
      );
      // The import record is queued as the job's source in the same transaction as the job; when
      // it cannot be, the service's claim explains why (and the job is rolled back).
      if (sourceKind === 'import' && (await execute(claimImportRecord(ownerId, request.source_account_id, id))).length === 0) {
        await this.#o.imports.claimForJob(ownerId, request.source_account_id, id);
      }
      // A generated draft is frozen as the job's source in the same transaction; only one job gets it.
      if (sourceKind === 'generated' && (await execute(claimDraft(ownerId, request.source_account_id, id))).length === 0) {
        throw new MigrationError('migration_state_conflict', `The draft ${request.source_account_id} is already confirmed, or has expired.`);
      }
      return rows;
    });
    await this.#o.enqueue(id);
    return jobView(jobRow(row!), countsFrom([]));
  }

  /**
   * A sync run's job: an ordinary provider-source migration (`origin` sync) of the tracks the run
   * selected, into the rule's target collection fixed by id, so the writer neither looks for nor
   * creates another playlist. No preflight: the rule's owner chose this route when making the rule,
   * and its reads would cost provider calls on every run. `claim` runs in the job's own transaction
   * (the sync run records the job there, fenced by its lease); returning false rolls the job back.
   */
  async createForSync(input: SyncJobInput, claim: (execute: Execute, jobId: string) => Promise<boolean>): Promise<string | null> {
    const id = randomUUID();
    const { collection } = input;
    const selection = { request: { playlist_ids: [], tracks: { [collection.id]: input.trackKeys }, saved_album_ids: [], followed_artist_ids: [] }, summary: { playlists: 1, tracks: input.trackKeys.length, saved_albums: 0, followed_artists: 0 }, collections: [{ ...collection, selected_tracks: input.trackKeys.length, target_playlist_id: input.targetPlaylistId }] };
    const created = await this.#o.store.inJob(id, async (execute) => {
      await execute(insertJob({ id, ownerId: input.ownerId, sourceProvider: input.sourceProvider, sourceAccountId: input.sourceAccountId, sourceKind: 'provider', targetProvider: input.targetProvider, targetAccountId: input.targetAccountId, strictness: input.strictness, selection, warnings: [], acknowledgedWarnings: [], syncRunId: input.syncRunId }));
      if (await claim(execute, id)) return true;
      throw new SyncClaimLost();
    }).catch((error: unknown) => {
      if (error instanceof SyncClaimLost) return false;
      throw error;
    });
    if (!created) return null;
    await this.#o.enqueue(id);
    return id;
  }

  async #check(
    ownerId: string,
    request: CreateMigration,
  ): Promise<{ view: PreflightView; source: LoadedSource; sourceKind: 'provider' | 'import' | 'generated' | 'snapshot'; sourceProvider: string; sourceAccountId: string; sourceSnapshotId: string | null }> {
    const restoring = request.source_provider === SNAPSHOT_SOURCE || request.source_snapshot_id !== null;
    const sourceSnapshotId = restoring ? (request.source_snapshot_id ?? request.source_account_id) : null;
    if (restoring && (request.source_provider ?? SNAPSHOT_SOURCE) !== SNAPSHOT_SOURCE) throw new MigrationError('invalid_selection', 'A snapshot restore has source_provider "snapshot" (or none) and the snapshot in source_snapshot_id.');
    if (sourceSnapshotId !== null && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(sourceSnapshotId)) throw new MigrationError('invalid_selection', 'source_snapshot_id must be the id of one of your snapshots.');
    const target = await this.#o.connections.get(ownerId, request.target_account_id);
    if (target.provider !== request.target_provider) throw new MigrationError('invalid_selection', `Account ${request.target_account_id} is a ${target.provider} account, not ${request.target_provider}.`);
    const targetManifest = this.#o.catalogue.providerPlugin(target.provider);
    if (!targetManifest?.provider) throw new MigrationError('unsupported_target_type', `No ${target.provider} plugin is loaded on this instance.`);
    const sourceKind = restoring ? 'snapshot' : request.source_provider === IMPORT_SOURCE ? 'import' : request.source_provider === GENERATED_SOURCE ? 'generated' : 'provider';
    let sourceProvider = sourceKind === 'generated' ? GENERATED_SOURCE : sourceKind === 'snapshot' ? SNAPSHOT_SOURCE : IMPORT_SOURCE;
    let sourceAccountId = request.source_account_id;
    if (sourceKind === 'provider') {
      const account = await this.#o.connections.get(ownerId, request.source_account_id);
      if (request.source_provider !== null && request.source_provider !== account.provider) throw new MigrationError('invalid_selection', `Account ${request.source_account_id} is a ${account.provider} account, not ${request.source_provider}.`);
      if (account.id === target.id) throw new MigrationError('invalid_selection', 'The source and the target are the same account.');
      sourceProvider = account.provider;
    }
    let source: LoadedSource;
    try {
      source = await this.#sources.load({ ownerId, sourceKind, sourceProvider, sourceAccountId: request.source_account_id, sourceSnapshotId }, request.selection);
      // A restore's lineage: every snapshot of one library restores into the same target playlists and reuses its decisions.
      if (sourceKind === 'snapshot') sourceAccountId = `snapshot:${source.lineage ?? ''}`;
    } catch (error) {
      if (error instanceof SelectionError) throw new MigrationError('invalid_selection', error.message, { reason: error.code });
      throw error;
    }
    const refused = unsupportedTargets(source, { displayName: targetManifest.provider.display_name, capabilities: targetManifest.provider.capabilities });
    if (refused.length > 0) throw new MigrationError('unsupported_target_type', refused.map((entry) => entry.message).join(' '), { unsupported: refused });

    const summary = selectionSummary(source);
    const [today] = await this.#o.store.execute(selectTargetTracksToday(ownerId, request.target_account_id));
    const [latest] = await this.#o.store.execute(selectLatestJobCreatedAt(ownerId));
    const secondsSinceLastJob = latest ? (new Date(latest['now'] as string).getTime() - new Date(latest['created_at'] as string).getTime()) / 1000 : null;
    const quota = this.#o.quotaForecast ? await this.#o.quotaForecast(targetManifest.id, request.target_account_id) : null;
    const warnings = preflightWarnings({
      summary,
      targetTracksToday: Number(today?.['n'] ?? 0),
      secondsSinceLastJob,
      conflictingTargets: await this.#conflictingTargets(ownerId, request.target_account_id, source),
      quotaTracksFitToday: quota?.tracksFitToday ?? null,
      quotaResetsAt: quota?.resetsAt ?? null,
      linksElsewhere: { ...(await this.#linksElsewhere(ownerId, target, targetManifest.provider.attributes.search_modes.includes('isrc'), source)), targetName: targetManifest.provider.display_name },
    });
    const view: PreflightView = {
      code: warnings.length > 0 ? 'migration_warnings' : 'ok',
      message: warnings.length > 0 ? 'Review and acknowledge migration warnings before starting.' : 'Ready to start.',
      summary,
      warnings,
      collections: source.collections.map((collection) => ({ id: collection.id, name: collection.name, kind: collection.kind, tracks: collection.totalTracks, selected_tracks: collection.tracks.length })),
    };
    return { view, source, sourceKind, sourceProvider, sourceAccountId, sourceSnapshotId };
  }

  /**
   * Selected songs that are only links the target does not take (`linksForAnotherService`). Their
   * links are put to the target's own `validateUri`, as the match service will put them: a
   * YouTube link is a YouTube Music song too, a Deezer album link is no Deezer song. Links of a
   * service the owner's accounts can read (`SourceLookup`) are not warned about: the run asks. At most
   * `LINKS_CHECKED` distinct links are asked about; past that, a link counts as taken when it is
   * under the target's own key.
   */
  async #linksElsewhere(ownerId: string, target: { id: string; provider: string }, searchesIsrc: boolean, source: LoadedSource): Promise<LinksElsewhere> {
    const tracks = source.collections.flatMap((collection) => collection.tracks).filter((track) => track.is_migratable && isLinkOnly(track, searchesIsrc));
    const asked = [...new Set(tracks.flatMap((track) => linksOf(track, target.provider)))];
    const takes = new Set<string>();
    const owned = new Set(tracks.map((track) => track.provider_uris[target.provider]));
    for (const link of asked.slice(LINKS_CHECKED)) if (owned.has(link)) takes.add(link);
    const checked = asked.slice(0, LINKS_CHECKED);
    // A few questions in flight at once: each is a short round trip to the plugin host.
    for (let start = 0; start < checked.length; start += LINKS_IN_FLIGHT) {
      // A question that fails (the plugin host is restarting) is no answer: such a link is not
      // warned about, and the run decides.
      const answers = await Promise.all(checked.slice(start, start + LINKS_IN_FLIGHT).map((link) => this.#o.connections.call(ownerId, target.id, 'validateUri', { uri: link }).catch(() => 'unknown' as const)));
      answers.forEach((answer, index) => {
        if (answer === 'unknown' || (answer.valid && answer.entity === 'track' && answer.id)) takes.add(checked[start + index]!);
      });
    }
    const readable = tracks.length > 0 && this.#o.lookups ? await this.#o.lookups.providers(ownerId) : new Set<string>();
    return linksForAnotherService(tracks, { provider: target.provider, searchesIsrc, takes, readable });
  }

  /** Same-name playlists on the target that share no song with the selection. */
  async #conflictingTargets(ownerId: string, targetAccountId: string, source: LoadedSource): Promise<{ collection: string; targetPlaylistId: string }[]> {
    const playlists = source.collections.filter((collection) => collection.kind === 'PLAYLIST');
    if (playlists.length === 0) return [];
    const { playlists: targets } = await this.#o.playlists.list(ownerId, targetAccountId);
    const conflicts: { collection: string; targetPlaylistId: string }[] = [];
    for (const collection of playlists) {
      for (const target of targets) {
        if (!target.id || target.kind !== 'PLAYLIST' || !sameName(target.name, collection.name)) continue;
        const { playlist } = await this.#o.playlists.read(ownerId, targetAccountId, target.id);
        if (playlist.tracks.length > 0 && !songsOverlap(collection.tracks, playlist.tracks)) conflicts.push({ collection: collection.name, targetPlaylistId: target.id });
      }
    }
    return conflicts;
  }

  // --- reads ----------------------------------------------------------------------------------

  async job(ownerId: string, jobId: string): Promise<JobRow> {
    const [row] = await this.#o.store.execute(selectJob(jobId, ownerId));
    if (!row) throw new MigrationError('not_found', `No migration ${jobId} exists for this owner.`);
    return jobRow(row);
  }

  async get(ownerId: string, jobId: string): Promise<JobView> {
    const job = await this.job(ownerId, jobId);
    return jobView(job, await this.#counts(job));
  }

  async #counts(job: JobRow) {
    return countsOf(job, detailExpired(job) ? [] : await this.#o.store.execute(selectItemCounts(job.id)));
  }

  async list(ownerId: string, limit: number, offset: number): Promise<JobView[]> {
    const jobs = (await this.#o.store.execute(selectJobs(ownerId, limit, offset))).map(jobRow);
    const counted = jobs.length === 0 ? [] : await this.#o.store.execute(selectItemCountsOfJobs(jobs.map((job) => job.id)));
    return jobs.map((job) => jobView(job, countsOf(job, counted.filter((row) => row['job_id'] === job.id))));
  }

  /** A job whose item detail is still kept (404 for another owner's, 410 after the deadline). */
  async detailedJob(ownerId: string, jobId: string): Promise<JobRow> {
    const job = await this.job(ownerId, jobId);
    if (detailExpired(job)) throw new MigrationError('migration_detail_expired', `The item detail of migration ${jobId} was kept until ${job.detailExpiresAt ?? job.detailPurgedAt}; its summary remains.`);
    return job;
  }

  async items(ownerId: string, jobId: string, filter: ItemFilter, paging: { limit?: number; offset?: number }): Promise<{ items: ItemView[]; total: number }> {
    await this.detailedJob(ownerId, jobId);
    const [count] = await this.#o.store.execute(countFilteredItems(jobId, filter));
    const rows = await this.#o.store.execute(selectFilteredItems(jobId, filter, paging));
    return { items: rows.map(itemView), total: Number(count?.['n'] ?? 0) };
  }

  /** Per-collection counts of a job (the statistics page). */
  async collectionStats(ownerId: string, jobId: string) {
    const job = await this.job(ownerId, jobId);
    if (detailExpired(job)) return (job.summary?.['collections'] as unknown[]) ?? [];
    const byCollection = new Map<string, { source_playlist_id: string; source_playlist_name: string | null; target_playlist_id: string | null; counts: Record<string, number> }>();
    for (const row of await this.#o.store.execute(selectCollectionCounts(jobId))) {
      const id = String(row['source_playlist_id']);
      const entry = byCollection.get(id) ?? { source_playlist_id: id, source_playlist_name: (row['source_playlist_name'] as string | null) ?? null, target_playlist_id: (row['target_playlist_id'] as string | null) ?? null, counts: { total: 0 } };
      entry.counts[String(row['status'])] = Number(row['n']);
      entry.counts['total']! += Number(row['n']);
      byCollection.set(id, entry);
    }
    return [...byCollection.values()];
  }

  /** Totals over the owner's migrations: item counts (from the summary once detail is gone), outcomes, selection sizes. */
  async aggregateStats(ownerId: string, sourceProvider: string | null, targetProvider: string | null) {
    const jobs = await this.#o.store.execute({
      text: `select id, outcome, summary, selection, detail_purged_at from migration_job where owner_id = ?
             and (?::text is null or source_provider = ?) and (?::text is null or target_provider = ?) order by created_at desc limit 10000`,
      values: [ownerId, sourceProvider, sourceProvider, targetProvider, targetProvider],
    });
    const live = await this.#o.store.execute({
      text: `select i.entity_type, i.status, count(*)::int as n from job_item i join migration_job j on j.id = i.job_id where j.owner_id = ?
             and (?::text is null or j.source_provider = ?) and (?::text is null or j.target_provider = ?) group by i.entity_type, i.status`,
      values: [ownerId, sourceProvider, sourceProvider, targetProvider, targetProvider],
    });
    const total = countsFrom(live);
    const outcomes: Record<string, number> = {};
    let playlists = 0;
    let albums = 0;
    let artists = 0;
    for (const row of jobs) {
      const outcome = String(row['outcome']);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      const selection = (typeof row['selection'] === 'string' ? JSON.parse(row['selection']) : row['selection']) as { summary?: Record<string, number> };
      playlists += selection.summary?.['playlists'] ?? 0;
      albums += selection.summary?.['saved_albums'] ?? 0;
      artists += selection.summary?.['followed_artists'] ?? 0;
      const summary = (typeof row['summary'] === 'string' ? JSON.parse(row['summary']) : row['summary']) as { counts?: Record<string, number>; entity_counts?: Record<string, Record<string, number>> } | null;
      if (row['detail_purged_at'] === null || !summary?.counts) continue;
      for (const [key, value] of Object.entries(summary.counts)) (total.counts as unknown as Record<string, number>)[key] = ((total.counts as unknown as Record<string, number>)[key] ?? 0) + value;
      for (const [entity, counts] of Object.entries(summary.entity_counts ?? {})) {
        const into = (total.entity_counts[entity] ??= { total: 0, pending: 0, matched: 0, needs_review: 0, written: 0, skipped: 0, failed: 0 }) as unknown as Record<string, number>;
        for (const [key, value] of Object.entries(counts)) into[key] = (into[key] ?? 0) + value;
      }
    }
    return {
      source_provider: sourceProvider,
      target_provider: targetProvider,
      total_migrations: jobs.length,
      total_playlists: playlists,
      total_saved_albums: albums,
      total_followed_artists: artists,
      empty: jobs.length === 0,
      outcomes,
      ...total,
    };
  }

  // --- review -----------------------------------------------------------------------------------

  /** A review decision on one item (see `MigrationReview.review`). */
  review(ownerId: string, jobId: string, itemId: string, input: ReviewInput): Promise<ItemView> {
    return this.#review.review(ownerId, jobId, itemId, input);
  }

  reviewMany(ownerId: string, jobId: string, action: 'approve' | 'skip', itemIds: readonly string[]): Promise<ItemView[]> {
    return this.#review.reviewMany(ownerId, jobId, action, itemIds);
  }

  /** Searches the target by free text for an item under review (see `MigrationReview.searchTarget`). */
  searchTarget(ownerId: string, jobId: string, itemId: string, text: string): Promise<SearchCandidate[]> {
    return this.#review.searchTarget(ownerId, jobId, itemId, text);
  }

  // --- control ------------------------------------------------------------------------------

  /** Puts a paused job (the account was reconnected, the quota reset) back in the queue. */
  async resume(ownerId: string, jobId: string): Promise<JobView> {
    const job = await this.job(ownerId, jobId);
    const rows = await this.#o.store.change(jobId, requeueJob(jobId, ownerId, ['paused']));
    if (rows.length === 0) throw new MigrationError('migration_state_conflict', `Migration ${jobId} is ${job.status}; only a paused migration can be resumed.`);
    await this.#o.enqueue(jobId);
    return this.get(ownerId, jobId);
  }

  async cancel(ownerId: string, jobId: string): Promise<JobView> {
    const job = await this.job(ownerId, jobId);
    const rows = await this.#o.store.change(jobId, cancelJob(jobId, ownerId));
    if (rows.length === 0) throw new MigrationError('migration_state_conflict', `Migration ${jobId} is ${job.status}; it can no longer be cancelled.`);
    return this.get(ownerId, jobId);
  }
}
