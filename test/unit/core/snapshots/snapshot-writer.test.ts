import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { albumSchema, type SnapshotFailure } from '@opl/plugin-sdk/schemas';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SNAPSHOT_LIMITS,
  readSnapshotCollections,
  SnapshotArchiveWriter,
  type SnapshotVerificationError,
  verifySnapshotArchive,
  type CollectionToWrite,
  type SnapshotItem,
  signingKeyFromSecret,
  type SnapshotSigningKey,
} from '../../../../core/services/snapshots/archive/index.ts';
import nacl from 'tweetnacl';
import { craftZip } from '../../../support/zip-crafter.ts';
import { entriesOf, track, validParts } from './snapshot-parts.ts';

/**
 * The snapshot writer against the verifier: what one writes the other accepts, a collection whose
 * reads fail gives a usable partial archive, opaque data never reaches the file, and a stopped
 * writer leaves nothing behind.
 */

const describeFailure = (error: unknown): SnapshotFailure => ({ code: 'not_found', message: (error as Error).message });

async function* items<T>(list: readonly T[], failAfter?: number): AsyncGenerator<T> {
  for (const [index, item] of list.entries()) {
    if (index === failAfter) throw new Error('The playlist disappeared while it was read.');
    await Promise.resolve();
    yield item;
  }
  if (failAfter !== undefined && failAfter >= list.length) throw new Error('The playlist disappeared while it was read.');
}

function playlistCollection(id: string, list: readonly SnapshotItem[], failAfter?: number): CollectionToWrite {
  return {
    sourceId: 's1',
    kind: 'playlist',
    sourceCollectionId: id,
    name: `Playlist ${id}`,
    playlist: { id, name: `Playlist ${id}`, description: 'road trip', photo: null, track_count: list.length, owner_id: null, owner_name: null, created_at: null, updated_at: null, kind: 'PLAYLIST', artwork_uri: null, snapshot_id: 'abc', is_owned: true, is_followed: null, collaborative: false, provider_uris: {}, metadata: { opaque: { blob: 'x' } } },
    items: items(list, failAfter),
    describeFailure,
  };
}

