import { createHash } from 'node:crypto';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ZipArchive } from 'archiver';
import {
  SNAPSHOT_CHECKSUM_MEMBER,
  SNAPSHOT_KIND_ENTITY,
  SNAPSHOT_MANIFEST_MEMBER,
  SNAPSHOT_MANIFEST_SCHEMA_PATH,
  SNAPSHOT_SCHEMA_VERSION,
  SNAPSHOT_SIGNATURE_MEMBER,
  snapshotManifestSchema,
  type SnapshotCollection,
  type SnapshotCollectionKind,
  type SnapshotFailure,
  type SnapshotManifest,
  type SnapshotPlaylist,
  type SnapshotSource,
} from '@opl/plugin-sdk/schemas';
import { credentialLikeText } from './credential-text.ts';
import { signatureMember, type SnapshotSigningKey } from './manifest-signature.ts';
import { DEFAULT_SNAPSHOT_LIMITS } from './snapshot-limits.ts';
import { ItemsDigest, snapshotRecord, type SnapshotItem } from './snapshot-records.ts';

/** The suffix of an archive being written; reconciliation removes what a crash leaves behind. */
export const PARTIAL_SUFFIX = '.partial';

export interface SnapshotWriterOptions {
  /** Where the finished archive goes; until then it is written to `<path>.partial` beside it. */
  readonly path: string;
  readonly snapshotId: string;
  readonly libraryId: string;
  readonly schemaBaseUrl: string;
  readonly startedAt: Date;
  readonly sources: readonly SnapshotSource[];
  /** Stops the writing between items (a cancelled job): the partial file is removed. */
  readonly signal?: AbortSignal;
  /**
   * The largest record line this engine's verifier accepts (`OPL_SNAPSHOT_MAX_RECORD_BYTES`): a
   * larger record is refused here, as its collection's failure, so the archive still verifies.
   */
  readonly recordBytes?: number;
  /** Signs the manifest (`manifest.sig`) when given: the instance's key. */
  readonly signingKey?: SnapshotSigningKey;
}

export interface CollectionToWrite {
  readonly sourceId: string;
  readonly kind: SnapshotCollectionKind;
  readonly sourceCollectionId: string | null;
  readonly name: string;
  readonly playlist: SnapshotPlaylist | null;
  /** The collection's items as the provider gives them; a throw ends the collection (recorded, not fatal). */
  readonly items: AsyncIterable<SnapshotItem>;
  /** A read error as a failure without secrets (its code and a message for the user). */
  readonly describeFailure: (error: unknown) => SnapshotFailure;
}

export interface WrittenSnapshot {
  readonly path: string;
  readonly manifest: SnapshotManifest;
  readonly archiveBytes: number;
  readonly archiveSha256: string;
}

/** Counts and hashes the archive's bytes on their way to the file. */
class ArchiveTap extends Transform {
  readonly hash = createHash('sha256');
  bytes = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}

const GENERIC_FAILURE = 'The collection could not be read from the provider.';

function safeFailure(failure: SnapshotFailure): SnapshotFailure {
  const message = failure.message.slice(0, 2_000);
  return { code: /^[a-z][a-z0-9_]{0,63}$/.test(failure.code) ? failure.code : 'read_failed', message: credentialLikeText(message) ? GENERIC_FAILURE : message };
}

/** Playlist details without opaque metadata, and without any field that looks like a credential. */
function safePlaylist(playlist: SnapshotPlaylist | null, name: string): { playlist: SnapshotPlaylist | null; name: string } {
  if (playlist === null) return { playlist, name: credentialLikeText(name) ? 'Untitled collection' : name };
  let kept: SnapshotPlaylist = { ...playlist, metadata: {} };
  if (credentialLikeText(JSON.stringify(kept))) kept = { ...kept, description: null, photo: null, artwork_uri: null, provider_uris: {} };
  if (credentialLikeText(JSON.stringify(kept))) kept = { ...kept, name: 'Untitled collection', owner_name: null, owner_id: null, id: null };
  return { playlist: kept, name: credentialLikeText(name) ? kept.name : name };
}

const itemsWere = (count: number) => (count === 1 ? '1 item was' : `${count} items were`);

