import type { Track } from '@opl/plugin-sdk';
import { acceptedKeys, applyAccepted, type AcceptedWrite } from './accepted-writes.ts';
import { isrcKey, missToken, roundDuration, trackKey, uriOf } from './match-answers.ts';
import {
  countConfirmingAccounts,
  deleteDenial,
  deleteEdge,
  deleteTargetEdges,
  fillIdentity,
  GLOBAL_SCOPE,
  insertDenial,
  insertIdentity,
  lockGraphKeys,
  selectConfirmedIdentity,
  selectIdentityByIsrc,
  selectSourceIdentity,
  upsertEdge,
  type EdgeFields,
} from './match-graph.sql.ts';
import { accountScope, linkableId, normalizeIsrc, sourceKeyOf } from './match-keys.ts';
import { CONFIRMED_EDGE_CONFIDENCE, PROMOTION_MIN_ACCOUNTS, READ_EDGE_CONFIDENCE, type ConfirmRequest, type ConfirmResult, type DenyRequest, type GraphTransaction, type SqlExecutor } from './match-types.ts';

export type { AcceptedWrite } from './accepted-writes.ts';

/** Keys a write touched, for cached lookups to know they may be out of date (see `MatchPrefetch`). */
export type OnGraphWrite = (tokens: readonly string[] | 'all') => void;

interface Queued {
  write: AcceptedWrite;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The identity graph's writes. Each runs in one transaction after advisory locks on the ISRCs and
 * provider tracks involved, taken in one statement in sorted order (so two workers cannot
 * deadlock): a second worker resolving the same recording waits, then finds the first one's
 * identity instead of creating a twin.
 *
 * Acceptances are committed in groups, set-based (`applyAccepted`): while one group's transaction
 * runs, the acceptances of concurrent resolutions queue, and the next transaction takes them all
 * (one set of locks, one commit); each caller returns once its own write is committed. With
 * `deferAccepted` (a migration's slice) they are not committed per resolution at all: they wait
 * for `flush`, one transaction for the whole slice. Until then they are only in this process's
 * memory, so every other write of this writer, and every database read of its match service
 * (`pending`), flushes them first: what is read is what writing at once would have given. A crash
 * loses them, and costs the next migration of those songs a search, nothing else.
 */
export class GraphWriter {
  readonly #transaction: GraphTransaction;
  readonly #onWrite: OnGraphWrite;
  readonly #deferAccepted: boolean;
  #queue: Queued[] = [];
  #draining = false;
  /** Acceptances waiting for `flush` (`deferAccepted`). */
  #deferred: AcceptedWrite[] = [];

  constructor(transaction: GraphTransaction, onWrite: OnGraphWrite, options: { deferAccepted?: boolean } = {}) {
    this.#transaction = transaction;
    this.#onWrite = onWrite;
    this.#deferAccepted = options.deferAccepted ?? false;
  }

  /** Whether acceptances wait for `flush` (a read of the graph must flush first to see them). */
  get pending(): boolean {
    return this.#deferred.length > 0;
  }

  /** Commits the deferred acceptances in one transaction (nothing to do without any). */
  async flush(): Promise<void> {
    if (this.#deferred.length === 0) return;
    const writes = this.#deferred;
    this.#deferred = [];
    await this.#write(
      writes.flatMap((write) => acceptedKeys(write)),
      (execute) => applyAccepted(execute, writes),
    );
  }

  /** Records what a read of `provider` tells the graph: tracks with an ISRC and an id. */
  async recordReadTracks(provider: string, tracks: readonly Track[]): Promise<number> {
    await this.flush();
    let recorded = 0;
    for (const track of tracks) {
      const id = linkableId(track);
      const isrc = normalizeIsrc(track.isrc);
      if (!id || !isrc) continue;
      await this.#write([isrcKey(isrc), trackKey(provider, id)], async (execute) => {
        const identity = await identityForIsrc(execute, isrc, track);
        await execute(upsertEdge({ identityId: identity.id, provider, providerTrackId: id, providerUri: uriOf(track, provider), confidence: READ_EDGE_CONFIDENCE, source: 'isrc_exact', scope: GLOBAL_SCOPE }));
      });
      this.#onWrite([isrcKey(isrc), trackKey(provider, id)]);
      recorded += 1;
    }
    return recorded;
  }

