import { randomUUID } from 'node:crypto';
import type { SqlExecute } from '../../storage/sql/executors.ts';
import type { ConnectionService } from '../connections/connection.service.ts';
import type { PlaylistReadService } from '../playlists/playlist-read.service.ts';
import { availability, ORGANIZER_ACTIONS, phraseMatches, providerActions, relationOf, type ActionAvailability, type OrganizerAction, type PlaylistRelation } from './organizer-actions.ts';
import { OrganizerError } from './organizer-errors.ts';
import { buildPlan, phraseFor, type Plan, type PlannedPlaylist, type PlannedRemoval, type ProviderOrganizer } from './organizer-preflight.ts';
import { restoreByAppending, restoreOrderOf, type RestoreOrder } from './organizer-restore.ts';
import { scanDuplicates, type DuplicatesRequest, type DuplicatesView } from './organizer-duplicates.ts';
import { confirmOwnership, readFull } from './organizer-reads.ts';
import type { CreateJobRequest, PreflightRequest } from './organizer-request.ts';
import { insertJobWithItems, insertPreflight, type NewItem, resetRetryableItems, selectItems, selectItemsOfJobs, selectJob, selectJobs, selectPreflight } from './organizer.sql.ts';
import { expectedAfterRemoval, sameSequence, sequenceHash, sequenceOf, type SequenceEntry } from './playlist-sequence.ts';

/**
 * The organizer's API side: the account's playlists with what can be done to each, preflights,
 * jobs started from exactly one fresh preflight with the exact typed phrase, job views and retry.
 * The worker side is organizer-runner.ts.
 */

/** How long a preflight may start a job unless configured (`OPL_ORGANIZER_PREFLIGHT_TTL_SECONDS`). */
export const DEFAULT_PREFLIGHT_TTL_SECONDS = 600;

export interface OrganizerServiceDeps {
  readonly execute: SqlExecute;
  readonly connections: Pick<ConnectionService, 'get' | 'call'>;
  readonly playlists: Pick<PlaylistReadService, 'list' | 'read'>;
  readonly organizerOf: (provider: string) => ProviderOrganizer | null;
  readonly enqueue: (jobId: string) => Promise<void>;
  /** Seconds a preflight may start its job; older ones are refused as stale. */
  readonly preflightTtlSeconds?: number;
}

export interface OrganizerPlaylistView {
  id: string;
  name: string;
  kind: string;
  relation: PlaylistRelation;
  owner_name: string | null;
  track_count: number | null;
  actions: Record<OrganizerAction, ActionAvailability>;
}

export interface PreflightView {
  token: string;
  expires_at: string;
  provider: string;
  account_id: string;
  action: OrganizerAction;
  confirmation_phrase: string | null;
  playlists: Omit<PlannedPlaylist, 'baseline' | 'baseline_hash' | 'expected_hash'>[];
}

export interface OrganizerItemView {
  id: string;
  playlist_id: string;
  playlist_name: string | null;
  action: OrganizerAction | 'restore_tracks';
  status: string;
  retryable: boolean;
  attempts: number;
  error_code: string | null;
  error: string | null;
  notes: string[];
  removed_entries: { position: number; uri: string; title: string; artist: string }[] | null;
  completed_at: string | null;
}

export interface OrganizerJobView {
  id: string;
  provider: string;
  account_id: string;
  action: OrganizerAction | 'restore_tracks';
  /** Set on an undo job: the song removal it undoes. */
  undo_of: string | null;
  /** Undo job: `positions` (entries go back where they were) or `appended` (the provider can only add at the end). */
  restore_order: RestoreOrder | null;
  status: string;
  counts: { items: number; succeeded: number; failed: number; pending: number; retryable: number };
  /** Some item failed because the account's connection must be renewed: reconnect, then retry. */
  reconnect_required: boolean;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  items: OrganizerItemView[];
}

const iso = (value: unknown) => (value ? new Date(value as string).toISOString() : null);

export class OrganizerService {
  readonly #deps: OrganizerServiceDeps;

  constructor(deps: OrganizerServiceDeps) {
    this.#deps = deps;
  }

