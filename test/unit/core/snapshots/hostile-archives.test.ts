import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_SNAPSHOT_LIMITS,
  SNAPSHOT_VERIFICATION_REASONS,
  SnapshotVerificationError,
  verifySnapshotArchive,
  type SnapshotLimits,
  type SnapshotVerificationReason,
  type VerificationOptions,
} from '../../../../core/services/snapshots/archive/index.ts';
import { craftZip, repeatedByteBomb, type CraftedEntry, type CraftOptions } from '../../../support/zip-crafter.ts';
import { collection, entriesOf, manifestMembers, signedEntriesOf, testSigningKey, track, trackLines, validParts, type SignedOptions, type SnapshotParts } from './snapshot-parts.ts';

/**
 * The hostile archive suite (SPEC Snapshots rule 7, Limits rule 8): each file is crafted here, byte
 * by byte, with exactly one thing wrong, and must be refused with its own reason code — read
 * where it lies, nothing written beside it.
 */

const MIB = 1024 * 1024;
const deflate = (data: Buffer) => deflateRawSync(data);
const crcOf = (data: Buffer) => crc32(data);
const deflatedSize = (data: Buffer) => deflateRawSync(data).length;

function archive(parts: SnapshotParts, options?: CraftOptions, edit?: (entries: CraftedEntry[]) => CraftedEntry[]): Buffer {
  const entries = entriesOf(parts);
  return craftZip(edit ? edit(entries) : entries, options);
}

/** A valid archive whose manifest was changed after its checksums were computed from the members (or not). */
function withManifest(change: (manifest: SnapshotParts['manifest']) => void, parts = validParts()): Buffer {
  change(parts.manifest);
  return archive(parts);
}

/** A valid archive whose first collection holds these lines, its manifest facts computed from them. */
function withLines(lines: string[]): Buffer {
  const parts = validParts(1, 0);
  const built = collection(1, lines);
  parts.members = [built.member];
  parts.manifest.collections = [built.entry];
  parts.manifest.counts = { collections: 1, items: lines.length, partial_collections: 0, failed_collections: 0 };
  return archive(parts);
}

/** A valid archive whose first collection member holds these raw bytes (its facts are those of the bytes). */
function withMemberBytes(data: Buffer): Buffer {
  const parts = validParts(1, 1);
  parts.members[0] = { name: parts.members[0]!.name, data };
  return archive(parts);
}

function renamed(name: string, to: string) {
  return (entries: CraftedEntry[]) => entries.map((entry) => (entry.name === name ? { ...entry, name: to } : entry));
}

function changed(name: string, change: Partial<CraftedEntry>) {
  return (entries: CraftedEntry[]) => entries.map((entry) => (entry.name === name ? { ...entry, ...change } : entry));
}

const FIRST = 'collections/0001.jsonl';

interface HostileCase {
  title: string;
  reason: SnapshotVerificationReason;
  file: () => Buffer;
  limits?: Partial<SnapshotLimits>;
  options?: VerificationOptions;
}

const SIGNER = testSigningKey();
const OTHER_KEY = testSigningKey();

/** A signed archive, crafted with one thing wrong with its signature (or none). */
function signed(options: SignedOptions = {}, key = SIGNER, parts = validParts()): Buffer {
  return craftZip(signedEntriesOf(parts, key, options));
}

/** A signed archive whose manifest was edited after signing (its checksum line recomputed, so only the signature can tell). */
function editedAfterSigning(): Buffer {
  const entries = signedEntriesOf(validParts(), SIGNER);
  const manifest = JSON.parse((entries.find((entry) => entry.name === 'manifest.json')?.data ?? Buffer.alloc(0)).toString('utf8')) as Record<string, unknown>;
  manifest['completed_at'] = '2030-01-01T00:00:00.000Z';
  const [manifestEntry, checksumEntry] = manifestMembers(manifest);
  return craftZip(entries.map((entry) => (entry.name === 'manifest.json' ? manifestEntry! : entry.name === 'manifest.sha256' ? checksumEntry! : entry)));
}