  /** Records a search's acceptance (see `AcceptedWrite`); resolves once it is committed, or at once when deferred. */
  recordAccepted(write: AcceptedWrite): Promise<void> {
    if (this.#deferAccepted) {
      this.#deferred.push(write);
      // Read-ahead answers about these keys are out of date from now on: their reads go to the
      // database, and flush this write first.
      this.#onWrite([...acceptedKeys(write), missToken(write.missKey)]);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ write, resolve, reject });
      if (!this.#draining) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      while (this.#queue.length > 0) {
        const group = this.#queue.splice(0, this.#queue.length);
        try {
          await this.#write(
            group.flatMap(({ write }) => acceptedKeys(write)),
            (execute) => applyAccepted(
              execute,
              group.map(({ write }) => write),
            ),
          );
          this.#onWrite(group.flatMap(({ write }) => [...acceptedKeys(write), missToken(write.missKey)]));
          for (const { resolve } of group) resolve();
        } catch (error) {
          for (const { reject } of group) reject(error);
        }
      }
    } finally {
      this.#draining = false;
    }
  }

  /** A user's confirmation: an overlay edge at once; global only on corroborated evidence. */
  async confirm(request: ConfirmRequest): Promise<ConfirmResult> {
    const { source, sourceProvider, targetProvider, target } = request;
    const targetId = linkableId(target);
    if (!targetId) throw new Error('the confirmed target track has no provider id');
    const scope = accountScope(request.accountId);
    const sourceId = linkableId(source);
    const sourceIsrc = normalizeIsrc(source.isrc);
    const targetIsrc = normalizeIsrc(target.isrc);

    const keys = [trackKey(targetProvider, targetId), ...(sourceId ? [trackKey(sourceProvider, sourceId)] : []), ...(sourceIsrc ? [isrcKey(sourceIsrc)] : []), ...(targetIsrc ? [isrcKey(targetIsrc)] : [])];
    await this.flush();
    try {
      return await this.#write(keys, async (execute) => {
        const { id: identityId } = await identityFor(execute, source, sourceProvider, scope, targetIsrc, { provider: targetProvider, id: targetId });
        await execute(deleteDenial({ scope, sourceProvider, sourceKey: sourceKeyOf(source), targetProvider }, targetId));
        const edge = (provider: string, trackId: string, track: Track, edgeScope: string): EdgeFields => ({
          identityId,
          provider,
          providerTrackId: trackId,
          providerUri: uriOf(track, provider),
          confidence: CONFIRMED_EDGE_CONFIDENCE,
          source: 'user_confirmed',
          scope: edgeScope,
        });
        if (sourceId) await execute(upsertEdge(edge(sourceProvider, sourceId, source, scope)));
        await execute(upsertEdge(edge(targetProvider, targetId, target, scope)));

        const [count] = await execute(countConfirmingAccounts(targetProvider, targetId, identityId));
        const confirmingAccounts = Number(count?.accounts ?? 0);
        const rule = sourceIsrc !== null && sourceIsrc === targetIsrc ? 'isrc_agreement' : confirmingAccounts >= PROMOTION_MIN_ACCOUNTS ? 'independent_confirmations' : null;
        if (rule) {
          if (sourceId) await execute(upsertEdge(edge(sourceProvider, sourceId, source, GLOBAL_SCOPE)));
          await execute(upsertEdge(edge(targetProvider, targetId, target, GLOBAL_SCOPE)));
        }
        return { identityId, promoted: rule !== null, rule, confirmingAccounts };
      });
    } finally {
      this.#onWrite('all');
    }
  }

  /** A user's "not this one": remembered for the account and source; undoes a confirmation of it. */
  async deny(request: DenyRequest): Promise<void> {
    const scope = accountScope(request.accountId);
    const { source, sourceProvider, targetProvider, targetTrackId } = request;
    const sourceId = linkableId(source);
    const sourceIsrc = normalizeIsrc(source.isrc);
    const keys = [trackKey(targetProvider, targetTrackId), ...(sourceId ? [trackKey(sourceProvider, sourceId)] : []), ...(sourceIsrc ? [isrcKey(sourceIsrc)] : [])];
    await this.flush();
    try {
      await this.#write(keys, async (execute) => {
        await execute(insertDenial({ scope, sourceProvider, sourceKey: sourceKeyOf(source), targetProvider }, targetTrackId));
        const [row] = await execute(selectSourceIdentity(sourceProvider, sourceId, sourceIsrc, scope));
        if (row) await execute(deleteEdge(scope, targetProvider, targetTrackId, String(row.identity_id)));
      });
    } finally {
      this.#onWrite('all');
    }
  }

  /** Removes every edge of a target track, in every scope. Returns how many. */
  async forgetTarget(provider: string, providerTrackId: string): Promise<number> {
    await this.flush();
    try {
      return await this.#write([trackKey(provider, providerTrackId)], async (execute) => (await execute(deleteTargetEdges(provider, providerTrackId))).length);
    } finally {
      this.#onWrite([trackKey(provider, providerTrackId)]);
    }
  }

  /** Runs graph writes in one transaction after locking their keys (one statement, sorted). */
  #write<T>(keys: readonly string[], work: (execute: SqlExecutor) => Promise<T>): Promise<T> {
    return this.#transaction(async (execute) => {
      if (keys.length > 0) await execute(lockGraphKeys(keys));
      return work(execute);
    });
  }
}

