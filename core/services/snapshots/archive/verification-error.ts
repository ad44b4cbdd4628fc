/**
 * Why an archive failed verification: one stable code per kind of refusal (SPEC error "Snapshot
 * archive failing verification"). The codes are API and CLI output; never rename one.
 */
export const SNAPSHOT_VERIFICATION_REASONS = [
  // The file as a ZIP
  'not_a_zip',
  'truncated_archive',
  'unsupported_zip',
  'archive_too_large',
  'unexpected_bytes',
  'overlapping_entries',
  'header_mismatch',
  'unsupported_compression',
  'encrypted_entry',
  'symlink_entry',
  'special_entry',
  'corrupt_member',
  'crc_mismatch',
  'size_mismatch',
  // Member names
  'invalid_member_name',
  'path_traversal',
  'absolute_path',
  'duplicate_member',
  'duplicate_member_folded',
  'undeclared_member',
  'missing_member',
  // Sizes
  'uncompressed_too_large',
  'manifest_too_large',
  'record_too_large',
  'unsafe_compression_ratio',
  // Contents
  'missing_manifest',
  'invalid_manifest_checksum',
  'manifest_checksum_mismatch',
  'invalid_manifest',
  'unsupported_schema_version',
  'binary_member',
  'invalid_record',
  'credential_like_text',
  'payload_checksum_mismatch',
  'item_checksum_mismatch',
  'count_mismatch',
  // The optional signature of the manifest
  'signature_missing',
  'invalid_signature',
  'signature_mismatch',
  'signature_required',
  'untrusted_signature_key',
] as const;

export type SnapshotVerificationReason = (typeof SNAPSHOT_VERIFICATION_REASONS)[number];

export class SnapshotVerificationError extends Error {
  readonly reason: SnapshotVerificationReason;
  /** The member concerned, when there is one (a generated or sanitized name, never file content). */
  readonly member: string | null;

  constructor(reason: SnapshotVerificationReason, message: string, member: string | null = null) {
    super(message);
    this.name = 'SnapshotVerificationError';
    this.reason = reason;
    this.member = member;
  }
}

/** A member name as it may appear in a message: printable, bounded, quoted. */
export function shownName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must not be printed
  const printable = name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '?');
  return JSON.stringify(printable.length > 120 ? `${printable.slice(0, 120)}…` : printable);
}
