import { createHash, hash, type Hash } from 'node:crypto';
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
    // One-shot hashing: a Hash object per record costs more than the hashing itself (the verifier's hottest call).
    this.#outer.update(hash('sha256', recordCanonicalJson(record), 'buffer'));
  }

  hex(): string {
    return this.#outer.digest('hex');
  }
}

/** The key order of each object shape met, sorted once: records of a collection share a few shapes. */
const sortedKeysOf = new Map<string, string[]>();

function sortedKeys(value: Record<string, unknown>): string[] {
  const keys = Object.keys(value);
  const shape = keys.join('\u0000');
  let sorted = sortedKeysOf.get(shape);
  if (!sorted) {
    sorted = [...keys].sort();
    if (sortedKeysOf.size < 1_024) sortedKeysOf.set(shape, sorted);
  }
  return sorted;
}

/**
 * The canonical JSON (`canonicalJson` of the SDK: keys sorted, no whitespace, JSON.stringify's
 * escapes) of a record that a schema has already checked, with native JSON.stringify doing the
 * escaping: the same text, several times faster. A record holds only what JSON carries (it came
 * from JSON.parse or passed the universal model's schema), which is what makes the two agree; a
 * unit test compares them on every kind of record.
 */
export function recordCanonicalJson(record: unknown): string {
  return JSON.stringify(record, (_key, value: unknown) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const object = value as Record<string, unknown>;
    // No prototype: a `__proto__` key (JSON.parse makes it an own property) stays a property here too.
    const sorted = Object.create(null) as Record<string, unknown>;
    for (const key of sortedKeys(object)) sorted[key] = object[key];
    return sorted;
  });
}
