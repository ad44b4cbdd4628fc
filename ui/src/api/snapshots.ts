/**
 * Snapshots: profiles, snapshot archives and their restore, as `/api/snapshots*` answers them,
 * parsed into camelCase so components never read raw JSON, plus the words the Snapshots page uses
 * for them. Pure: no I/O.
 */

export const SNAPSHOTS_PATH = '/api/snapshots';
export const PROFILES_PATH = '/api/snapshots/profiles';
export const UPLOAD_PATH = '/api/snapshots/upload';

export function snapshotPath(id: string, action?: 'verify' | 'archive' | 'events'): string {
  return `${SNAPSHOTS_PATH}/${encodeURIComponent(id)}${action ? `/${action}` : ''}`;
}

export function profilePath(id: string): string {
  return `${PROFILES_PATH}/${encodeURIComponent(id)}`;
}

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

export type SnapshotSchedule = { readonly kind: 'daily'; readonly at: string; readonly timeZone: string } | { readonly kind: 'weekly'; readonly weekday: string; readonly at: string; readonly timeZone: string };

export interface Retention {
  readonly keepLast: number | null;
  readonly keepDays: number | null;
}

export interface ProfileAccount {
  readonly accountId: string;
  /** `all`, or collection ids (`liked` is liked tracks). */
  readonly collections: 'all' | readonly string[];
}

export interface SnapshotProfile {
  readonly id: string;
  readonly name: string;
  readonly libraryId: string;
  readonly accounts: readonly ProfileAccount[];
  readonly schedule: SnapshotSchedule | null;
  readonly nextRunAt: string | null;
  readonly retention: Retention | null;
}

export interface SnapshotCollection {
  readonly member: string;
  readonly restoreId: string;
  readonly kind: string;
  readonly name: string;
  readonly status: string;
  readonly itemCount: number;
}

export interface PartialFailure {
  readonly member: string;
  readonly code: string;
  readonly message: string;
}

export interface Snapshot {
  readonly id: string;
  readonly profileId: string | null;
  readonly status: string;
  readonly origin: string;
  readonly archiveBytes: number | null;
  readonly collectionCount: number | null;
  readonly itemCount: number | null;
  readonly progress: { readonly done: number; readonly total: number; readonly items: number; readonly current: string | null };
  readonly collections: readonly SnapshotCollection[];
  readonly partialFailures: readonly PartialFailure[];
  readonly verifiedAt: string | null;
  /** The id of the key whose signature of the manifest verified; null for an unsigned archive. */
  readonly signedBy: string | null;
  readonly verificationReason: string | null;
  readonly error: string | null;
  readonly createdAt: string;
}

