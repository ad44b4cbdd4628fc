import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import {
  SNAPSHOT_CHECKSUM_MEMBER,
  SNAPSHOT_MANIFEST_MEMBER,
  SNAPSHOT_SCHEMA_VERSION,
  SNAPSHOT_SIGNATURE_MEMBER,
  snapshotManifestSchema,
  type SnapshotCollection,
  type SnapshotManifest,
} from '@opl/plugin-sdk/schemas';
import { readCollectionLines } from './collection-lines.ts';
import { credentialLikeText } from './credential-text.ts';
import { parseSignatureMember, signatureVerifies, signingKeyId } from './manifest-signature.ts';
import { memberBytes, memberData, type UncompressedBudget } from './member-data.ts';
import { checkMemberName, MemberNameSet } from './member-names.ts';
import { DEFAULT_SNAPSHOT_LIMITS, RATIO_FLOOR_BYTES, type SnapshotLimits } from './snapshot-limits.ts';
import type { SnapshotItem } from './snapshot-records.ts';
import { shownName, SnapshotVerificationError } from './verification-error.ts';
import { readDescriptor, readDirectory, readLocalHeader, type CentralEntry, type ZipDirectory } from './zip-structure.ts';

/** `<64 hex>  manifest.json` and a newline: the line `sha256sum manifest.json` prints. */
const CHECKSUM_LINE = /^([0-9a-f]{64}) {2}manifest\.json\n$/;
const MAX_CHECKSUM_BYTES = 4096;

export interface VerificationOptions {
  /**
   * Public keys (base64) the archive must be signed by. Unset: a signature is checked when present
   * and an unsigned archive is accepted; set: an unsigned archive (`signature_required`) or one
   * signed by another key (`untrusted_signature_key`) is refused.
   */
  readonly trustedKeys?: readonly string[];
}

export interface VerifiedSignature {
  readonly key_id: string;
  readonly public_key: string;
}

export interface VerifiedSnapshot {
  readonly manifest: SnapshotManifest;
  /** The key whose signature of the manifest verified; null for an unsigned archive. */
  readonly signature: VerifiedSignature | null;
  readonly archiveBytes: number;
  /** Decompressed bytes of every member, as read. */
  readonly uncompressedBytes: number;
}

interface OpenedArchive {
  readonly file: FileHandle;
  readonly directory: ZipDirectory;
  readonly manifest: SnapshotManifest;
  readonly byName: ReadonlyMap<string, CentralEntry>;
  readonly budget: UncompressedBudget;
  readonly limits: SnapshotLimits;
}

/**
 * Verifies a snapshot archive without extracting anything (SPEC Snapshots rule 7): the end records
 * and the central directory, every member's name and kind, then `manifest.json` against
 * `manifest.sha256`, then every member in file order — its local header against the central one,
 * its bytes decompressed as a stream through the caps, each collection's records counted and
 * hashed against the manifest. The first problem found is thrown as a SnapshotVerificationError
 * with its reason code. Nothing is written; memory stays bounded by the caps.
 */
export async function verifySnapshotArchive(path: string, limits: SnapshotLimits = DEFAULT_SNAPSHOT_LIMITS, options: VerificationOptions = {}): Promise<VerifiedSnapshot> {
  const file = await open(path, 'r');
  try {
    const archive = await openArchive(file, limits);
    checkTrust(archive.manifest, options);
    await readMembersInOrder(archive);
    checkTotals(archive.manifest);
    const signature = archive.manifest.signature ? { key_id: archive.manifest.signature.key_id, public_key: archive.manifest.signature.public_key } : null;
    return { manifest: archive.manifest, signature, archiveBytes: (await file.stat()).size, uncompressedBytes: archive.budget.used };
  } finally {
    await file.close();
  }
}

/**
 * The records of some collections of an archive, read under the same checks as verification (a
 * file may have changed since it was verified): each collection's records in order, then its facts
 * compared with the manifest.
 */
export async function readSnapshotCollections(
  path: string,
  members: readonly string[],
  onRecord: (collection: SnapshotCollection, record: SnapshotItem, index: number) => Promise<void> | void,
  limits: SnapshotLimits = DEFAULT_SNAPSHOT_LIMITS,
): Promise<SnapshotManifest> {
  const file = await open(path, 'r');
  try {
    const archive = await openArchive(file, limits);
    for (const member of members) {
      const collection = archive.manifest.collections.find((entry) => entry.member === member);
      if (!collection) throw new SnapshotVerificationError('missing_member', `The manifest declares no collection ${shownName(member)}.`, member);
      const entry = archive.byName.get(member)!;
      const local = await readLocalHeader(file, entry, archive.directory.centralOffset);
      await readCollection(archive, entry, local.dataStart, collection, (record, index) => onRecord(collection, record, index));
    }
    return archive.manifest;
  } finally {
    await file.close();
  }
}

