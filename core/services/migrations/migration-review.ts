import type { Track } from '@opl/plugin-sdk';
import type { ConnectionService } from '../connections/connection.service.ts';
import type { MatchService } from '../matching/index.ts';
import { decisionKey, decisionScopes, type CandidateView } from './item-matcher.ts';
import { selectFilteredItems } from './item-filters.ts';
import { MigrationError } from './migration-error.ts';
import { applyReview, countItemsWithStatus, requeueJob, selectItem, upsertDecision } from './migration-jobs.sql.ts';
import { SKIPPED_IN_REVIEW } from './migration-outcome.ts';
import type { MigrationStore } from './migration-store.ts';
import { itemView, type ItemView, type JobRow } from './migration-views.ts';

/**
 * Review of a migration's uncertain matches: a decision per item (approve the suggestion or a
 * corrected candidate, or skip), many at once, and free-text searches on the target for a
 * correction. Decisions are remembered apart from the job and teach the identity graph; the last
 * one puts the job back in the queue.
 */

export interface ReviewInput {
  action: 'approve' | 'skip';
  /** approve: another candidate's URI (a correction); absent ⇒ the suggested match. */
  target_uri?: string | null;
}

/** A target entity found by a reviewer's search (see searchTarget). */
export type SearchCandidate = Omit<CandidateView, 'score' | 'reason' | 'entity'>;

/** Results of a reviewer's search on the target. */
const SEARCH_LIMIT = 10;

export interface MigrationReviewOptions {
  store: MigrationStore;
  connections: Pick<ConnectionService, 'call'>;
  matching: Pick<MatchService, 'confirm' | 'deny'>;
  enqueue(jobId: string): Promise<void>;
  /** The owner's job with its detail (refused once the detail has expired). */
  detailedJob(ownerId: string, jobId: string): Promise<JobRow>;
}

export class MigrationReview {
  readonly #o: MigrationReviewOptions;

  constructor(options: MigrationReviewOptions) {
    this.#o = options;
  }

  /**
   * A review decision on one item: approve the suggestion or another candidate (a correction), or
   * skip. Accepted decisions are remembered apart from the job (they survive retention) and teach
   * the identity graph; when the last item is decided, the job goes back to the queue to write.
   */
  async review(ownerId: string, jobId: string, itemId: string, input: ReviewInput): Promise<ItemView> {
    const job = await this.#o.detailedJob(ownerId, jobId);
    const [row] = await this.#o.store.execute(selectItem(jobId, itemId));
    if (!row) throw new MigrationError('not_found', `Migration ${jobId} has no item ${itemId}.`);
    const updated = await this.#decide(job, row, input);
    await this.#resumeIfReviewed(job);
    return updated;
  }