export interface SnapshotListing {
  readonly snapshots: readonly Snapshot[];
  readonly maxUploadBytes: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const count = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function parseSchedule(value: unknown): SnapshotSchedule | null {
  if (!isRecord(value)) return null;
  const at = text(value['at']);
  const timeZone = text(value['time_zone']);
  if (!at || !timeZone) return null;
  if (value['kind'] === 'weekly') return { kind: 'weekly', weekday: text(value['weekday']) ?? 'monday', at, timeZone };
  return value['kind'] === 'daily' ? { kind: 'daily', at, timeZone } : null;
}

export function parseProfile(value: unknown): SnapshotProfile | undefined {
  if (!isRecord(value) || typeof value['id'] !== 'string' || typeof value['name'] !== 'string' || !isRecord(value['selection'])) return undefined;
  const accounts = value['selection']['accounts'];
  if (!Array.isArray(accounts)) return undefined;
  const retention = isRecord(value['retention']) ? { keepLast: count(value['retention']['keep_last']), keepDays: count(value['retention']['keep_days']) } : null;
  return {
    id: value['id'],
    name: value['name'],
    libraryId: text(value['library_id']) ?? '',
    accounts: accounts.filter(isRecord).map((account) => ({
      accountId: text(account['account_id']) ?? '',
      collections: Array.isArray(account['collections']) ? account['collections'].filter((id): id is string => typeof id === 'string') : 'all',
    })),
    schedule: parseSchedule(value['schedule']),
    nextRunAt: text(value['next_run_at']),
    retention,
  };
}

export function parseProfiles(body: unknown): SnapshotProfile[] | undefined {
  if (!isRecord(body) || !Array.isArray(body['profiles'])) return undefined;
  return body['profiles'].map(parseProfile).filter((profile): profile is SnapshotProfile => profile !== undefined);
}

export function parseSnapshot(value: unknown): Snapshot | undefined {
  if (!isRecord(value) || typeof value['id'] !== 'string' || typeof value['status'] !== 'string') return undefined;
  const counts = isRecord(value['counts']) ? value['counts'] : {};
  const progress = isRecord(value['progress']) ? value['progress'] : {};
  const collections = Array.isArray(value['collections']) ? value['collections'].filter(isRecord) : [];
  const failures = Array.isArray(value['partial_failures']) ? value['partial_failures'].filter(isRecord) : [];
  return {
    id: value['id'],
    profileId: text(value['profile_id']),
    status: value['status'],
    origin: text(value['origin']) ?? 'created',
    archiveBytes: count(value['archive_bytes']),
    collectionCount: count(counts['collections']),
    itemCount: count(counts['items']),
    progress: { done: count(progress['collections_done']) ?? 0, total: count(progress['collections_total']) ?? 0, items: count(progress['items']) ?? 0, current: text(progress['current']) },
    collections: collections.map((collection) => ({
      member: text(collection['member']) ?? '',
      restoreId: text(collection['restore_id']) ?? '',
      kind: text(collection['kind']) ?? 'playlist',
      name: text(collection['name']) ?? 'Untitled collection',
      status: text(collection['status']) ?? 'complete',
      itemCount: count(collection['item_count']) ?? 0,
    })),
    partialFailures: failures.map((failure) => {
      const detail = isRecord(failure['failure']) ? failure['failure'] : {};
      return { member: text(failure['member']) ?? '', code: text(detail['code']) ?? 'read_failed', message: text(detail['message']) ?? '' };
    }),
    verifiedAt: text(value['verified_at']),
    signedBy: isRecord(value['signature']) ? text(value['signature']['key_id']) : null,
    verificationReason: text(value['verification_reason']),
    error: text(value['error']),
    createdAt: text(value['created_at']) ?? '',
  };
}

export function parseSnapshotListing(body: unknown): SnapshotListing | undefined {
  if (!isRecord(body) || !Array.isArray(body['snapshots'])) return undefined;
  return {
    snapshots: body['snapshots'].map(parseSnapshot).filter((snapshot): snapshot is Snapshot => snapshot !== undefined),
    maxUploadBytes: count(body['max_upload_bytes']) ?? Number.POSITIVE_INFINITY,
  };
}

export interface ProfileInput {
  readonly name: string;
  readonly accounts: readonly ProfileAccount[];
  readonly schedule: SnapshotSchedule | null;
  readonly retention: Retention | null;
}

export function profileRequest(input: ProfileInput): Record<string, unknown> {
  const schedule = input.schedule;
  return {
    name: input.name,
    selection: { accounts: input.accounts.map((account) => ({ account_id: account.accountId, collections: account.collections })) },
    schedule: schedule === null ? null : schedule.kind === 'weekly' ? { kind: 'weekly', weekday: schedule.weekday, at: schedule.at, time_zone: schedule.timeZone } : { kind: 'daily', at: schedule.at, time_zone: schedule.timeZone },
    retention: input.retention === null ? null : { keep_last: input.retention.keepLast, keep_days: input.retention.keepDays },
  };
}

/** The migration a restore is: the snapshot as the source, only the chosen collections, to one target account. */
export function restoreRequest(snapshotId: string, restoreIds: readonly string[], target: { provider: string; accountId: string }, acknowledgeWarnings: boolean): Record<string, unknown> {
  return {
    source_provider: 'snapshot',
    source_account_id: snapshotId,
    source_snapshot_id: snapshotId,
    target_provider: target.provider,
    target_account_id: target.accountId,
    selection: { playlist_ids: [...restoreIds] },
    acknowledge_warnings: acknowledgeWarnings,
  };
}

export function isRunning(snapshot: Snapshot): boolean {
  return snapshot.status === 'queued' || snapshot.status === 'running';
}

export function statusLabel(snapshot: Snapshot): string {
  switch (snapshot.status) {
    case 'queued':
      return 'Waiting to start';
    case 'running':
      return `Taking: ${snapshot.progress.done} of ${snapshot.progress.total || '?'} collections, ${snapshot.progress.items} items${snapshot.progress.current ? ` (reading “${snapshot.progress.current}”)` : ''}`;
    case 'completed':
      return 'Complete';
    case 'partial':
      return 'Partial: some collections could not be read';
    case 'failed':
      return `Failed${snapshot.error ? `: ${snapshot.error}` : ''}`;
    default:
      return snapshot.status;
  }
}

const REASONS: Readonly<Record<string, string>> = {
  archive_missing: 'the archive file is missing from the snapshot directory',
  path_traversal: 'a member name leaves the archive',
  undeclared_member: 'a member the manifest does not declare',
  payload_checksum_mismatch: 'a collection differs from its checksum',
  crc_mismatch: 'a member is damaged',
  not_a_zip: 'the file is not a ZIP archive',
  truncated_archive: 'the file is cut short',
  unsupported_schema_version: 'the archive was made by a newer version',
  signature_mismatch: 'its signature does not match: it changed after it was signed',
  invalid_signature: 'its signature is damaged',
  signature_missing: 'it says it is signed, but the signature is gone',
};

/** The verification state in words, with the reason code kept visible for support. */
export function verificationLabel(snapshot: Snapshot): string {
  if (snapshot.verificationReason) return `Failed verification (${snapshot.verificationReason}${REASONS[snapshot.verificationReason] ? `: ${REASONS[snapshot.verificationReason]}` : ''})`;
  if (snapshot.verifiedAt) return snapshot.signedBy ? `Verified, signed by ${snapshot.signedBy}` : 'Verified';
  return isRunning(snapshot) ? 'Not yet' : 'Not verified';
}

export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}

export function scheduleLabel(schedule: SnapshotSchedule | null): string {
  if (!schedule) return 'Only when you ask';
  const day = schedule.kind === 'weekly' ? `Every ${schedule.weekday.charAt(0).toUpperCase()}${schedule.weekday.slice(1)}` : 'Every day';
  return `${day} at ${schedule.at} (${schedule.timeZone})`;
}

export function retentionLabel(retention: Retention | null): string {
  if (!retention) return 'Keep all';
  const parts = [retention.keepLast === null ? null : `the newest ${retention.keepLast}`, retention.keepDays === null ? null : `none older than ${retention.keepDays} days`].filter(Boolean);
  return `Keep ${parts.join(', ')} (the newest good one always)`;
}
