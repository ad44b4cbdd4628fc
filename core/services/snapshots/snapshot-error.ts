import type { SnapshotVerificationReason } from './archive/index.ts';

export type SnapshotErrorCode = 'not_found' | 'invalid_selection' | 'busy' | 'not_ready' | 'verification_failed' | 'too_large' | 'already_exists' | 'archive_missing' | 'account_required' | 'auto_snapshot_failed' | 'no_snapshot_before' | 'confirmation_required' | 'rewind_unverified' | 'rewind_failed' | 'not_restorable';

/** A refusal of the snapshot service, turned into a problem by the routes. */
export class SnapshotError extends Error {
  readonly code: SnapshotErrorCode;
  readonly reason: SnapshotVerificationReason | null;
  constructor(code: SnapshotErrorCode, message: string, reason: SnapshotVerificationReason | null = null) {
    super(message);
    this.name = 'SnapshotError';
    this.code = code;
    this.reason = reason;
  }
}