/** The failure naming the items a collection lost to the writer's own checks, or null. */
function leftOut(tooLarge: number, credentialLike: number, recordCap: number): SnapshotFailure | null {
  const credential = credentialLike > 0 ? `${itemsWere(credentialLike)} left out for holding text that looks like a credential.` : '';
  if (tooLarge > 0) {
    const message = `${itemsWere(tooLarge)} left out: each record is larger than the ${recordCap}-byte cap (OPL_SNAPSHOT_MAX_RECORD_BYTES).`;
    return { code: 'record_too_large', message: credential ? `${message} ${credential}` : message };
  }
  return credentialLike > 0 ? { code: 'item_left_out', message: credential } : null;
}

/**
 * Writes a snapshot archive v1 as a stream (SPEC Snapshots rules 2–5): one collection at a time,
 * each item serialized and handed to the ZIP64 archive as it arrives, so memory holds one record
 * however large the library. The archive is a temporary file until `finish` renames it into
 * place: a crash never leaves a half archive under the final name.
 */
export class SnapshotArchiveWriter {
  readonly #options: SnapshotWriterOptions;
  readonly #partialPath: string;
  readonly #handle: FileHandle;
  readonly #archive = new ZipArchive({ forceZip64: true, zlib: { level: 6 } });
  readonly #tap = new ArchiveTap();
  readonly #written: Promise<void>;
  readonly #broken = new AbortController();
  readonly #collections: SnapshotCollection[] = [];

  private constructor(options: SnapshotWriterOptions, partialPath: string, handle: FileHandle) {
    this.#options = options;
    this.#partialPath = partialPath;
    this.#handle = handle;
    // `flush`: the bytes reach the disk before the stream closes the file, so the rename publishes a whole archive.
    const output = handle.createWriteStream({ flush: true });
    const fail = (error: Error) => this.#broken.abort(error);
    output.on('error', fail);
    this.#archive.on('error', fail);
    this.#archive.on('warning', fail);
    this.#archive.pipe(this.#tap).pipe(output);
    this.#written = finished(output);
    this.#written.catch(() => undefined); // its error is `#broken`'s reason
  }

  static async start(options: SnapshotWriterOptions): Promise<SnapshotArchiveWriter> {
    const partialPath = `${options.path}${PARTIAL_SUFFIX}`;
    // Exclusive and private: never through a planted file or link, readable by the engine only.
    const handle = await open(partialPath, 'wx', 0o600);
    return new SnapshotArchiveWriter(options, partialPath, handle);
  }

  #checkRunning(): void {
    this.#options.signal?.throwIfAborted();
    if (this.#broken.signal.aborted) throw this.#broken.signal.reason as Error;
  }

  /** Appends one collection member, reading its items until they end or fail. */
  async addCollection(collection: CollectionToWrite): Promise<SnapshotCollection> {
    this.#checkRunning();
    const member = `collections/${String(this.#collections.length + 1).padStart(4, '0')}.jsonl`;
    const entityType = SNAPSHOT_KIND_ENTITY[collection.kind];
    const stream = new PassThrough({ highWaterMark: 64 * 1024 });
    const entered = this.#entered(member);
    this.#archive.append(stream, { name: member, date: new Date(0) });
    const payload = createHash('sha256');
    const digest = new ItemsDigest();
    let itemCount = 0;
    let payloadBytes = 0;
    let failure: SnapshotFailure | null = null;
    const recordCap = this.#options.recordBytes ?? DEFAULT_SNAPSHOT_LIMITS.recordBytes;
    let tooLarge = 0;
    let credentialLike = 0;
    try {
      for await (const item of collection.items) {
        this.#checkRunning();
        const record = snapshotRecord(entityType, item);
        const line = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
        // What the verifier would refuse is left out here, and said so, rather than written.
        if (line.length - 1 > recordCap) {
          tooLarge += 1;
          continue;
        }
        if (credentialLikeText(line.toString('utf8'))) {
          credentialLike += 1;
          continue;
        }
        payload.update(line);
        digest.add(record);
        payloadBytes += line.length;
        itemCount += 1;
        if (!stream.write(line)) await this.#drained(stream);
      }
    } catch (error) {
      if (this.#options.signal?.aborted || this.#broken.signal.aborted) {
        stream.destroy();
        throw this.#broken.signal.aborted ? (this.#broken.signal.reason as Error) : error;
      }
      failure = safeFailure(collection.describeFailure(error));
    }
    stream.end();
    await this.#unlessBroken(entered);
    const skipped = leftOut(tooLarge, credentialLike, recordCap);
    const { playlist, name } = safePlaylist(collection.playlist, collection.name);
    const status = failure === null ? (skipped === null ? 'complete' : 'partial') : itemCount > 0 || skipped !== null ? 'partial' : 'failed';
    const entry: SnapshotCollection = {
      member,
      source_id: collection.sourceId,
      kind: collection.kind,
      entity_type: entityType,
      source_collection_id: collection.sourceCollectionId,
      name: name.slice(0, 1_000),
      playlist,
      status,
      item_count: itemCount,
      payload_bytes: payloadBytes,
      payload_sha256: payload.digest('hex'),
      items_sha256: digest.hex(),
      failure: failure ?? skipped,
    };
    this.#collections.push(entry);
    return entry;
  }

