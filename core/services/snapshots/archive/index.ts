export { SnapshotArchiveWriter, PARTIAL_SUFFIX, type CollectionToWrite, type SnapshotWriterOptions, type WrittenSnapshot } from './snapshot-writer.ts';
export { verifySnapshotArchive, readSnapshotCollections, type VerifiedSnapshot, type VerifiedSignature, type VerificationOptions } from './snapshot-verifier.ts';
export { parsePublicKey, signingKeyFromSecret, signingKeyId, type SnapshotSigningKey } from './manifest-signature.ts';
export { SnapshotVerificationError, SNAPSHOT_VERIFICATION_REASONS, type SnapshotVerificationReason } from './verification-error.ts';
export { DEFAULT_SNAPSHOT_LIMITS, type SnapshotLimits } from './snapshot-limits.ts';
export { snapshotRecord, ItemsDigest, type SnapshotItem } from './snapshot-records.ts';
export { credentialLikeText } from './credential-text.ts';
