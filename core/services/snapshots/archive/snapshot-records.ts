import { createHash, type Hash } from 'node:crypto';
import { canonicalJson } from '@opl/plugin-sdk/tools';
import { snapshotRecordSchemas, type SnapshotEntityType } from '@opl/plugin-sdk/schemas';
import type { Album, Artist, Track } from '@opl/plugin-sdk/schemas';

/**
 * One collection record: a universal-model track, album or artist, as a snapshot keeps it (SPEC
 * Snapshots rule 5): opaque `metadata` is dropped, and of `provider_metadata` only plain values
 * that matching may use are kept — nothing named like audio, previews, streams or credentials.
 */
export type SnapshotItem = Track | Album | Artist;

const DROPPED_PROVIDER_KEYS = /preview|audio|stream|sample|clip|token|secret|cookie|auth|signature|session|key/i;

function keptProviderMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (DROPPED_PROVIDER_KEYS.test(key)) continue;
    if (typeof value === 'string' ? value.length <= 1_000 : typeof value === 'number' || typeof value === 'boolean') kept[key] = value;
  }
  return kept;
}

/** The record a snapshot writes for an item, validated as the verifier will read it. */
export function snapshotRecord(entityType: SnapshotEntityType, item: SnapshotItem): SnapshotItem {
  if (entityType === 'track') {
    const track = item as Track;
    return snapshotRecordSchemas.track.parse({ ...track, metadata: {}, provider_metadata: keptProviderMetadata(track.provider_metadata) });
  }
  return snapshotRecordSchemas[entityType].parse({ ...item, metadata: {} });
}

/**
 * The items checksum of a collection: sha256 over the sha256 of each record's canonical JSON, in
 * order. Unlike the payload checksum it does not depend on how a record was spelled, so it names
 * the same tracks in the same order whichever writer produced the line.
 */
export class ItemsDigest {
  readonly #outer: Hash = createHash('sha256');

  add(record: unknown): void {
    this.#outer.update(createHash('sha256').update(canonicalJson(record)).digest());
  }

  hex(): string {
    return this.#outer.digest('hex');
  }
}