  /** Writes the manifest and its checksum, closes the archive and moves it to its final name. */
  async finish(completedAt: Date): Promise<WrittenSnapshot> {
    this.#checkRunning();
    const collections = this.#collections;
    const notComplete = collections.filter((collection) => collection.status !== 'complete');
    const key = this.#options.signingKey;
    const manifest = snapshotManifestSchema.parse({
      $schema: `${this.#options.schemaBaseUrl}${SNAPSHOT_MANIFEST_SCHEMA_PATH}`,
      schema_version: SNAPSHOT_SCHEMA_VERSION,
      snapshot_id: this.#options.snapshotId,
      library_id: this.#options.libraryId,
      created_at: completedAt.toISOString(),
      started_at: this.#options.startedAt.toISOString(),
      completed_at: completedAt.toISOString(),
      sources: this.#options.sources.map((source) => ({ ...source, label: credentialLikeText(source.label) ? source.provider : source.label.slice(0, 200) })),
      collections,
      counts: {
        collections: collections.length,
        items: collections.reduce((sum, collection) => sum + collection.item_count, 0),
        partial_collections: collections.filter((collection) => collection.status === 'partial').length,
        failed_collections: collections.filter((collection) => collection.status === 'failed').length,
      },
      partial_failures: notComplete.map((collection) => ({ member: collection.member, source_id: collection.source_id, source_collection_id: collection.source_collection_id, failure: collection.failure! })),
      ...(key ? { signature: { algorithm: 'ed25519', key_id: key.keyId, public_key: key.publicKey } } : {}),
    });
    const text = `${JSON.stringify(manifest, null, 2)}\n`;
    this.#archive.append(text, { name: SNAPSHOT_MANIFEST_MEMBER, date: new Date(0) });
    this.#archive.append(`${createHash('sha256').update(text).digest('hex')}  ${SNAPSHOT_MANIFEST_MEMBER}\n`, { name: SNAPSHOT_CHECKSUM_MEMBER, date: new Date(0) });
    if (key) this.#archive.append(signatureMember(key, Buffer.from(text, 'utf8')), { name: SNAPSHOT_SIGNATURE_MEMBER, date: new Date(0) });
    await this.#unlessBroken(this.#archive.finalize());
    await this.#unlessBroken(this.#written);
    this.#checkRunning();
    await rename(this.#partialPath, this.#options.path);
    return { path: this.#options.path, manifest, archiveBytes: this.#tap.bytes, archiveSha256: this.#tap.hash.digest('hex') };
  }

  /** Stops writing and removes the temporary file. */
  async abort(): Promise<void> {
    this.#archive.abort();
    await this.#handle.close().catch(() => undefined);
    await rm(this.#partialPath, { force: true });
  }

  #entered(member: string): Promise<void> {
    return new Promise((resolve) => {
      const onEntry = (data: { name: string }) => {
        if (data.name !== member) return;
        this.#archive.off('entry', onEntry);
        resolve();
      };
      this.#archive.on('entry', onEntry);
    });
  }

  #drained(stream: PassThrough): Promise<void> {
    return this.#unlessBroken(new Promise((resolve) => stream.once('drain', () => resolve())));
  }

  /** Waits for a step of the archive, unless the archive or its file broke meanwhile. */
  #unlessBroken<T>(step: Promise<T>): Promise<T> {
    const signal = this.#broken.signal;
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<T>((resolve, reject) => {
      const onBroken = () => reject(signal.reason as Error);
      signal.addEventListener('abort', onBroken, { once: true });
      step.then(
        (value) => {
          signal.removeEventListener('abort', onBroken);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onBroken);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }
}
