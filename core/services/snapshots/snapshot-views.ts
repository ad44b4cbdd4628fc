import type { SnapshotManifest } from '@opl/plugin-sdk/schemas';
import type { SnapshotOrigin, SnapshotStatus } from '../../storage/entities/values.ts';
import type { ProfileSelection } from './snapshot-profile.ts';
import type { RetentionPolicy, SnapshotSchedule } from './snapshot-schedule.ts';

/** What the API shows of snapshot profiles and snapshots, made from their rows. */

export interface ProfileView {
  id: string;
  name: string;
  library_id: string;
  selection: ProfileSelection;
  schedule: SnapshotSchedule | null;
  next_run_at: string | null;
  retention: RetentionPolicy | null;
  /** Null for the owner's own profiles; an automatic one says what it is taken before and of which account. */
  automatic: { origin: string; account_id: string } | null;
  created_at: string;
  updated_at: string;
}

export interface SnapshotView {
  id: string;
  profile_id: string | null;
  library_id: string;
  status: SnapshotStatus;
  origin: SnapshotOrigin;
  archive_bytes: number | null;
  archive_sha256: string | null;
  counts: Record<string, unknown>;
  progress: Record<string, unknown>;
  partial_failures: SnapshotManifest['partial_failures'];
  /** `restore_id`: how `POST /api/migrations` selects the collection (`<source id>:<collection id>`). */
  collections: { member: string; restore_id: string; kind: string; name: string; status: string; item_count: number; source_id: string; source_collection_id: string | null }[];
  sources: SnapshotManifest['sources'];
  /** The key that signed the manifest (its signature verified before the snapshot was listed); null: unsigned. */
  signature: { algorithm: 'ed25519'; key_id: string; public_key: string } | null;
  verified_at: string | null;
  verification_reason: string | null;
  error: string | null;
  started_at: string | null;
  completed_at: string | null;
  created_at: string;
}

/** The verification reason recorded when a snapshot's archive file is gone from the directory. */
export const ARCHIVE_MISSING = 'archive_missing';

const iso = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string).toISOString());

export function profileView(row: Record<string, unknown>): ProfileView {
  return {
    id: row['id'] as string,
    name: row['name'] as string,
    library_id: row['library_id'] as string,
    selection: row['selection'] as ProfileSelection,
    schedule: (row['schedule'] as SnapshotSchedule | null) ?? null,
    next_run_at: iso(row['next_run_at']),
    retention: (row['retention'] as RetentionPolicy | null) ?? null,
    automatic: row['automatic_origin'] ? { origin: row['automatic_origin'] as string, account_id: row['automatic_account_id'] as string } : null,
    created_at: iso(row['created_at'])!,
    updated_at: iso(row['updated_at'])!,
  };
}

export function snapshotView(row: Record<string, unknown>): SnapshotView {
  const manifest = row['manifest'] as SnapshotManifest | null;
  return {
    id: row['id'] as string,
    profile_id: (row['profile_id'] as string | null) ?? null,
    library_id: row['library_id'] as string,
    status: row['status'] as SnapshotStatus,
    origin: row['origin'] as SnapshotOrigin,
    archive_bytes: row['archive_bytes'] === null ? null : Number(row['archive_bytes']),
    archive_sha256: (row['archive_sha256'] as string | null) ?? null,
    counts: row['counts'] as Record<string, unknown>,
    progress: row['progress'] as Record<string, unknown>,
    partial_failures: manifest?.partial_failures ?? [],
    collections: (manifest?.collections ?? []).map((collection) => ({
      member: collection.member,
      restore_id: `${collection.source_id}:${collection.source_collection_id ?? collection.member}`,
      kind: collection.kind,
      name: collection.name,
      status: collection.status,
      item_count: collection.item_count,
      source_id: collection.source_id,
      source_collection_id: collection.source_collection_id,
    })),
    sources: manifest?.sources ?? [],
    signature: manifest?.signature ?? null,
    verified_at: iso(row['verified_at']),
    verification_reason: (row['verification_reason'] as string | null) ?? null,
    error: (row['error'] as string | null) ?? null,
    started_at: iso(row['started_at']),
    completed_at: iso(row['completed_at']),
    created_at: iso(row['created_at'])!,
  };
}

/** A snapshot progress event: the row as it is now, numbered by its change sequence. */
export interface SnapshotEvent {
  id: number;
  type: 'snapshot';
  data: SnapshotView;
}