  async reviewMany(ownerId: string, jobId: string, action: 'approve' | 'skip', itemIds: readonly string[]): Promise<ItemView[]> {
    const job = await this.#o.detailedJob(ownerId, jobId);
    const rows = itemIds.length > 0
      ? await Promise.all(itemIds.map(async (id) => (await this.#o.store.execute(selectItem(jobId, id)))[0]))
      : (await this.#o.store.execute(selectFilteredItems(jobId, { status: ['needs_review'] }, {})));
    const missing = itemIds.filter((_, index) => !rows[index]);
    if (missing.length > 0) throw new MigrationError('not_found', `Migration ${jobId} has no item ${missing[0]}.`);
    const updated: ItemView[] = [];
    for (const row of rows) {
      if (String(row!['status']) !== 'needs_review') continue;
      if (action === 'approve' && !row!['target_uri']) continue;
      updated.push(await this.#decide(job, row!, { action }));
    }
    await this.#resumeIfReviewed(job);
    return updated;
  }

  /**
   * Searches the target for an item under review, by free text — for a correction when none of
   * the engine's candidates is right. Answers the target's own results; approving one of them
   * (`target_uri`) validates it on the target again.
   */
  async searchTarget(ownerId: string, jobId: string, itemId: string, text: string): Promise<SearchCandidate[]> {
    const job = await this.#o.detailedJob(ownerId, jobId);
    const [row] = await this.#o.store.execute(selectItem(jobId, itemId));
    if (!row) throw new MigrationError('not_found', `Migration ${jobId} has no item ${itemId}.`);
    if (String(row['status']) !== 'needs_review') throw new MigrationError('migration_state_conflict', `Item ${itemId} is ${String(row['status'])}, not waiting for review.`);
    const provider = job.targetProvider;
    const uriOf = (uris: Record<string, string>) => uris[provider] ?? null;
    switch (String(row['entity_type'])) {
      case 'album': {
        const { candidates } = await this.#o.connections.call(job.ownerId, job.targetAccountId, 'searchAlbums', { query: { title: text, artist: null, upc: null }, limit: SEARCH_LIMIT });
        return candidates.map((album) => ({ id: album.id, uri: uriOf(album.provider_uris), title: album.title, artist: album.artists.join(', '), album: null, duration_s: null }));
      }
      case 'artist': {
        const { candidates } = await this.#o.connections.call(job.ownerId, job.targetAccountId, 'searchArtists', { query: { name: text }, limit: SEARCH_LIMIT });
        return candidates.map((artist) => ({ id: artist.id, uri: uriOf(artist.provider_uris), title: artist.name, artist: artist.name, album: null, duration_s: null }));
      }
      default: {
        const { candidates } = await this.#o.connections.call(job.ownerId, job.targetAccountId, 'searchTracks', { query: { isrc: null, title: null, artist: null, album: null, duration_s: null, text }, mode: 'text', limit: SEARCH_LIMIT });
        return candidates.map((track) => ({ id: track.id, uri: uriOf(track.provider_uris), title: track.title, artist: track.artist, album: track.album, duration_s: track.duration_s }));
      }
    }
  }

  async #decide(job: JobRow, row: Record<string, unknown>, input: ReviewInput): Promise<ItemView> {
    if (String(row['status']) !== 'needs_review') throw new MigrationError('migration_state_conflict', `Item ${String(row['id'])} is ${String(row['status'])}, not waiting for review.`);
    if (!['awaiting_review', 'running', 'queued', 'paused'].includes(job.status)) throw new MigrationError('migration_state_conflict', `Migration ${job.id} is ${job.status}; its items can no longer be reviewed.`);
    const entityType = String(row['entity_type']);
    const metadata = row['source_metadata'] as Record<string, unknown>;
    const candidates = (row['candidates'] as CandidateView[] | null) ?? [];
    const key = decisionKey(job.sourceProvider, entityType, metadata);
    let chosen: { uri: string | null; id: string | null; entity: Record<string, unknown> | null } = { uri: (row['target_uri'] as string | null) ?? null, id: (row['target_id'] as string | null) ?? null, entity: null };
    if (input.action === 'approve') {
      if (input.target_uri) {
        const candidate = candidates.find((entry) => entry.uri === input.target_uri);
        const checked = candidate ? null : await this.#validateOnTarget(job, input.target_uri);
        if (!candidate && !checked) throw new MigrationError('invalid_selection', `${input.target_uri} is not a ${job.targetProvider} ${entityType} this account can use.`);
        chosen = candidate ? { uri: candidate.uri, id: candidate.id, entity: candidate.entity } : { uri: input.target_uri, id: checked!.id, entity: null };
      } else {
        chosen.entity = candidates.find((entry) => entry.uri === chosen.uri)?.entity ?? null;
      }
      if (!chosen.uri) throw new MigrationError('invalid_selection', 'This item has no suggested match: pick a candidate (target_uri) or skip it.');
    }
    const [updated] = await this.#o.store.change(
      job.id,
      applyReview(String(row['id']), {
        status: input.action === 'approve' ? 'matched' : 'skipped',
        action: input.action,
        targetUri: input.action === 'approve' ? chosen.uri : null,
        targetId: input.action === 'approve' ? chosen.id : null,
        confidence: input.action === 'approve' ? 1 : null,
        reason: input.action === 'approve' ? (input.target_uri ? 'Corrected in review.' : 'Approved in review.') : SKIPPED_IN_REVIEW,
      }),
    );
    if (!updated) throw new MigrationError('migration_state_conflict', `Item ${String(row['id'])} was decided meanwhile.`);
    for (const scope of decisionScopes(job.targetAccountId)) {
      await this.#o.store.execute(upsertDecision({ ownerId: job.ownerId, provider: job.targetProvider, scope, accountId: scope === 'provider' ? null : job.targetAccountId, entityType, sourceKey: key, action: input.action, uri: chosen.uri, id: chosen.id }));
    }
    if (entityType === 'track') await this.#teachGraph(job, metadata, input, chosen, row);
    return itemView(updated);
  }

  /** A confirmed track becomes an overlay edge; a skipped suggestion is remembered as a denial. */
  async #teachGraph(job: JobRow, metadata: Record<string, unknown>, input: ReviewInput, chosen: { id: string | null; entity: Record<string, unknown> | null }, row: Record<string, unknown>): Promise<void> {
    const source = metadata as unknown as Track;
    if (input.action === 'approve' && chosen.entity && chosen.id) {
      await this.#o.matching.confirm({ accountId: job.targetAccountId, source, sourceProvider: job.sourceProvider, targetProvider: job.targetProvider, target: chosen.entity as unknown as Track });
    }
    const suggested = row['target_id'] as string | null;
    if (input.action === 'skip' && suggested) {
      await this.#o.matching.deny({ accountId: job.targetAccountId, source, sourceProvider: job.sourceProvider, targetProvider: job.targetProvider, targetTrackId: suggested });
    }
  }

  async #validateOnTarget(job: JobRow, uri: string): Promise<{ id: string | null } | null> {
    try {
      const answer = await this.#o.connections.call(job.ownerId, job.targetAccountId, 'validateUri', { uri });
      return answer.valid ? { id: answer.id ?? null } : null;
    } catch {
      return null;
    }
  }

  async #resumeIfReviewed(job: JobRow): Promise<void> {
    const [left] = await this.#o.store.execute(countItemsWithStatus(job.id, 'needs_review'));
    if (Number(left?.['n'] ?? 0) > 0) return;
    const rows = await this.#o.store.change(job.id, requeueJob(job.id, job.ownerId, ['awaiting_review']));
    if (rows.length > 0) await this.#o.enqueue(job.id);
  }
}
