import type { SnapshotManifest } from '@opl/plugin-sdk/schemas';
import { snapshotView, type SnapshotView } from './snapshot-views.ts';

/** A playlist as it was at a time: the snapshot to restore it from, and the collection in it. */
export interface SnapshotAsOf {
  snapshot: SnapshotView;
  /** Selects the collection in a restore (POST /api/migrations with `source_provider: "snapshot"`). */
  restore_id: string;
  item_count: number;
}

/**
 * The newest snapshot that finished at or before `at`, verified (no failed verification), that
 * holds the playlist `playlistId` of `provider` readable (not a collection that failed when it was
 * taken). Rows are the owner's snapshots with their manifests; null when none qualifies.
 */
export function newestHolding(rows: readonly Record<string, unknown>[], provider: string, playlistId: string, at: Date): SnapshotAsOf | null {
  let best: { completedAt: number; found: SnapshotAsOf } | null = null;
  for (const row of rows) {
    const manifest = row['manifest'] as SnapshotManifest | null;
    const completedAt = row['completed_at'] ? new Date(row['completed_at'] as string).getTime() : NaN;
    if (!manifest || !row['archive_path'] || row['verification_reason'] || !['completed', 'partial'].includes(String(row['status'])) || !(completedAt <= at.getTime())) continue;
    if (best && best.completedAt >= completedAt) continue;
    const sources = new Set(manifest.sources.filter((source) => source.provider === provider).map((source) => source.source_id));
    const collection = manifest.collections.find((entry) => entry.entity_type === 'track' && sources.has(entry.source_id) && entry.source_collection_id === playlistId && entry.status !== 'failed');
    if (!collection) continue;
    best = { completedAt, found: { snapshot: snapshotView(row), restore_id: `${collection.source_id}:${playlistId}`, item_count: collection.item_count } };
  }
  return best?.found ?? null;
}
