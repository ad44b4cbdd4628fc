import { describe, expect, it } from 'vitest';
import { newestHolding } from '../../../../core/services/snapshots/snapshot-as-of.ts';

/** Which snapshot holds a playlist as it was at a time (issue 30 item 7). */

function row(id: string, completedAt: string, extra: { status?: string; verification_reason?: string | null; provider?: string; collectionStatus?: string; playlist?: string } = {}): Record<string, unknown> {
  return {
    id,
    profile_id: null,
    library_id: '00000000-0000-4000-8000-000000000001',
    status: extra.status ?? 'completed',
    origin: 'created',
    archive_path: `${id}.zip`,
    archive_sha256: null,
    archive_bytes: 1,
    counts: {},
    progress: {},
    verification_reason: extra.verification_reason ?? null,
    verified_at: completedAt,
    error: null,
    started_at: completedAt,
    completed_at: completedAt,
    created_at: completedAt,
    manifest: {
      sources: [{ source_id: 's1', provider: extra.provider ?? 'spotify', label: 'Spotify' }],
      collections: [{ member: 'collections/0001.jsonl', source_id: 's1', source_collection_id: extra.playlist ?? 'road', entity_type: 'track', kind: 'playlist', name: 'Road', status: extra.collectionStatus ?? 'complete', item_count: 5 }],
      partial_failures: [],
    },
  };
}

describe('newestHolding', () => {
  const rows = [row('a', '2026-11-01T10:00:00Z'), row('b', '2026-11-10T10:00:00Z'), row('c', '2026-11-20T10:00:00Z')];

  it('picks the newest snapshot finished at or before the time', () => {
    expect(newestHolding(rows, 'spotify', 'road', new Date('2026-11-15T00:00:00Z'))?.snapshot.id).toBe('b');
    expect(newestHolding(rows, 'spotify', 'road', new Date('2026-11-10T10:00:00Z'))?.snapshot.id).toBe('b');
    expect(newestHolding(rows, 'spotify', 'road', new Date('2027-01-01T00:00:00Z'))).toMatchObject({ snapshot: { id: 'c' }, restore_id: 's1:road', item_count: 5 });
  });

  it('finds nothing before the first snapshot, for another playlist or another provider', () => {
    expect(newestHolding(rows, 'spotify', 'road', new Date('2026-10-01T00:00:00Z'))).toBeNull();
    expect(newestHolding(rows, 'spotify', 'other', new Date('2027-01-01T00:00:00Z'))).toBeNull();
    expect(newestHolding(rows, 'tidal', 'road', new Date('2027-01-01T00:00:00Z'))).toBeNull();
  });

  it('skips snapshots that failed verification, failed, or hold the playlist as a failed collection', () => {
    const later = [
      ...rows,
      row('d', '2026-11-21T10:00:00Z', { verification_reason: 'crc_mismatch' }),
      row('e', '2026-11-22T10:00:00Z', { status: 'failed' }),
      row('f', '2026-11-23T10:00:00Z', { collectionStatus: 'failed' }),
    ];
    expect(newestHolding(later, 'spotify', 'road', new Date('2027-01-01T00:00:00Z'))?.snapshot.id).toBe('c');
    // A partial collection still holds what could be read.
    expect(newestHolding([...later, row('g', '2026-11-24T10:00:00Z', { collectionStatus: 'partial', status: 'partial' })], 'spotify', 'road', new Date('2027-01-01T00:00:00Z'))?.snapshot.id).toBe('g');
  });
});