interface Identity {
  id: string;
  isrc: string | null;
}

/**
 * The identity of a source track (own edge in scope or global, then ISRC), else — for a
 * confirmation — the one other accounts confirmed this pair on, else the target's ISRC identity,
 * else a new one.
 */
async function identityFor(execute: SqlExecutor, source: Track, sourceProvider: string, scope: string, targetIsrc: string | null, confirmed?: { provider: string; id: string }): Promise<Identity> {
  const sourceIsrc = normalizeIsrc(source.isrc);
  const sourceId = linkableId(source);
  let [row] = await execute(selectSourceIdentity(sourceProvider, sourceId, sourceIsrc, scope));
  if (!row && confirmed && sourceId) [row] = await execute(selectConfirmedIdentity(sourceProvider, sourceId, confirmed.provider, confirmed.id));
  if (row) {
    const id = String(row.identity_id);
    const [filled] = await execute(fillIdentity(id, { isrc: sourceIsrc ?? targetIsrc, album: source.album, durationS: roundDuration(source.duration_s) }));
    return { id, isrc: (filled?.isrc as string | null | undefined) ?? null };
  }
  if (targetIsrc) {
    // The source's own ISRC was just looked up above: when the target's is the same, no identity has it.
    if (targetIsrc === sourceIsrc) return createIdentity(execute, source, targetIsrc);
    return identityForIsrc(execute, targetIsrc, source);
  }
  return createIdentity(execute, source, sourceIsrc);
}

async function identityForIsrc(execute: SqlExecutor, isrc: string, track: Track): Promise<Identity> {
  const [row] = await execute(selectIdentityByIsrc(isrc));
  if (row) {
    const id = String(row.id);
    await execute(fillIdentity(id, { album: track.album, durationS: roundDuration(track.duration_s) }));
    return { id, isrc };
  }
  return createIdentity(execute, track, isrc);
}

async function createIdentity(execute: SqlExecutor, track: Track, isrc: string | null): Promise<Identity> {
  const [row] = await execute(insertIdentity({ isrc, title: track.title, artist: track.artist || track.artists.join(', '), album: track.album, durationS: roundDuration(track.duration_s) }));
  return { id: String(row!.id), isrc: (row!.isrc as string | null) ?? null };
}