async function openArchive(file: FileHandle, limits: SnapshotLimits): Promise<OpenedArchive> {
  const size = (await file.stat()).size;
  if (size > limits.archiveBytes) throw new SnapshotVerificationError('archive_too_large', `The archive is ${size} bytes, more than the ${limits.archiveBytes} allowed.`);
  const directory = await readDirectory(file, size);
  const names = new MemberNameSet();
  const byName = new Map<string, CentralEntry>();
  let declaredTotal = 0;
  for (const entry of directory.entries) {
    checkMemberName(entry.name);
    names.add(entry.name);
    byName.set(entry.name, entry);
    // The headers' claims are refused early when they already exceed a cap; what is read is checked again.
    declaredTotal += entry.uncompressedSize;
    if (entry.uncompressedSize > Math.max(entry.compressedSize * limits.compressionRatio, RATIO_FLOOR_BYTES)) {
      throw new SnapshotVerificationError('unsafe_compression_ratio', `The member ${shownName(entry.name)} declares more than ${limits.compressionRatio} times its compressed size.`, entry.name);
    }
  }
  if (declaredTotal > limits.uncompressedBytes) throw new SnapshotVerificationError('uncompressed_too_large', `The archive declares ${declaredTotal} decompressed bytes, more than the ${limits.uncompressedBytes} allowed.`);
  const budget: UncompressedBudget = { used: 0 };
  const manifest = await readManifest(file, directory, byName, limits, budget);
  const declared = new Set<string>();
  for (const collection of manifest.collections) {
    if (declared.has(collection.member)) throw new SnapshotVerificationError('invalid_manifest', `The manifest declares ${shownName(collection.member)} twice.`, collection.member);
    declared.add(collection.member);
    if (!byName.has(collection.member)) throw new SnapshotVerificationError('missing_member', `The manifest declares ${shownName(collection.member)}, which the archive does not hold.`, collection.member);
    if (!manifest.sources.some((source) => source.source_id === collection.source_id)) {
      throw new SnapshotVerificationError('invalid_manifest', `The collection ${shownName(collection.member)} names source ${collection.source_id}, which the manifest does not list.`, collection.member);
    }
  }
  if (manifest.signature) declared.add(SNAPSHOT_SIGNATURE_MEMBER);
  for (const entry of directory.entries) {
    if (entry.name !== SNAPSHOT_MANIFEST_MEMBER && entry.name !== SNAPSHOT_CHECKSUM_MEMBER && !declared.has(entry.name)) {
      throw new SnapshotVerificationError('undeclared_member', `The archive holds ${shownName(entry.name)}, which its manifest does not declare.`, entry.name);
    }
  }
  return { file, directory, manifest, byName, budget, limits };
}