describe('snapshot archive writer', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'opl-snapshot-writer-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function start(signal?: AbortSignal, recordBytes?: number, signingKey?: SnapshotSigningKey) {
    return SnapshotArchiveWriter.start({
      path: join(dir, 'snap.zip'),
      snapshotId: randomUUID(),
      libraryId: randomUUID(),
      schemaBaseUrl: 'https://open-playlist.org/schemas',
      startedAt: new Date('2026-11-29T08:00:00Z'),
      sources: [{ source_id: 's1', provider: 'spotify', label: 'Spotify (Alex)' }],
      ...(signal ? { signal } : {}),
      ...(recordBytes === undefined ? {} : { recordBytes }),
      ...(signingKey ? { signingKey } : {}),
    });
  }

  it('signs the manifest with the key it is given: the archive verifies, names the key, and the schema accepts the manifest', async () => {
    const key = signingKeyFromSecret(nacl.sign.keyPair().secretKey);
    const writer = await start(undefined, undefined, key);
    await writer.addCollection(playlistCollection('p1', [track(1), track(2)]));
    const written = await writer.finish(new Date());
    expect(written.manifest.signature).toEqual({ algorithm: 'ed25519', key_id: key.keyId, public_key: key.publicKey });
    const verified = await verifySnapshotArchive(written.path, DEFAULT_SNAPSHOT_LIMITS, { trustedKeys: [key.publicKey] });
    expect(verified.signature).toEqual({ key_id: key.keyId, public_key: key.publicKey });
    const other = signingKeyFromSecret(nacl.sign.keyPair().secretKey);
    await expect(verifySnapshotArchive(written.path, DEFAULT_SNAPSHOT_LIMITS, { trustedKeys: [other.publicKey] })).rejects.toMatchObject({ reason: 'untrusted_signature_key' });
    const schema = JSON.parse(await readFile(new URL('../../../../plugin-sdk/schema/export/open-playlist-snapshot-manifest-v1.json', import.meta.url), 'utf8')) as object;
    const validate = new Ajv2020({ allErrors: true, strict: false, formats: { 'date-time': true, uuid: true } }).compile(schema);
    expect(validate(written.manifest), JSON.stringify(validate.errors)).toBe(true);
  });

  it('writes collections that verify, a partial one included, and renames the file only when complete', async () => {
    const writer = await start();
    const tracks = Array.from({ length: 250 }, (_, index) => track(index, { metadata: { raw: 'opaque' }, provider_metadata: { videoType: 'MUSIC_VIDEO_TYPE_ATV', preview_url: 'https://p.example/x.mp3', audio: 'AAAA' } }));
    await writer.addCollection(playlistCollection('p1', tracks));
    expect(await readdir(dir)).toEqual(['snap.zip.partial']);
    const partial = await writer.addCollection(playlistCollection('p2', tracks.slice(0, 5), 2));
    const failed = await writer.addCollection(playlistCollection('p3', tracks.slice(0, 5), 0));
    const albums = await writer.addCollection({
      sourceId: 's1',
      kind: 'saved_albums',
      sourceCollectionId: 'albums',
      name: 'Saved albums',
      playlist: null,
      items: items([albumSchema.parse({ id: 'a1', title: 'Blue', artists: ['Joni'] })]),
      describeFailure,
    });
    expect(partial).toMatchObject({ status: 'partial', item_count: 2, failure: { code: 'not_found' } });
    expect(failed).toMatchObject({ status: 'failed', item_count: 0 });
    expect(albums).toMatchObject({ status: 'complete', entity_type: 'album', item_count: 1 });
    const written = await writer.finish(new Date('2026-11-29T08:01:00Z'));
    expect(await readdir(dir)).toEqual(['snap.zip']);
    const bytes = await readFile(written.path);
    expect(written.archiveBytes).toBe(bytes.length);
    expect(written.archiveSha256).toBe(createHash('sha256').update(bytes).digest('hex'));

    const verified = await verifySnapshotArchive(written.path);
    expect(verified.manifest.counts).toEqual({ collections: 4, items: 253, partial_collections: 1, failed_collections: 1 });
    expect(verified.manifest.partial_failures.map((failure) => failure.member)).toEqual(['collections/0002.jsonl', 'collections/0003.jsonl']);
    expect(verified.manifest.collections[0]!.playlist?.metadata).toEqual({});

    const read: SnapshotItem[] = [];
    await readSnapshotCollections(written.path, ['collections/0001.jsonl'], (_collection, record) => {
      read.push(record);
    });
    expect(read.map((record) => (record as { title: string }).title)).toEqual(tracks.map((item) => item.title));
    // Opaque metadata and audio or preview fields are not kept.
    expect(read[0]).toMatchObject({ metadata: {}, provider_metadata: { videoType: 'MUSIC_VIDEO_TYPE_ATV' } });
    expect(Object.keys((read[0] as { provider_metadata: object }).provider_metadata)).toEqual(['videoType']);
  });

  it('publishes a manifest the generated JSON Schema accepts', async () => {
    const writer = await start();
    await writer.addCollection(playlistCollection('p1', [track(1)]));
    const written = await writer.finish(new Date());
    const schema = JSON.parse(await readFile(new URL('../../../../plugin-sdk/schema/export/open-playlist-snapshot-manifest-v1.json', import.meta.url), 'utf8')) as object;
    const validate = new Ajv2020({ allErrors: true, strict: false, formats: { 'date-time': true, uuid: true } }).compile(schema);
    expect(validate(written.manifest), JSON.stringify(validate.errors)).toBe(true);
  });

  it('leaves out an item that holds credential-like text, and says so', async () => {
    const writer = await start();
    const entry = await writer.addCollection(playlistCollection('p1', [track(1), track(2, { title: 'Bearer abcdefghijklmnopqrstuvwxyz0123' }), track(3)]));
    expect(entry).toMatchObject({ status: 'partial', item_count: 2, failure: { code: 'item_left_out' } });
    const written = await writer.finish(new Date());
    await expect(verifySnapshotArchive(written.path)).resolves.toBeTruthy();
    expect((await readFile(written.path)).includes('abcdefghijklmnopqrstuvwxyz0123')).toBe(false);
  });

  it('refuses a record over the configured record cap as a partial failure of its collection, and the archive verifies under that cap', async () => {
    const cap = 600;
    const writer = await start(undefined, cap);
    const huge = track(2, { title: `Long ${'x'.repeat(cap)}` });
    const entry = await writer.addCollection(playlistCollection('p1', [track(1), huge, track(3)]));
    expect(entry).toMatchObject({ status: 'partial', item_count: 2, failure: { code: 'record_too_large', message: expect.stringContaining(`${cap}-byte cap (OPL_SNAPSHOT_MAX_RECORD_BYTES)`) } });
    const other = await writer.addCollection(playlistCollection('p2', [track(4)]));
    expect(other).toMatchObject({ status: 'complete', failure: null });
    const written = await writer.finish(new Date());
    expect(written.manifest.partial_failures).toEqual([{ member: 'collections/0001.jsonl', source_id: 's1', source_collection_id: 'p1', failure: entry.failure }]);
    // The verifier of an engine with the same cap accepts it: nothing over the cap was written.
    await expect(verifySnapshotArchive(written.path, { ...DEFAULT_SNAPSHOT_LIMITS, recordBytes: cap })).resolves.toBeTruthy();
    const titles: string[] = [];
    await readSnapshotCollections(written.path, ['collections/0001.jsonl'], (_collection, record) => {
      titles.push((record as { title: string }).title);
    });
    expect(titles).toEqual(['Song 1', 'Song 3']);
  });

  it('removes its temporary file when stopped, and never shows a half archive under the final name', async () => {
    const stop = new AbortController();
    const writer = await start(stop.signal);
    await writer.addCollection(playlistCollection('p1', [track(1)]));
    stop.abort(new Error('cancelled'));
    await expect(writer.addCollection(playlistCollection('p2', [track(2)]))).rejects.toThrow('cancelled');
    await writer.abort();
    expect(await readdir(dir)).toEqual([]);
  });

  it('keeps memory bounded on a member that decompresses far beyond the record cap', async () => {
    // One line of 64 MiB: a verifier that held a line or a member would grow by as much.
    const line = Buffer.concat([Buffer.from('{"title":"'), Buffer.alloc(64 * 1024 * 1024, 0x61), Buffer.from('"}\n')]);
    const path = join(dir, 'long-line.zip');
    const parts = validParts(1, 1);
    parts.members[0] = { name: 'collections/0001.jsonl', data: line };
    await writeFile(path, craftZip(entriesOf(parts)));
    const baseline = process.memoryUsage();
    let peak = 0;
    const sample = setInterval(() => {
      const now = process.memoryUsage();
      peak = Math.max(peak, now.heapUsed + now.arrayBuffers - (baseline.heapUsed + baseline.arrayBuffers));
    }, 1);
    try {
      const error = await verifySnapshotArchive(path, { ...DEFAULT_SNAPSHOT_LIMITS, compressionRatio: 1_000_000 }).catch((caught: unknown) => caught);
      expect((error as SnapshotVerificationError).reason).toBe('record_too_large');
    } finally {
      clearInterval(sample);
    }
    expect(peak).toBeLessThan(32 * 1024 * 1024);
  });
});
