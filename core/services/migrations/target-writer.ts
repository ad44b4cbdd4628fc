import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { NotFound, RateLimited, type Manifest, type OperationName, type Playlist, type Track } from '@opl/plugin-sdk';
import type { OperationCallInput, OperationResult } from '@opl/plugin-sdk/schemas';
import { eachPage } from '../playlists/playlist-read.service.ts';
import { LeaseLost, type LeaseFence } from './lease-lost.ts';
import { ALREADY_IN_TARGET, DUPLICATE_IN_JOB } from './migration-outcome.ts';
import { classifyFailure, StopRun, uncertainWrite } from './migration-errors.ts';
import {
  markItemsWritten,
  markLedgerObserved,
  noteItems,
  selectObservedLedger,
  selectAcceptedInvisible,
  selectUnconfirmedWrites,
  selectPreviousTargets,
  selectUncertainLedger,
  setCollectionTarget,
  updateItemOutcome,
  updateJobSelection,
  updateLedger,
  type LedgerIntent,
} from './migration-jobs.sql.ts';
import { sameName, songsOverlap } from './migration-preflight.ts';
import type { MigrationStore } from './migration-store.ts';
import type { JobRow } from './migration-views.ts';

/**
 * Phase 4 of a migration: exactly-once writes through the operation ledger. Every write records
 * its intent first, then calls the provider, then records what it observed (target id and
 * position). A write whose outcome is unknown — the call failed ambiguously, or the process died
 * during it — is reconciled by reading the target, never by repeating a non-idempotent insert
 * blindly: what is there is marked written, what is not is tried again. Songs already in the
 * target are skipped with a reason, so nothing is ever added twice.
 */

export type TargetCall = <N extends OperationName>(op: N, input: OperationCallInput<N>) => Promise<OperationResult<N>>;

/** Attempts of one batch after ambiguous failures before the runner takes over. */
const MAX_AMBIGUOUS_ATTEMPTS = 3;
/** Reads of a playlist looking for accepted writes that are not visible yet (see confirmPositions). */
const VISIBILITY_READS = 5;
/** An item's reason when its write was accepted but never seen on the target before the job ended. */
export const NOT_YET_VISIBLE = 'Written, not yet visible on the target: the provider accepted it, but it did not show in the playlist before the migration finished. It was not sent twice.';
const NOT_VISIBLE_LEDGER = 'accepted by the provider; not visible on the target when last read';

export interface WriteCollection {
  /** Source collection id, or `albums` / `artists` for library entities. */
  id: string;
  kind: 'PLAYLIST' | 'LIKED_TRACKS' | 'ALBUMS' | 'ARTISTS';
  name: string;
  description: string | null;
}

interface ItemRow {
  id: string;
  targetUri: string | null;
  position: number | null;
  status: string;
}

const OPERATION: Record<WriteCollection['kind'], 'add_tracks' | 'save_tracks' | 'save_albums' | 'follow_artists'> = {
  PLAYLIST: 'add_tracks',
  LIKED_TRACKS: 'save_tracks',
  ALBUMS: 'save_albums',
  ARTISTS: 'follow_artists',
};

export class TargetWriter {
  readonly #store: MigrationStore;
  readonly #call: TargetCall;
  readonly #manifest: Manifest;
  readonly #job: JobRow;
  readonly #provider: string;

  readonly #visibilityWaitMs: number;

  /** Removes a target track the provider answered NotFound for from the identity graph. */
  readonly #forgetTarget: ((trackId: string) => Promise<unknown>) | null;

  /** Every write is recorded only while this worker holds the job's lease (see `#intend`). */
  readonly #lease: LeaseFence;

  constructor(options: { store: MigrationStore; call: TargetCall; manifest: Manifest; job: JobRow; lease: LeaseFence; visibilityWaitMs?: number; forgetTarget?: (trackId: string) => Promise<unknown> }) {
    this.#forgetTarget = options.forgetTarget ?? null;
    this.#lease = options.lease;
    this.#store = options.store;
    this.#visibilityWaitMs = options.visibilityWaitMs ?? 1_000;
    this.#call = options.call;
    this.#manifest = options.manifest;
    this.#job = options.job;
    this.#provider = options.manifest.provider!.name;
  }