async function readManifest(file: FileHandle, directory: ZipDirectory, byName: ReadonlyMap<string, CentralEntry>, limits: SnapshotLimits, budget: UncompressedBudget): Promise<SnapshotManifest> {
  const manifestEntry = byName.get(SNAPSHOT_MANIFEST_MEMBER);
  const checksumEntry = byName.get(SNAPSHOT_CHECKSUM_MEMBER);
  if (!manifestEntry || !checksumEntry) throw new SnapshotVerificationError('missing_manifest', `The archive lacks ${!manifestEntry ? SNAPSHOT_MANIFEST_MEMBER : SNAPSHOT_CHECKSUM_MEMBER}: it is not a snapshot.`);
  if (manifestEntry.uncompressedSize > limits.manifestBytes) throw new SnapshotVerificationError('manifest_too_large', `The manifest declares ${manifestEntry.uncompressedSize} bytes, more than the ${limits.manifestBytes} allowed.`, SNAPSHOT_MANIFEST_MEMBER);
  const limit = directory.centralOffset;
  const checksumLocal = await readLocalHeader(file, checksumEntry, limit);
  const checksumBytes = await memberBytes(file, checksumEntry, checksumLocal.dataStart, limits, budget, { maxBytes: MAX_CHECKSUM_BYTES, overMax: 'invalid_manifest_checksum' });
  const checksum = CHECKSUM_LINE.exec(checksumBytes.toString('latin1'));
  if (!checksum) throw new SnapshotVerificationError('invalid_manifest_checksum', `${SNAPSHOT_CHECKSUM_MEMBER} is not one sha256sum line for manifest.json.`, SNAPSHOT_CHECKSUM_MEMBER);
  const manifestLocal = await readLocalHeader(file, manifestEntry, limit);
  const bytes = await memberBytes(file, manifestEntry, manifestLocal.dataStart, limits, budget, { maxBytes: limits.manifestBytes, overMax: 'manifest_too_large' });
  if (createHash('sha256').update(bytes).digest('hex') !== checksum[1]) {
    throw new SnapshotVerificationError('manifest_checksum_mismatch', `manifest.json does not match the checksum in ${SNAPSHOT_CHECKSUM_MEMBER}.`, SNAPSHOT_MANIFEST_MEMBER);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new SnapshotVerificationError('binary_member', 'manifest.json is not UTF-8 text.', SNAPSHOT_MANIFEST_MEMBER);
  }
  const credential = credentialLikeText(text);
  if (credential) throw new SnapshotVerificationError('credential_like_text', `manifest.json holds what looks like ${credential}; a snapshot never carries credentials.`, SNAPSHOT_MANIFEST_MEMBER);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new SnapshotVerificationError('invalid_manifest', 'manifest.json is not JSON.', SNAPSHOT_MANIFEST_MEMBER);
  }
  const version = typeof document === 'object' && document !== null ? (document as Record<string, unknown>)['schema_version'] : undefined;
  if (typeof version === 'number' && Number.isInteger(version) && version !== SNAPSHOT_SCHEMA_VERSION) {
    const newer = version > SNAPSHOT_SCHEMA_VERSION;
    throw new SnapshotVerificationError(
      'unsupported_schema_version',
      `The archive is snapshot schema version ${version}; this engine reads version ${SNAPSHOT_SCHEMA_VERSION}${newer ? ' (upgrade the engine to read newer snapshots)' : ''}.`,
      SNAPSHOT_MANIFEST_MEMBER,
    );
  }
  const parsed = snapshotManifestSchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SnapshotVerificationError('invalid_manifest', `manifest.json is not a snapshot manifest v1 (${issue.path.join('.') || 'document'}: ${issue.message.slice(0, 200)}).`, SNAPSHOT_MANIFEST_MEMBER);
  }
  await checkSignature(file, directory, byName, limits, budget, parsed.data, bytes);
  return parsed.data;
}

/**
 * A signed manifest's `manifest.sig`: one base64 line of a 64-byte ed25519 signature over the
 * manifest's bytes, by the key the manifest names. Checked before any payload is read: a payload
 * is only worth reading under a manifest whose signature holds.
 */
async function checkSignature(file: FileHandle, directory: ZipDirectory, byName: ReadonlyMap<string, CentralEntry>, limits: SnapshotLimits, budget: UncompressedBudget, manifest: SnapshotManifest, manifestBytes: Buffer): Promise<void> {
  const declared = manifest.signature;
  const entry = byName.get(SNAPSHOT_SIGNATURE_MEMBER);
  if (!declared) return; // an undeclared manifest.sig is refused as any undeclared member
  if (!entry) throw new SnapshotVerificationError('signature_missing', `The manifest says it is signed, but the archive lacks ${SNAPSHOT_SIGNATURE_MEMBER}.`, SNAPSHOT_SIGNATURE_MEMBER);
  if (signingKeyId(declared.public_key) !== declared.key_id) {
    throw new SnapshotVerificationError('invalid_signature', `The manifest's signing key id ${declared.key_id} is not the id of the public key it names.`, SNAPSHOT_MANIFEST_MEMBER);
  }
  const local = await readLocalHeader(file, entry, directory.centralOffset);
  const text = await memberBytes(file, entry, local.dataStart, limits, budget, { maxBytes: MAX_CHECKSUM_BYTES, overMax: 'invalid_signature' });
  const signature = parseSignatureMember(text.toString('latin1'));
  if (!signature) throw new SnapshotVerificationError('invalid_signature', `${SNAPSHOT_SIGNATURE_MEMBER} is not one base64 line of an ed25519 signature.`, SNAPSHOT_SIGNATURE_MEMBER);
  if (!signatureVerifies(manifestBytes, signature, declared.public_key)) {
    throw new SnapshotVerificationError('signature_mismatch', `The signature in ${SNAPSHOT_SIGNATURE_MEMBER} does not verify: manifest.json was not signed as it is by key ${declared.key_id}.`, SNAPSHOT_SIGNATURE_MEMBER);
  }
}