  #provider(provider: string): ProviderOrganizer {
    const found = this.#deps.organizerOf(provider);
    if (!found) throw new OrganizerError('organizer_unsupported', `The ${provider} plugin is not loaded, so the organizer cannot act on this account.`);
    return found;
  }

  async playlists(ownerId: string, accountId: string, refresh: boolean): Promise<{ account_id: string; provider: string; provider_actions: Record<OrganizerAction, ActionAvailability>; playlists: OrganizerPlaylistView[] }> {
    const account = await this.#deps.connections.get(ownerId, accountId);
    const provider = this.#provider(account.provider);
    const list = await this.#deps.playlists.list(ownerId, accountId, refresh);
    return {
      account_id: accountId,
      provider: account.provider,
      provider_actions: providerActions(provider.section),
      playlists: list.playlists.map((playlist) => ({
        id: playlist.id ?? '',
        name: playlist.name,
        kind: playlist.kind,
        relation: relationOf(playlist),
        owner_name: playlist.owner_name,
        track_count: playlist.track_count,
        actions: Object.fromEntries(ORGANIZER_ACTIONS.map((action) => [action, availability(provider.section, provider.displayName, playlist, action)])) as Record<OrganizerAction, ActionAvailability>,
      })),
    };
  }

  /** Read-only: proposes duplicate playlists or entries; never selects, removes or edits. */
  async duplicates(ownerId: string, request: DuplicatesRequest): Promise<DuplicatesView> {
    return scanDuplicates(this.#deps, ownerId, request);
  }

  async preflight(ownerId: string, request: PreflightRequest): Promise<PreflightView> {
    const account = await this.#deps.connections.get(ownerId, request.account_id);
    const provider = this.#provider(account.provider);
    const plan = await buildPlan(this.#deps, ownerId, provider, request);
    const token = randomUUID();
    const phrase = phraseFor(plan);
    const [stored] = await this.#deps.execute(insertPreflight({ id: token, ownerId, provider: account.provider, accountId: request.account_id, action: request.action, plan, phrase, ttlSeconds: this.#deps.preflightTtlSeconds ?? DEFAULT_PREFLIGHT_TTL_SECONDS }));
    return {
      token,
      expires_at: iso(stored!['expires_at'])!,
      provider: account.provider,
      account_id: request.account_id,
      action: request.action,
      confirmation_phrase: phrase,
      playlists: plan.playlists.map(({ baseline: _baseline, baseline_hash: _b, expected_hash: _e, ...view }) => view),
    };
  }

  async createJob(ownerId: string, request: CreateJobRequest): Promise<OrganizerJobView> {
    const [row] = await this.#deps.execute(selectPreflight(ownerId, request.preflight_token));
    if (!row) throw new OrganizerError('not_found', 'No such preflight for this user. Run a preflight first: every organizer job needs one.');
    if (row['job_id']) throw new OrganizerError('organizer_preflight_stale', 'This preflight already started a job. Run a new preflight for another job.', { job_id: row['job_id'] });
    if (row['expired'] === true) throw new OrganizerError('organizer_preflight_stale', 'This preflight has expired. Run a new one: the playlists may have changed since.');
    const plan = row['plan'] as Plan;
    const provider = String(row['provider']);
    const accountId = String(row['account_id']);
    exactSelection(plan, request);
    const phrase = (row['confirmation_phrase'] as string | null) ?? null;
    if (!phraseMatches(phrase, request.confirmation)) {
      throw new OrganizerError('organizer_confirmation_mismatch', `Type exactly “${phrase}” to confirm. Nothing was changed.`, { confirmation_phrase: phrase });
    }
    await this.#stillAsPreflighted(ownerId, accountId, provider, plan);
    const jobId = randomUUID();
    try {
      await this.#deps.execute(
        insertJobWithItems(
          { id: jobId, ownerId, provider, accountId, action: plan.action, preflightId: request.preflight_token, preflight: { ...plan, playlists: plan.playlists.map(({ baseline: _baseline, ...rest }) => rest) } },
          plan.playlists.map((playlist) => ({
            playlistId: playlist.playlist_id,
            playlistName: playlist.name,
            relation: playlist.relation,
            snapshotId: playlist.snapshot_id,
            entries: playlist.removals,
            setVideoIds: plan.identify_by === 'entry_id' && playlist.removals ? playlist.removals.map((removal) => removal.entry_id ?? '') : null,
            baseline: playlist.baseline,
            baselineHash: playlist.baseline_hash,
            expectedHash: playlist.expected_hash,
          })),
        ),
      );
    } catch (error) {
      // Two requests raced for one preflight: the unique preflight id let only one job in.
      if ((error as { code?: string }).code === '23505' || (error as Error).name === 'UniqueConstraintViolationException') throw new OrganizerError('organizer_preflight_stale', 'This preflight already started a job. Run a new preflight for another job.');
      throw error;
    }
    await this.#deps.enqueue(jobId);
    return this.job(ownerId, jobId);
  }

  /** Live re-checks when the job is created: the playlist still has the baseline, ownership still holds. */
  async #stillAsPreflighted(ownerId: string, accountId: string, providerName: string, plan: Plan): Promise<void> {
    const provider = this.#provider(providerName);
    for (const playlist of plan.playlists) {
      if (plan.action === 'remove_tracks') {
        const live = await readFull(this.#deps, ownerId, accountId, playlist.playlist_id);
        if (!live || sequenceHash(sequenceOf(live.tracks, providerName)) !== playlist.baseline_hash) {
          throw new OrganizerError('organizer_preflight_stale', `“${playlist.name}” changed since the preflight. Nothing was removed; run a new preflight on the playlist as it is now.`);
        }
      } else if (plan.action === 'delete_playlist' && provider.section.permanent_delete.available) {
        const ownership = await confirmOwnership(this.#deps, ownerId, accountId, playlist.playlist_id, provider.section.permanent_delete.ownership_check);
        if (ownership.state === 'not_owned') throw new OrganizerError('organizer_preflight_stale', `The ownership of “${playlist.name}” is no longer confirmed (${ownership.evidence}). Nothing was deleted.`);
      }
    }
  }

  async job(ownerId: string, jobId: string): Promise<OrganizerJobView> {
    const [row] = await this.#deps.execute(selectJob(ownerId, jobId));
    if (!row) throw new OrganizerError('not_found', 'No such organizer job.');
    return jobView(row, await this.#deps.execute(selectItems(jobId)));
  }

  async jobs(ownerId: string, limit = 50): Promise<OrganizerJobView[]> {
    // Two statements whatever the number of jobs: the jobs, then all their items at once.
    const rows = await this.#deps.execute(selectJobs(ownerId, limit));
    if (rows.length === 0) return [];
    const itemsByJob = new Map<string, Record<string, unknown>[]>();
    for (const item of await this.#deps.execute(selectItemsOfJobs(ownerId, rows.map((row) => String(row['id']))))) {
      const jobId = String(item['job_id']);
      const list = itemsByJob.get(jobId);
      if (list) list.push(item);
      else itemsByJob.set(jobId, [item]);
    }
    return rows.map((row) => jobView(row, itemsByJob.get(String(row['id'])) ?? []));
  }

  /**
   * Undo of a finished song removal: a new job re-adds the removed entries. Where the provider
   * inserts at a position they go back exactly where they were; where it can only append, they go
   * at the end in their old order, and each item says which entries could not regain their place.
   * Refused when the playlist is no longer exactly the removal's result (an undo never guesses
   * what else changed).
   */
  async undo(ownerId: string, jobId: string): Promise<OrganizerJobView> {
    const [row] = await this.#deps.execute(selectJob(ownerId, jobId));
    if (!row) throw new OrganizerError('not_found', 'No such organizer job.');
    if (row['mode'] !== 'remove_tracks') throw new OrganizerError('organizer_state_conflict', 'Only a song removal can be undone.');
    if (row['status'] !== 'completed' && row['status'] !== 'partial') throw new OrganizerError('organizer_state_conflict', 'Only a finished song removal can be undone.');
    const providerName = String(row['provider']);
    const accountId = String(row['account_id']);
    const provider = this.#provider(providerName);
    const order = restoreOrderOf(provider);
    if (!order) throw new OrganizerError('organizer_unsupported', `${provider.displayName} cannot add songs to a playlist, so the removed entries cannot be put back.`);
    const items = (await this.#deps.execute(selectItems(jobId))).filter((item) => item['status'] === 'succeeded' && Array.isArray(item['baseline']) && Array.isArray(item['entries']));
    if (items.length === 0) throw new OrganizerError('organizer_state_conflict', 'Nothing of this job was removed, so there is nothing to undo.');
    const planned: NewItem[] = [];
    for (const item of items) {
      const original = item['baseline'] as SequenceEntry[];
      const entries = [...(item['entries'] as PlannedRemoval[])].sort((a, b) => a.position - b.position);
      const start = expectedAfterRemoval(original, new Set(entries.map((entry) => entry.position)));
      const live = await readFull(this.#deps, ownerId, accountId, String(item['playlist_id']));
      if (!live || !sameSequence(sequenceOf(live.tracks, providerName), start)) {
        throw new OrganizerError('organizer_preflight_stale', `“${String(item['playlist_name'])}” changed since the removal (or was restored already), so the removed entries cannot be put back exactly as they were. Nothing was changed.`);
      }
      const target = order === 'positions' ? original : restoreByAppending(original, start, entries);
      planned.push({ playlistId: String(item['playlist_id']), playlistName: String(item['playlist_name']), relation: String(item['relation']), snapshotId: null, entries, setVideoIds: null, baseline: target, baselineHash: sequenceHash(start), expectedHash: sequenceHash(target) });
    }
    const undoId = randomUUID();
    await this.#deps.execute(insertJobWithItems({ id: undoId, ownerId, provider: providerName, accountId, action: 'restore_tracks', preflightId: null, preflight: { undo_of: jobId, restore_order: order } }, planned));
    await this.#deps.enqueue(undoId);
    return this.job(ownerId, undoId);
  }

  async retry(ownerId: string, jobId: string): Promise<OrganizerJobView> {
    const current = await this.job(ownerId, jobId);
    if (current.status === 'queued' || current.status === 'running') throw new OrganizerError('organizer_state_conflict', 'The job is still running; retry once it has finished.');
    // A retry before reconnecting would only fail the same items again: say what to do instead.
    const account = await this.#deps.connections.get(ownerId, current.account_id);
    if (account.status === 'reauth_required') {
      throw new OrganizerError('organizer_state_conflict', `The ${account.provider} connection needs to be renewed first: reconnect the account on the Connections page, then retry. Nothing was changed.`, { action: 'reconnect', account_id: current.account_id });
    }
    const reset = await this.#deps.execute(resetRetryableItems(ownerId, jobId));
    if (reset.length === 0) throw new OrganizerError('organizer_state_conflict', 'Nothing to retry: no failed item of this job can be retried (successful items are never run again).');
    await this.#deps.enqueue(jobId);
    return this.job(ownerId, jobId);
  }
}

/** A client that names playlists or entries must name exactly the preflight's. */
function exactSelection(plan: Plan, request: CreateJobRequest): void {
  if (request.playlist_ids !== undefined) {
    const planned = plan.playlists.map((playlist) => playlist.playlist_id).sort();
    const asked = [...request.playlist_ids].sort();
    if (planned.length !== asked.length || planned.some((id, index) => id !== asked[index])) {
      throw new OrganizerError('organizer_selection_mismatch', 'The job names other playlists than its preflight. Run a preflight on exactly the playlists you want to change.');
    }
  }
  if (request.entries !== undefined) {
    const key = (entry: { position: number; uri: string }) => `${entry.position}\u0000${entry.uri}`;
    const planned = plan.playlists.flatMap((playlist) => playlist.removals ?? []).map(key).sort();
    const asked = request.entries.map(key).sort();
    if (planned.length !== asked.length || planned.some((entry, index) => entry !== asked[index])) {
      throw new OrganizerError('organizer_selection_mismatch', 'The job names other entries than its preflight. Run a preflight on exactly the entries you want to remove.');
    }
  }
}

function jobView(row: Record<string, unknown>, itemRows: Record<string, unknown>[]): OrganizerJobView {
  const items: OrganizerItemView[] = itemRows.map((item) => ({
    id: String(item['id']),
    playlist_id: String(item['playlist_id']),
    playlist_name: (item['playlist_name'] as string | null) ?? null,
    action: item['action'] as OrganizerAction | 'restore_tracks',
    status: String(item['status']),
    retryable: item['retryable'] === true,
    attempts: Number(item['attempts']),
    error_code: (item['error_code'] as string | null) ?? null,
    error: (item['error'] as string | null) ?? null,
    notes: (item['notes'] as string[] | null) ?? [],
    removed_entries:
      item['action'] === 'remove_tracks' && item['status'] === 'succeeded'
        ? ((item['entries'] as { position: number; uri: string; title: string; artist: string }[] | null) ?? []).map(({ position, uri, title, artist }) => ({ position, uri, title, artist }))
        : null,
    completed_at: iso(item['completed_at']),
  }));
  const count = (status: string) => items.filter((item) => item.status === status).length;
  return {
    id: String(row['id']),
    provider: String(row['provider']),
    account_id: String(row['account_id']),
    action: row['mode'] as OrganizerAction,
    undo_of: ((row['preflight'] as { undo_of?: string } | null)?.undo_of) ?? null,
    restore_order: row['mode'] === 'restore_tracks' ? ((row['preflight'] as { restore_order?: RestoreOrder } | null)?.restore_order ?? 'positions') : null,
    status: String(row['status']),
    counts: { items: items.length, succeeded: count('succeeded'), failed: count('failed') + count('ambiguous'), pending: count('pending') + count('running'), retryable: items.filter((item) => item.status !== 'succeeded' && item.retryable).length },
    reconnect_required: items.some((item) => item.status === 'failed' && item.retryable && item.error_code === 'auth_expired'),
    created_at: iso(row['created_at'])!,
    started_at: iso(row['started_at']),
    completed_at: iso(row['completed_at']),
    items,
  };
}