const CASES: HostileCase[] = [
  // The file as a ZIP
  { title: 'random bytes', reason: 'not_a_zip', file: () => randomBytes(4096) },
  { title: 'an empty file', reason: 'not_a_zip', file: () => Buffer.alloc(0) },
  { title: 'an archive cut short (its end records gone)', reason: 'not_a_zip', file: () => archive(validParts()).subarray(0, 200) },
  { title: 'an archive missing its first bytes', reason: 'truncated_archive', file: () => archive(validParts(), { zip64End: false }).subarray(64) },
  { title: 'end records claiming ZIP64 without the ZIP64 record', reason: 'truncated_archive', file: () => archive(validParts(), { zip64End: false, eocd: { entries: 0xffff, entriesOnDisk: 0xffff } }) },
  { title: "a member whose compressed size runs into the central directory", reason: 'truncated_archive', file: () => archive(validParts(), {}, changed('manifest.sha256', { central: { compressedSize: 5_000 }, descriptorFields: { compressedSize: 5_000 } })) },
  { title: 'bytes after the end record', reason: 'unexpected_bytes', file: () => archive(validParts(), { trailing: Buffer.from('trailing data') }) },
  { title: 'an archive comment', reason: 'unexpected_bytes', file: () => archive(validParts(), { eocd: { comment: Buffer.from('hello') } }) },
  { title: 'self-extractor code before the first member', reason: 'unexpected_bytes', file: () => archive(validParts(), { prefix: Buffer.alloc(512, 0x90) }) },
  { title: 'hidden bytes between two members', reason: 'unexpected_bytes', file: () => archive(validParts(), {}, changed(FIRST, { gapAfter: Buffer.from('{"hidden":true}\n') })) },
  { title: 'a member comment', reason: 'unexpected_bytes', file: () => archive(validParts(), {}, changed(FIRST, { central: { comment: Buffer.from('note') } })) },
  { title: 'a multi-disk archive', reason: 'unsupported_zip', file: () => archive(validParts(), { zip64End: false, eocd: { disk: 1 } }) },
  { title: 'an entry with an unknown flag (patched data)', reason: 'unsupported_zip', file: () => archive(validParts(), {}, changed(FIRST, { flags: 0x0028 })) },
  {
    title: 'two central entries over one member (an overlap bomb)',
    reason: 'overlapping_entries',
    file: () => {
      const parts = validParts(2, 3);
      // The second declared collection is the first one's bytes again, reached through a second central entry.
      const first = parts.manifest.collections[0]!;
      parts.manifest.collections[1] = { ...first, member: 'collections/0002.jsonl', source_collection_id: 'p2' };
      parts.members = [parts.members[0]!];
      return archive(parts, { aliases: [{ name: 'collections/0002.jsonl', of: 0 }] });
    },
  },
  { title: 'a local name that differs from the central name', reason: 'header_mismatch', file: () => archive(validParts(), {}, changed(FIRST, { localName: 'collections/0009.jsonl' })) },
  { title: 'a local compression method that differs', reason: 'header_mismatch', file: () => archive(validParts(), {}, changed(FIRST, { local: { method: 0 } })) },
  { title: 'a data descriptor whose CRC differs from the central one', reason: 'header_mismatch', file: () => archive(validParts(), {}, changed(FIRST, { descriptorFields: { crc: 1234 } })) },
  { title: 'local sizes that differ from the central ones', reason: 'header_mismatch', file: () => archive(validParts(), {}, changed(FIRST, { descriptor: false, local: { uncompressedSize: 3 } })) },
  { title: 'end records that disagree on the entry count', reason: 'header_mismatch', file: () => archive(validParts(), { eocd: { entries: 2, entriesOnDisk: 2 } }) },
  { title: 'a bzip2 member', reason: 'unsupported_compression', file: () => archive(validParts(), {}, changed(FIRST, { method: 12 })) },
  { title: 'a ZipCrypto-encrypted member', reason: 'encrypted_entry', file: () => archive(validParts(), {}, changed(FIRST, { flags: 0x0009 })) },
  { title: 'an AES-encrypted member (method 99)', reason: 'encrypted_entry', file: () => archive(validParts(), {}, changed(FIRST, { method: 99 })) },
  { title: 'a symbolic link', reason: 'symlink_entry', file: () => archive(validParts(), {}, changed(FIRST, { externalAttributes: (0o120777 << 16) >>> 0 })) },
  { title: 'a Unix directory entry', reason: 'special_entry', file: () => archive(validParts(), {}, changed(FIRST, { externalAttributes: (0o040755 << 16) >>> 0 })) },
  { title: 'a DOS directory entry', reason: 'special_entry', file: () => archive(validParts(), {}, changed(FIRST, { madeBy: 0x0014, externalAttributes: 0x10 })) },
  { title: 'a device node', reason: 'special_entry', file: () => archive(validParts(), {}, changed(FIRST, { externalAttributes: (0o020644 << 16) >>> 0 })) },
  {
    title: 'deflate data that is garbage',
    reason: 'corrupt_member',
    file: () => archive(validParts(), {}, changed(FIRST, { compressed: { bytes: Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x12]), uncompressedSize: 10, crc: 0 } })),
  },
  { title: 'a CRC that does not match the bytes', reason: 'crc_mismatch', file: () => archive(validParts(), {}, changed(FIRST, { central: { crc: 0xdeadbeef }, descriptorFields: { crc: 0xdeadbeef } })) },
  {
    title: 'a ZIP64 size lie: fewer bytes declared than the member holds',
    reason: 'size_mismatch',
    file: () => archive(validParts(), {}, changed(FIRST, { zip64Central: { uncompressedSize: 40, compressedSize: deflatedSize(validParts().members[0]!.data) }, descriptorFields: { uncompressedSize: 40 } })),
  },
  {
    title: 'a size lie: more bytes declared than the member holds',
    reason: 'size_mismatch',
    file: () => archive(validParts(), {}, changed(FIRST, { central: { uncompressedSize: 10_000 }, descriptorFields: { uncompressedSize: 10_000 } })),
  },
  {
    title: 'a deflate stream that ends before its compressed bytes do',
    reason: 'size_mismatch',
    file: () => {
      const data = validParts().members[0]!.data;
      const bomb = { bytes: Buffer.concat([deflate(data), Buffer.from('smuggled')]), uncompressedSize: data.length, crc: crcOf(data) };
      return archive(validParts(), {}, changed(FIRST, { compressed: bomb }));
    },
  },
  // Names
  { title: 'a non-ASCII name without the UTF-8 flag', reason: 'invalid_member_name', file: () => archive(validParts(), {}, changed(FIRST, { name: Buffer.from('collections/\xe9.jsonl', 'latin1'), flags: 0x0008 })) },
  { title: 'a name with a control character', reason: 'invalid_member_name', file: () => archive(validParts(), {}, renamed(FIRST, 'collections/\u0007.jsonl')) },
  { title: 'a name that is not valid UTF-8 under the UTF-8 flag', reason: 'invalid_member_name', file: () => archive(validParts(), {}, changed(FIRST, { name: Buffer.from([0x61, 0xc3, 0x28]), flags: 0x0808 })) },
  { title: 'a traversal name', reason: 'path_traversal', file: () => archive(validParts(), {}, renamed(FIRST, '../../etc/cron.d/evil')) },
  { title: 'a traversal name with backslashes', reason: 'path_traversal', file: () => archive(validParts(), {}, renamed(FIRST, 'collections\\..\\..\\evil.jsonl')) },
  { title: 'an absolute Unix path', reason: 'absolute_path', file: () => archive(validParts(), {}, renamed(FIRST, '/etc/passwd')) },
  { title: 'an absolute Windows path', reason: 'absolute_path', file: () => archive(validParts(), {}, renamed(FIRST, 'C:/Windows/evil.jsonl')) },
  { title: 'a UNC path', reason: 'absolute_path', file: () => archive(validParts(), {}, renamed(FIRST, '\\\\server\\share\\x')) },
  { title: 'the manifest twice', reason: 'duplicate_member', file: () => archive(validParts(), {}, (entries) => [...entries, ...manifestMembers(validParts().manifest).slice(0, 1)]) },
  { title: 'two names equal once case is folded', reason: 'duplicate_member_folded', file: () => archive(validParts(), {}, (entries) => [...entries, { name: 'COLLECTIONS/0001.JSONL', data: Buffer.from('x') }]) },
  { title: 'two names equal once NFC-normalized', reason: 'duplicate_member_folded', file: () => archive(validParts(), {}, (entries) => [...entries, { name: 'caf\u00e9.jsonl', data: Buffer.from('') }, { name: 'cafe\u0301.jsonl', data: Buffer.from('') }]) },
  { title: 'two names equal once NFKC-normalized (full-width letters)', reason: 'duplicate_member_folded', file: () => archive(validParts(), {}, (entries) => [...entries, { name: '\uff4danifest.json', data: Buffer.from('{}') }]) },
  { title: 'an extra binary member', reason: 'undeclared_member', file: () => archive(validParts(), {}, (entries) => [...entries, { name: 'cover.jpg', data: randomBytes(2048), method: 0 }]) },
  { title: 'an audio member', reason: 'undeclared_member', file: () => archive(validParts(), {}, (entries) => [...entries, { name: 'collections/0001.mp3', data: randomBytes(4096) }]) },
  { title: 'a declared member that is missing', reason: 'missing_member', file: () => archive(validParts(), {}, (entries) => entries.filter((entry) => entry.name !== FIRST)) },
  // Sizes
  { title: 'an archive over the size cap', reason: 'archive_too_large', file: () => archive(validParts()), limits: { archiveBytes: 1_000 } },
  {
    title: 'members adding up to more than the uncompressed cap',
    reason: 'uncompressed_too_large',
    file: () => withLines(Array.from({ length: 3_000 }, (_, index) => JSON.stringify(track(index, { title: randomBytes(300).toString('base64') })))),
    limits: { uncompressedBytes: 1 * MIB },
  },
  { title: 'a manifest over its cap', reason: 'manifest_too_large', file: () => archive(validParts(40, 1)), limits: { manifestBytes: 4_096 } },
  { title: 'a zip bomb of spaces, declared honestly', reason: 'unsafe_compression_ratio', file: () => archive(validParts(), {}, changed(FIRST, { compressed: repeatedByteBomb(8 * MIB) })) },
  { title: 'a ZIP64 bomb declaring 5 GiB', reason: 'unsafe_compression_ratio', file: () => archive(validParts(), {}, changed(FIRST, { zip64Central: { uncompressedSize: 5 * 1024 * MIB, compressedSize: deflatedSize(validParts().members[0]!.data) } })) },
  { title: 'a record over the record cap', reason: 'record_too_large', file: () => withLines([JSON.stringify(track(1, { title: 'x'.repeat(1_900) }))]), limits: { recordBytes: 1_024 } },
  // Contents
  { title: 'no manifest.json', reason: 'missing_manifest', file: () => archive(validParts(), {}, (entries) => entries.filter((entry) => entry.name !== 'manifest.json')) },
  { title: 'no manifest.sha256', reason: 'missing_manifest', file: () => archive(validParts(), {}, (entries) => entries.filter((entry) => entry.name !== 'manifest.sha256')) },
  { title: 'a checksum file that is not a sha256sum line', reason: 'invalid_manifest_checksum', file: () => archive(validParts(), {}, changed('manifest.sha256', { data: Buffer.from('not a checksum\n') })) },
  {
    title: 'a manifest changed after its checksum',
    reason: 'manifest_checksum_mismatch',
    file: () => {
      const parts = validParts();
      const [manifest, checksum] = manifestMembers(parts.manifest);
      const edited = manifest!.data.toString('utf8').replace('Spotify (Alex)', 'Spotify (Eve!)');
      return craftZip([...parts.members, { name: 'manifest.json', data: Buffer.from(edited) }, checksum!]);
    },
  },
  { title: 'a manifest that is not JSON', reason: 'invalid_manifest', file: () => craftZip([...validParts().members, ...manifestMembers(null, '{"schema_version": 1,')]) },
  { title: 'a manifest without its library id', reason: 'invalid_manifest', file: () => withManifest((manifest) => delete manifest['library_id']) },
  { title: 'a manifest naming an unknown source', reason: 'invalid_manifest', file: () => withManifest((manifest) => (manifest.collections[0]!['source_id'] = 's9')) },
  { title: 'a manifest declaring one member twice', reason: 'invalid_manifest', file: () => withManifest((manifest) => (manifest.collections[1]!['member'] = FIRST)) },
  { title: 'a newer schema version', reason: 'unsupported_schema_version', file: () => withManifest((manifest) => (manifest['schema_version'] = 2)) },
  { title: 'a collection of binary data', reason: 'binary_member', file: () => withMemberBytes(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)])) },
  { title: 'a collection that is not UTF-8', reason: 'binary_member', file: () => withMemberBytes(Buffer.from('{"title":"\xff\xfe"}\n', 'latin1')) },
  { title: 'a line that is not JSON', reason: 'invalid_record', file: () => withLines(['{"title": "Song"']) },
  { title: 'a record without a title', reason: 'invalid_record', file: () => withLines([JSON.stringify({ ...track(1), title: undefined })]) },
  { title: 'a record with a field beyond the model', reason: 'invalid_record', file: () => withLines([JSON.stringify({ ...track(1), preview_mp3: 'AAAA' })]) },
  { title: 'an empty line', reason: 'invalid_record', file: () => withLines([...trackLines(1), '']) },
  { title: 'a last record without its newline', reason: 'invalid_record', file: () => withMemberBytes(Buffer.from(JSON.stringify(track(1)))) },
  { title: 'a bearer token in a track title', reason: 'credential_like_text', file: () => withLines([JSON.stringify(track(1, { title: 'Bearer abcdefghijklmnopqrstuvwxyz012345' }))]) },
  { title: 'an access_token field in provider metadata', reason: 'credential_like_text', file: () => withLines([JSON.stringify(track(1, { provider_metadata: { access_token: 'x' } }))]) },
  { title: 'a JWT in the manifest', reason: 'credential_like_text', file: () => withManifest((manifest) => (manifest.sources[0]!['label'] = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N')) },
  { title: 'a payload checksum that does not match', reason: 'payload_checksum_mismatch', file: () => withManifest((manifest) => (manifest.collections[0]!['payload_sha256'] = '0'.repeat(64))) },
  { title: 'a payload size that does not match', reason: 'payload_checksum_mismatch', file: () => withManifest((manifest) => (manifest.collections[0]!['payload_bytes'] = 1)) },
  { title: 'an items checksum that does not match', reason: 'item_checksum_mismatch', file: () => withManifest((manifest) => (manifest.collections[1]!['items_sha256'] = 'f'.repeat(64))) },
  { title: "a collection's item count that does not match its lines", reason: 'count_mismatch', file: () => withManifest((manifest) => (manifest.collections[0]!['item_count'] = 2)) },
  { title: "the manifest's total items that do not match", reason: 'count_mismatch', file: () => withManifest((manifest) => (manifest.counts['items'] = 7)) },
  { title: 'a failed collection missing from partial failures', reason: 'count_mismatch', file: () => failedCollectionArchive(false) },
  // The optional signature of the manifest
  { title: 'a manifest declaring a signature without manifest.sig', reason: 'signature_missing', file: () => signed({ omitMember: true }) },
  { title: 'a manifest.sig beside an unsigned manifest', reason: 'undeclared_member', file: () => craftZip([...entriesOf(validParts()), { name: 'manifest.sig', data: Buffer.from(`${'A'.repeat(86)}==\n`) }]) },
  { title: 'a signature over other bytes (another manifest)', reason: 'signature_mismatch', file: () => signed({ signedBytes: (text) => Buffer.from(`opl-snapshot-manifest-v1\n${text.replace('Spotify', 'Spotifx')}`) }) },
  { title: 'a signature over the bare manifest, without the snapshot context', reason: 'signature_mismatch', file: () => signed({ signedBytes: (text) => Buffer.from(text) }) },
  { title: 'a signature by another key than the manifest names', reason: 'signature_mismatch', file: () => signed({ declared: OTHER_KEY }) },
  { title: 'a manifest edited after it was signed', reason: 'signature_mismatch', file: editedAfterSigning },
  { title: 'a manifest.sig that is not base64', reason: 'invalid_signature', file: () => signed({ memberText: (signature) => `${signature.slice(0, 80)}!!!!!!==\n` }) },
  { title: 'a manifest.sig of a truncated signature', reason: 'invalid_signature', file: () => signed({ memberText: (signature) => `${signature.slice(0, 40)}==\n` }) },
  { title: 'a manifest.sig with a second line', reason: 'invalid_signature', file: () => signed({ memberText: (signature) => `${signature}\n${signature}\n` }) },
  { title: 'a manifest.sig larger than any signature', reason: 'invalid_signature', file: () => signed({ memberText: () => 'A'.repeat(8192) }) },
  { title: 'a signing key id that is not the public key\'s', reason: 'invalid_signature', file: () => signed({ keyId: OTHER_KEY.keyId }) },
  { title: 'an unsigned archive where a trusted signature is required', reason: 'signature_required', file: () => archive(validParts()), options: { trustedKeys: [SIGNER.publicKey] } },
  { title: 'an archive signed (validly) by a key that is not trusted', reason: 'untrusted_signature_key', file: () => signed({}, OTHER_KEY), options: { trustedKeys: [SIGNER.publicKey] } },
];


/** A partial snapshot: one collection failed; `noted` decides whether partial_failures says so. */
function failedCollectionArchive(noted: boolean): Buffer {
  const parts = validParts(2, 2);
  const failure = { code: 'not_found', message: 'The playlist is gone.' };
  const failed = collection(2, [], { status: 'failed', failure });
  parts.members[1] = failed.member;
  parts.manifest.collections[1] = failed.entry;
  parts.manifest.counts = { collections: 2, items: 2, partial_collections: 0, failed_collections: 1 };
  parts.manifest['partial_failures'] = noted ? [{ member: failed.member.name, source_id: 's1', source_collection_id: 'p2', failure }] : [];
  return archive(parts);
}

describe('snapshot verification refuses hostile archives', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'opl-hostile-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('holds at least 40 crafted files, and every reason code is used by one', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    const used = new Set(CASES.map((entry) => entry.reason));
    expect(SNAPSHOT_VERIFICATION_REASONS.filter((reason) => !used.has(reason))).toEqual([]);
  });

  it.each(CASES.map((entry, index) => [index, entry.title, entry] as const))('#%i %s', async (index, _title, entry) => {
    const caseDir = join(dir, `case-${index}`);
    await rm(caseDir, { recursive: true, force: true });
    await mkdir(caseDir);
    const path = join(caseDir, 'archive.zip');
    await writeFile(path, entry.file());
    const error = await verifySnapshotArchive(path, { ...DEFAULT_SNAPSHOT_LIMITS, ...entry.limits }, entry.options).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SnapshotVerificationError);
    expect((error as SnapshotVerificationError).reason, (error as Error).message).toBe(entry.reason);
    // Verification reads in place: nothing appears beside the archive.
    expect(await readdir(caseDir)).toEqual(['archive.zip']);
  });

  it('accepts the unbroken file every case starts from, including a partial snapshot', async () => {
    for (const [index, file] of [archive(validParts()), failedCollectionArchive(true), withLines(trackLines(5))].entries()) {
      const path = join(dir, `valid-${index}.zip`);
      await writeFile(path, file);
      const verified = await verifySnapshotArchive(path);
      expect(verified.manifest.schema_version).toBe(1);
      expect(verified.signature).toBeNull();
    }
  });

  it('accepts a signed archive, and names its key; a trusted key is accepted where one is required', async () => {
    const path = join(dir, 'signed.zip');
    await writeFile(path, signed());
    const verified = await verifySnapshotArchive(path);
    expect(verified.signature).toEqual({ key_id: SIGNER.keyId, public_key: SIGNER.publicKey });
    const trusted = await verifySnapshotArchive(path, DEFAULT_SNAPSHOT_LIMITS, { trustedKeys: [OTHER_KEY.publicKey, SIGNER.publicKey] });
    expect(trusted.signature?.key_id).toBe(SIGNER.keyId);
  });
});