/** The signer against the keys the caller trusts, when it names any. */
function checkTrust(manifest: SnapshotManifest, options: VerificationOptions): void {
  const trusted = options.trustedKeys;
  if (!trusted) return;
  if (!manifest.signature) throw new SnapshotVerificationError('signature_required', 'The archive is not signed, and a signature by a trusted key was required.', SNAPSHOT_MANIFEST_MEMBER);
  if (!trusted.includes(manifest.signature.public_key)) {
    throw new SnapshotVerificationError('untrusted_signature_key', `The archive is signed by key ${manifest.signature.key_id}, which is not among the trusted keys.`, SNAPSHOT_SIGNATURE_MEMBER);
  }
}

/** Every member in file order: the members must tile the bytes before the central directory exactly. */
async function readMembersInOrder(archive: OpenedArchive): Promise<void> {
  const { file, directory, manifest } = archive;
  const collections = new Map(manifest.collections.map((collection) => [collection.member, collection]));
  const ordered = [...directory.entries].sort((left, right) => left.localOffset - right.localOffset);
  let cursor = 0;
  for (const entry of ordered) {
    if (entry.localOffset < cursor) throw new SnapshotVerificationError('overlapping_entries', `The member ${shownName(entry.name)} overlaps the member before it.`, entry.name);
    if (entry.localOffset > cursor) throw new SnapshotVerificationError('unexpected_bytes', `There are bytes no member accounts for before ${shownName(entry.name)}.`, entry.name);
    const local = await readLocalHeader(file, entry, directory.centralOffset);
    const collection = collections.get(entry.name);
    // The manifest and its checksum were read (and checked) before: only their place is checked here.
    if (collection) await readCollection(archive, entry, local.dataStart, collection);
    cursor = await readDescriptor(file, entry, local, directory.centralOffset);
  }
  if (cursor !== directory.centralOffset) throw new SnapshotVerificationError('unexpected_bytes', 'There are bytes no member accounts for before the central directory.');
}

async function readCollection(archive: OpenedArchive, entry: CentralEntry, dataStart: number, collection: SnapshotCollection, onRecord?: (record: SnapshotItem, index: number) => Promise<void> | void): Promise<void> {
  const { file, limits, budget } = archive;
  const chunks = memberData(file, entry, dataStart, limits, budget, { maxBytes: limits.uncompressedBytes, overMax: 'uncompressed_too_large' });
  const facts = await readCollectionLines(entry.name, collection.entity_type, chunks, limits.recordBytes, onRecord);
  const name = shownName(entry.name);
  if (facts.payloadBytes !== collection.payload_bytes || facts.payloadSha256 !== collection.payload_sha256) {
    throw new SnapshotVerificationError('payload_checksum_mismatch', `The bytes of ${name} do not match its payload checksum in the manifest.`, entry.name);
  }
  if (facts.itemCount !== collection.item_count) throw new SnapshotVerificationError('count_mismatch', `${name} holds ${facts.itemCount} records; the manifest says ${collection.item_count}.`, entry.name);
  if (facts.itemsSha256 !== collection.items_sha256) throw new SnapshotVerificationError('item_checksum_mismatch', `The records of ${name} do not match their item checksum in the manifest.`, entry.name);
}

/** The manifest's totals against its own entries (each entry was checked against its member's bytes). */
function checkTotals(manifest: SnapshotManifest): void {
  const { collections, counts } = manifest;
  const items = collections.reduce((sum, collection) => sum + collection.item_count, 0);
  const partial = collections.filter((collection) => collection.status === 'partial').length;
  const failed = collections.filter((collection) => collection.status === 'failed').length;
  const notes = new Map(manifest.partial_failures.map((failure) => [failure.member, failure]));
  if (counts.collections !== collections.length || counts.items !== items || counts.partial_collections !== partial || counts.failed_collections !== failed) {
    throw new SnapshotVerificationError('count_mismatch', `The manifest's counts (${counts.collections} collections, ${counts.items} items, ${counts.partial_collections} partial, ${counts.failed_collections} failed) are not those of its collections (${collections.length}, ${items}, ${partial}, ${failed}).`);
  }
  if (notes.size !== manifest.partial_failures.length || notes.size !== partial + failed || collections.some((collection) => collection.status !== 'complete' && !notes.has(collection.member))) {
    throw new SnapshotVerificationError('count_mismatch', "The manifest's partial failures are not exactly its partial and failed collections.");
  }
}