  /**
   * Records the intent of writes before their call, fenced by the lease: a run that stalled past
   * its lease while another worker took the job (or whose job was cancelled) gets no rows and
   * stops here, before calling the provider, instead of writing beside the new holder.
   */
  async #intend(intents: readonly LedgerIntent[]): Promise<Record<string, unknown>[]> {
    const rows = await this.#store.intend(this.#job.id, this.#job.ownerId, intents, this.#lease);
    if (rows.length === 0) throw new LeaseLost(`migration ${this.#job.id} is no longer held by this worker; its writes stop here`);
    return rows;
  }

  get #constraints() {
    return this.#manifest.provider!.write_constraints;
  }

  // --- the target playlist ------------------------------------------------------------------

  /**
   * The target playlist of a source collection: the one this job already created or adopted, one
   * an earlier job wrote the same source to, a same-name playlist sharing songs with the source,
   * or a new one (created under the ledger).
   */
  async ensurePlaylist(collection: WriteCollection, sourceTracks: readonly Track[]): Promise<string> {
    const recorded = this.recordedTarget(collection.id);
    if (recorded) return recorded;
    const [observed] = await this.#store.execute(selectObservedLedger(this.#job.id, 'create_playlist', collection.id));
    const observedId = observed?.['observed_target_id'] as string | null | undefined;
    if (observedId) return this.#remember(collection.id, observedId);

    const uncertain = (await this.#store.execute(selectUncertainLedger(this.#job.id, 'create_playlist'))).filter((row) => (row['intent'] as { collection?: string }).collection === collection.id);
    if (uncertain.length > 0) {
      const adopted = await this.#findByName(collection.name, null);
      const ids = uncertain.map((row) => String(row['id']));
      if (adopted) {
        await this.#store.execute(updateLedger(ids, { state: 'observed', observedTargetId: adopted }));
        return this.#remember(collection.id, adopted);
      }
      await this.#store.execute(updateLedger(ids, { state: 'failed', error: 'not created: the target has no playlist of this name' }));
    }

    for (const row of await this.#store.execute(selectPreviousTargets(this.#job.ownerId, this.#job.targetAccountId, this.#job.sourceAccountId, collection.id))) {
      const id = String(row['target_playlist_id']);
      if (await this.#exists(id)) return this.#remember(collection.id, id);
    }
    const sameNameWithSongs = await this.#findByName(collection.name, sourceTracks);
    if (sameNameWithSongs) return this.#remember(collection.id, sameNameWithSongs);
    return this.#create(collection, uncertain.length);
  }

  /** The target playlist this job created or adopted for a source collection, if any yet. */
  recordedTarget(collectionId: string): string | null {
    const collections = (this.#job.selection['collections'] as { id: string; target_playlist_id?: string | null }[] | undefined) ?? [];
    return collections.find((collection) => collection.id === collectionId)?.target_playlist_id ?? null;
  }

  async #remember(collectionId: string, targetId: string): Promise<string> {
    const collections = ((this.#job.selection['collections'] as { id: string; target_playlist_id?: string | null }[] | undefined) ?? []).map((collection) =>
      collection.id === collectionId ? { ...collection, target_playlist_id: targetId } : collection,
    );
    this.#job.selection = { ...this.#job.selection, collections };
    await this.#store.inJob(this.#job.id, async (execute) => {
      await execute(updateJobSelection(this.#job.id, this.#job.selection));
      await execute(setCollectionTarget(this.#job.id, collectionId, targetId));
    });
    return targetId;
  }

  async #exists(playlistId: string): Promise<boolean> {
    try {
      await this.#call('readPlaylist', { playlist_id: playlistId });
      return true;
    } catch (error) {
      if (error instanceof NotFound) return false;
      throw error;
    }
  }

  /** A target playlist of this name — when `songs` is given, only one that shares a song with them. */
  async #findByName(name: string, songs: readonly Track[] | null): Promise<string | null> {
    const playlists: Playlist[] = [];
    await eachPage(
      (cursor) => this.#call('listPlaylists', { cursor, limit: 50 }),
      (page) => playlists.push(...page.items),
    );
    for (const playlist of playlists) {
      if (!playlist.id || !sameName(playlist.name, name) || playlist.is_owned === false) continue;
      if (songs === null) return playlist.id;
      const tracks = await this.#contents({ id: playlist.id, kind: 'PLAYLIST', name, description: null }, playlist.id);
      if (songsOverlap(songs, tracks.tracks)) return playlist.id;
    }
    return null;
  }

  async #create(collection: WriteCollection, previousAttempts: number): Promise<string> {
    for (let attempt = previousAttempts; ; attempt++) {
      // The key must be new on every attempt, not derived from the attempt count: `previousAttempts`
      // counts only the attempts still uncertain, so after a settled one (a create refused because
      // the connection expired, or one found absent after a crash) the count repeats an earlier
      // key, and the unique key turned a resumable job into a failed one.
      const [ledger] = await this.#intend([
        { itemId: null, operation: 'create_playlist', intent: { collection: collection.id, name: collection.name }, idempotencyKey: `${this.#job.id}:create:${collection.id}:${attempt}:${randomUUID()}` },
      ]);
      const ledgerId = String(ledger!['id']);
      try {
        const maxDescription = this.#constraints.description_max_len;
        const description = collection.description === null ? null : maxDescription === null ? collection.description : collection.description.slice(0, maxDescription);
        const created = await this.#call('createPlaylist', { name: collection.name, description, public: false });
        await this.#store.execute(updateLedger([ledgerId], { state: 'observed', observedTargetId: created.playlist_id }));
        return await this.#remember(collection.id, created.playlist_id);
      } catch (error) {
        if (!uncertainWrite(error) || attempt - previousAttempts + 1 >= MAX_AMBIGUOUS_ATTEMPTS) {
          await this.#store.execute(updateLedger([ledgerId], { state: uncertainWrite(error) ? 'ambiguous' : 'failed', error: errorText(error) }));
          throw new StopRun(classifyFailure(error));
        }
        await this.#store.execute(updateLedger([ledgerId], { state: 'ambiguous', error: errorText(error) }));
        const adopted = await this.#findByName(collection.name, null);
        if (adopted) {
          await this.#store.execute(updateLedger([ledgerId], { state: 'observed', observedTargetId: adopted }));
          return this.#remember(collection.id, adopted);
        }
        await this.#store.execute(updateLedger([ledgerId], { state: 'failed', error: 'not created: the target has no playlist of this name' }));
      }
    }
  }

  // --- what the target holds ----------------------------------------------------------------

  /** The target collection's entries, as provider URIs (and the count, for observed positions). */
  async #contents(collection: WriteCollection, targetId: string | null): Promise<{ uris: Set<string>; count: number; tracks: Track[] }> {
    const uris = new Set<string>();
    const tracks: Track[] = [];
    let count = 0;
    const take = (entities: readonly { provider_uris: Record<string, string>; id: string | null }[]) => {
      for (const entity of entities) {
        count += 1;
        const uri = entity.provider_uris[this.#provider];
        if (uri) uris.add(uri);
      }
    };
    switch (collection.kind) {
      case 'PLAYLIST':
        await eachPage(
          (cursor) => this.#call('listPlaylistItems', { playlist_id: targetId!, cursor, limit: 100 }),
          (page) => {
            tracks.push(...page.items);
            take(page.items);
          },
        );
        break;
      case 'LIKED_TRACKS':
        await eachPage((cursor) => this.#call('listLikedTracks', { cursor, limit: 50 }), (page) => take(page.items));
        break;
      case 'ALBUMS':
        await eachPage((cursor) => this.#call('listSavedAlbums', { cursor, limit: 50 }), (page) => take(page.items));
        break;
      case 'ARTISTS':
        await eachPage((cursor) => this.#call('listFollowedArtists', { cursor, limit: 50 }), (page) => take(page.items));
        break;
    }
    return { uris, count, tracks };
  }

  // --- the writes -----------------------------------------------------------------------------

  /**
   * Writes a collection's matched items to the target. First settles writes left uncertain by an
   * earlier attempt (or a killed process), then skips what the target already holds, then adds
   * the rest in provider-sized batches under the ledger.
   */
  async writeCollection(collection: WriteCollection, targetId: string | null, items: readonly ItemRow[]): Promise<void> {
    const operation = OPERATION[collection.kind];
    const contents = await this.#contents(collection, targetId);
    // `items` was read before the settling: an item it just confirmed as written by an interrupted
    // write of this job is still `matched` here, and its song is of course in the target now. It
    // must stay written — not be relabelled "already in the target" (a skip would report this
    // job's own write as something it did not do).
    const confirmed = await this.#settleUncertain(operation, collection.id, contents.uris, targetId);

    // Songs an earlier job sent here that the provider accepted but never showed (Apple Music's
    // delayed appends): not visible in `contents`, yet sending them again would add them twice.
    const acceptedEarlier =
      collection.kind === 'PLAYLIST' && targetId !== null
        ? new Set((await this.#store.execute(selectAcceptedInvisible(this.#job.ownerId, this.#job.id, OPERATION.PLAYLIST, targetId, NOT_VISIBLE_LEDGER))).map((row) => String(row['uri'])))
        : new Set<string>();

    const toWrite: ItemRow[] = [];
    const planned = new Set<string>();
    const skips: { id: string; reason: string }[] = [];
    for (const item of items) {
      if (item.status !== 'matched' || confirmed.has(item.id)) continue;
      if (!item.targetUri) skips.push({ id: item.id, reason: 'failed:The match has no target URI to write.' });
      else if (contents.uris.has(item.targetUri)) skips.push({ id: item.id, reason: `skipped:${ALREADY_IN_TARGET}; not added twice.` });
      else if (acceptedEarlier.has(item.targetUri)) skips.push({ id: item.id, reason: `skipped:${ALREADY_IN_TARGET}: an earlier migration sent it and the provider accepted it, but it does not show there yet; not added twice.` });
      else if (planned.has(item.targetUri)) skips.push({ id: item.id, reason: `skipped:${DUPLICATE_IN_JOB} of this job in the same target; not added twice.` });
      else {
        planned.add(item.targetUri);
        toWrite.push(item);
      }
    }
    if (skips.length > 0) {
      await this.#store.inJob(this.#job.id, async (execute) => {
        for (const skip of skips) {
          const [status, ...reason] = skip.reason.split(':');
          await execute(updateItemOutcome(skip.id, { status: status!, reason: reason.join(':'), targetPlaylistId: targetId }));
        }
      });
    }

    const batchSize = collection.kind === 'PLAYLIST' ? this.#constraints.max_add_batch : Math.min(this.#constraints.max_add_batch, 50);
    // Liked libraries list the newest first: saving the oldest first keeps the source's order.
    const ordered = collection.kind === 'LIKED_TRACKS' ? [...toWrite].reverse() : toWrite;
    for (let start = 0; start < ordered.length; start += batchSize) {
      await this.#writeBatch(collection, operation, targetId, ordered.slice(start, start + batchSize));
    }
  }

  /**
   * Settles intents whose outcome is unknown: present on the target ⇒ written, absent ⇒ not
   * applied. Returns the ids of the items it marked written.
   */
  async #settleUncertain(operation: string, collectionId: string, present: ReadonlySet<string>, targetId: string | null): Promise<Set<string>> {
    const rows = (await this.#store.execute(selectUncertainLedger(this.#job.id, operation))).filter((row) => (row['intent'] as { collection?: string }).collection === collectionId);
    if (rows.length === 0) return new Set();
    const applied = rows.filter((row) => present.has(String((row['intent'] as { uri: string }).uri)));
    const missing = rows.filter((row) => !present.has(String((row['intent'] as { uri: string }).uri)));
    await this.#store.inJob(this.#job.id, async (execute) => {
      if (applied.length > 0) {
        await execute(markLedgerObserved(applied.map((row) => ({ id: String(row['id']), targetId: null, position: null }))));
        await execute(markItemsWritten(applied.map((row) => ({ id: String(row['item_id']), targetPlaylistId: targetId, reason: 'Written (confirmed by reading the target after an interrupted write).' }))));
      }
      if (missing.length > 0) await execute(updateLedger(missing.map((row) => String(row['id'])), { state: 'failed', error: 'not applied: absent from the target when reconciled' }));
    });
    return new Set(applied.map((row) => String(row['item_id'])));
  }

  async #writeBatch(collection: WriteCollection, operation: string, targetId: string | null, batch: readonly ItemRow[]): Promise<number> {
    for (let attempt = 0; ; attempt++) {
      const intents: LedgerIntent[] = batch.map((item) => ({
        itemId: item.id,
        operation,
        intent: { collection: collection.id, target_playlist_id: targetId, uri: item.targetUri, position: item.position },
        idempotencyKey: `${this.#job.id}:${item.id}:${operation}:${randomUUID()}`,
      }));
      const ledger = await this.#intend(intents);
      const ledgerByItem = new Map(ledger.map((row) => [String(row['item_id']), String(row['id'])]));
      let results: OperationResult<'addTracks'>['results'];
      try {
        results = (await this.#send(collection, targetId, batch)).results;
      } catch (error) {
        const ids = [...ledgerByItem.values()];
        if (!uncertainWrite(error)) {
          await this.#store.execute(updateLedger(ids, { state: 'failed', error: errorText(error) }));
          throw new StopRun(classifyFailure(error));
        }
        await this.#store.execute(updateLedger(ids, { state: 'ambiguous', error: errorText(error) }));
        const contents = await this.#contents(collection, targetId);
        await this.#settleUncertain(operation, collection.id, contents.uris, targetId);
        const remaining = batch.filter((item) => !contents.uris.has(item.targetUri!));
        if (remaining.length === 0) return batch.length;
        if (attempt + 1 >= MAX_AMBIGUOUS_ATTEMPTS) throw new StopRun(classifyFailure(error));
        batch = remaining;
        continue;
      }
      const written: { id: string; targetPlaylistId: string | null; reason: string }[] = [];
      const observed: { id: string; targetId: string | null; position: number | null }[] = [];
      const failed: { item: ItemRow; ledgerId: string; message: string }[] = [];
      // Items the provider refused for pacing (a rate limit, or the daily quota running out mid-batch)
      // were never applied: they stay matched and the run stops to wait, instead of failing them.
      const notSent: { ledgerId: string; message: string }[] = [];
      const missing: string[] = [];
      batch.forEach((item, index) => {
        const result = results[index];
        const ledgerId = ledgerByItem.get(item.id)!;
        if (result && !result.ok && result.error?.type === 'RateLimited') {
          notSent.push({ ledgerId, message: result.error.message });
        } else if (result?.ok) {
          written.push({ id: item.id, targetPlaylistId: targetId, reason: 'Written.' });
          // A position the provider did not report is not guessed: confirmPositions observes it by
          // reading the target (Apple Music accepts appends that show up only later).
          observed.push({ id: ledgerId, targetId: result.target_item_id ?? idOfUri(item.targetUri!), position: result.position ?? null });
        } else if (result?.error?.type === 'NotFound') {
          missing.push(idOfUri(item.targetUri!));
          failed.push({ item, ledgerId, message: `The target no longer has this song (${result.error.message}); it is forgotten as a match, so the next migration matches it again.` });
        } else {
          failed.push({ item, ledgerId, message: result?.error ? `${result.error.type}: ${result.error.message}` : 'The provider did not confirm this write.' });
        }
      });
      for (const trackId of new Set(missing)) await this.#forgetTarget?.(trackId);
      await this.#store.inJob(this.#job.id, async (execute) => {
        if (written.length > 0) {
          await execute(markItemsWritten(written));
          await execute(markLedgerObserved(observed));
        }
        for (const failure of failed) {
          await execute(updateLedger([failure.ledgerId], { state: 'failed', error: failure.message }));
          await execute(updateItemOutcome(failure.item.id, { status: 'failed', reason: failure.message }));
        }
        if (notSent.length > 0) await execute(updateLedger(notSent.map((entry) => entry.ledgerId), { state: 'failed', error: 'not sent: the provider asked to wait' }));
      });
      if (notSent.length > 0) {
        const message = notSent[0]!.message;
        throw new StopRun(classifyFailure(new RateLimited(message, null, RateLimited.parseQuota(message))));
      }
      return written.length;
    }
  }

  /**
   * Observes the target position of every playlist write the provider accepted without saying
   * where it landed, by reading the playlist again — a bounded number of times, waiting longer
   * each time, because some providers (Apple Music) show an accepted append only after a delay.
   * Nothing is ever sent again: a write still not visible after the last read stays written, with
   * a reason that says so. Works from the ledger, so a resumed job finishes the check.
   */
  async confirmPositions(collection: WriteCollection, targetId: string): Promise<void> {
    let unconfirmed = (await this.#store.execute(selectUnconfirmedWrites(this.#job.id, 'add_tracks', collection.id))).map((row) => ({ id: String(row['id']), itemId: String(row['item_id']), uri: String((row['intent'] as { uri: string }).uri) }));
    for (let read = 0; unconfirmed.length > 0 && read < VISIBILITY_READS; read++) {
      if (read > 0) await sleep(this.#visibilityWaitMs * 2 ** (read - 1));
      const positions = await this.#positions(targetId);
      const seen = unconfirmed.filter((row) => positions.has(row.uri));
      if (seen.length > 0) await this.#store.change(this.#job.id, markLedgerObserved(seen.map((row) => ({ id: row.id, targetId: null, position: positions.get(row.uri)! }))));
      unconfirmed = unconfirmed.filter((row) => !positions.has(row.uri));
    }
    if (unconfirmed.length === 0) return;
    await this.#store.inJob(this.#job.id, async (execute) => {
      await execute(updateLedger(unconfirmed.map((row) => row.id), { state: 'observed', error: NOT_VISIBLE_LEDGER }));
      await execute(noteItems(unconfirmed.map((row) => row.itemId), NOT_YET_VISIBLE));
    });
  }

  /** Where each song of the target playlist is (its last occurrence: the newest append). */
  async #positions(targetId: string): Promise<Map<string, number>> {
    const positions = new Map<string, number>();
    let index = 0;
    await eachPage(
      (cursor) => this.#call('listPlaylistItems', { playlist_id: targetId, cursor, limit: 100 }),
      (page) => {
        for (const track of page.items) {
          const uri = track.provider_uris[this.#provider];
          if (uri) positions.set(uri, track.position ?? index);
          index += 1;
        }
      },
    );
    return positions;
  }

  #send(collection: WriteCollection, targetId: string | null, batch: readonly ItemRow[]) {
    const items = batch.map((item) => ({ uri: item.targetUri! }));
    switch (collection.kind) {
      case 'PLAYLIST':
        return this.#call('addTracks', { playlist_id: targetId!, items: items.map((item) => ({ ...item, position: null })) });
      case 'LIKED_TRACKS':
        return this.#call('saveTracks', { items });
      case 'ALBUMS':
        return this.#call('saveAlbums', { items });
      case 'ARTISTS':
        return this.#call('followArtists', { items });
    }
  }
}

function idOfUri(uri: string): string {
  return uri.slice(uri.lastIndexOf(':') + 1);
}

function errorText(error: unknown): string {
  return (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 1_000);
}
