import type { FileHandle } from 'node:fs/promises';
import { shownName, SnapshotVerificationError } from './verification-error.ts';

/**
 * The ZIP records a snapshot verifier reads (APPNOTE 6.3): the end records, the central directory
 * and the local headers, each checked as it is parsed. Nothing here decompresses or writes.
 */

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const DESCRIPTOR = 0x08074b50;
const U32 = 0xffffffff;
const U16 = 0xffff;
const ZIP64_EXTRA = 0x0001;

/** More central directory than this is no snapshot (100 000 collections need some 8 MiB). */
const MAX_CENTRAL_BYTES = 64 * 1024 * 1024;
export const MAX_ENTRIES = 100_002;

/** Flag bits a snapshot entry may carry: deflate options (1, 2), data descriptor (3), UTF-8 names (11). */
const ALLOWED_FLAGS = 0x080e;
const FLAG_ENCRYPTED = 0x0001;
const FLAG_STRONG_ENCRYPTION = 0x0040;
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
const METHOD_AES = 99;

export interface CentralEntry {
  readonly name: string;
  readonly nameBytes: Buffer;
  readonly flags: number;
  readonly method: number;
  readonly crc: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly localOffset: number;
}

export interface ZipDirectory {
  readonly entries: readonly CentralEntry[];
  /** Where the central directory starts: every member's bytes lie before it. */
  readonly centralOffset: number;
}

export async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await file.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) throw new SnapshotVerificationError('truncated_archive', 'The archive ends before a record it declares.');
    filled += bytesRead;
  }
  return buffer;
}

function safeNumber(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new SnapshotVerificationError('unsupported_zip', `The archive declares an impossible ${what}.`);
  return Number(value);
}

/** The end of central directory record, and the ZIP64 one when the archive has it. */
export async function readDirectory(file: FileHandle, size: number): Promise<ZipDirectory> {
  if (size < 22) throw new SnapshotVerificationError('not_a_zip', 'The file is too short to be a ZIP archive.');
  const tailLength = Math.min(size, 22 + U16);
  const tailStart = size - tailLength;
  const tail = await readAt(file, tailStart, tailLength);
  let at = -1;
  for (let index = tail.length - 22; index >= 0; index -= 1) {
    if (tail.readUInt32LE(index) === EOCD) {
      at = index;
      break;
    }
  }
  if (at < 0) throw new SnapshotVerificationError('not_a_zip', 'The file is not a ZIP archive (it has no end of central directory record).');
  // A comment, or anything after the end record, is not part of a snapshot and would go unchecked.
  if (tail.readUInt16LE(at + 20) !== 0 || at + 22 !== tail.length) throw new SnapshotVerificationError('unexpected_bytes', 'The archive has a comment or bytes after its end record.');
  if (tail.readUInt16LE(at + 4) !== 0 || tail.readUInt16LE(at + 6) !== 0) throw new SnapshotVerificationError('unsupported_zip', 'The archive spans several disks.');
  let count = tail.readUInt16LE(at + 10);
  if (tail.readUInt16LE(at + 8) !== count) throw new SnapshotVerificationError('unsupported_zip', 'The archive spans several disks.');
  let centralSize = tail.readUInt32LE(at + 12);
  let centralOffset = tail.readUInt32LE(at + 16);
  let endRecords = tailStart + at;
  const locatorAt = endRecords - 20;
  if (locatorAt >= 0 && (await readAt(file, locatorAt, 4)).readUInt32LE(0) === ZIP64_LOCATOR) {
    const locator = await readAt(file, locatorAt, 20);
    if (locator.readUInt32LE(4) !== 0 || locator.readUInt32LE(16) !== 1) throw new SnapshotVerificationError('unsupported_zip', 'The archive spans several disks.');
    const recordAt = safeNumber(locator.readBigUInt64LE(8), 'ZIP64 record offset');
    // The ZIP64 end record (without extensible data) ends where the locator starts.
    if (recordAt !== locatorAt - 56) throw new SnapshotVerificationError('unexpected_bytes', 'The ZIP64 end record is not where its locator says.');
    const record = await readAt(file, recordAt, 56);
    if (record.readUInt32LE(0) !== ZIP64_EOCD || record.readBigUInt64LE(4) !== 44n) throw new SnapshotVerificationError('unsupported_zip', 'The ZIP64 end record is damaged.');
    if (record.readUInt32LE(16) !== 0 || record.readUInt32LE(20) !== 0 || record.readBigUInt64LE(24) !== record.readBigUInt64LE(32)) {
      throw new SnapshotVerificationError('unsupported_zip', 'The archive spans several disks.');
    }
    const count64 = safeNumber(record.readBigUInt64LE(32), 'entry count');
    const size64 = safeNumber(record.readBigUInt64LE(40), 'central directory size');
    const offset64 = safeNumber(record.readBigUInt64LE(48), 'central directory offset');
    // The 32-bit fields are either saturated or the same values: two answers to one question are a lie to someone.
    if ((count !== U16 && count !== count64) || (centralSize !== U32 && centralSize !== size64) || (centralOffset !== U32 && centralOffset !== offset64)) {
      throw new SnapshotVerificationError('header_mismatch', 'The ZIP64 end record and the end record disagree.');
    }
    count = count64;
    centralSize = size64;
    centralOffset = offset64;
    endRecords = recordAt;
  } else if (count === U16 || centralSize === U32 || centralOffset === U32) {
    throw new SnapshotVerificationError('truncated_archive', 'A ZIP64 archive without its ZIP64 end record.');
  }
  if (count > MAX_ENTRIES || centralSize > MAX_CENTRAL_BYTES) throw new SnapshotVerificationError('unsupported_zip', `The archive declares ${count} entries in ${centralSize} bytes, more than any snapshot holds.`);
  if (centralOffset + centralSize !== endRecords) {
    throw new SnapshotVerificationError(centralOffset + centralSize > endRecords ? 'truncated_archive' : 'unexpected_bytes', 'The central directory does not end where the end records begin.');
  }
  const central = await readAt(file, centralOffset, centralSize);
  return { entries: parseCentral(central, count), centralOffset };
}

function decodeName(bytes: Buffer, flags: number): string {
  if ((flags & FLAG_UTF8) === 0) {
    // Without the UTF-8 flag a name is in code page 437, which tools render differently: ASCII only.
    if (bytes.some((byte) => byte >= 0x80)) throw new SnapshotVerificationError('invalid_member_name', 'A member name has non-ASCII bytes without the UTF-8 flag.');
    return bytes.toString('latin1');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new SnapshotVerificationError('invalid_member_name', 'A member name is not valid UTF-8.');
  }
}

/** The ZIP64 extra field's values for the saturated fields, in their fixed order. */
function zip64Values(extra: Buffer, wanted: readonly boolean[]): (number | null)[] {
  const values: (number | null)[] = wanted.map(() => null);
  let at = 0;
  let seen = false;
  while (at < extra.length) {
    if (at + 4 > extra.length) throw new SnapshotVerificationError('unsupported_zip', 'A damaged extra field.');
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (at + 4 + length > extra.length) throw new SnapshotVerificationError('unsupported_zip', 'A damaged extra field.');
    if (id === ZIP64_EXTRA) {
      if (seen) throw new SnapshotVerificationError('unsupported_zip', 'An entry has two ZIP64 extra fields.');
      seen = true;
      let field = at + 4;
      for (const [index, needed] of wanted.entries()) {
        if (!needed) continue;
        if (field + 8 > at + 4 + length) throw new SnapshotVerificationError('unsupported_zip', 'A ZIP64 extra field is too short for the sizes it replaces.');
        values[index] = safeNumber(extra.readBigUInt64LE(field), 'size');
        field += 8;
      }
    }
    at += 4 + length;
  }
  return values;
}

function parseCentral(central: Buffer, count: number): CentralEntry[] {
  const entries: CentralEntry[] = [];
  let at = 0;
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > central.length || central.readUInt32LE(at) !== CENTRAL) throw new SnapshotVerificationError('unsupported_zip', 'The central directory is damaged.');
    const madeBy = central.readUInt16LE(at + 4);
    const flags = central.readUInt16LE(at + 8);
    const method = central.readUInt16LE(at + 10);
    const crc = central.readUInt32LE(at + 16);
    const compressed32 = central.readUInt32LE(at + 20);
    const uncompressed32 = central.readUInt32LE(at + 24);
    const nameLength = central.readUInt16LE(at + 28);
    const extraLength = central.readUInt16LE(at + 30);
    const commentLength = central.readUInt16LE(at + 32);
    const disk = central.readUInt16LE(at + 34);
    const external = central.readUInt32LE(at + 38);
    const offset32 = central.readUInt32LE(at + 42);
    const end = at + 46 + nameLength + extraLength + commentLength;
    if (end > central.length) throw new SnapshotVerificationError('unsupported_zip', 'The central directory is damaged.');
    const nameBytes = Buffer.from(central.subarray(at + 46, at + 46 + nameLength));
    const name = decodeName(nameBytes, flags);
    if (commentLength !== 0) throw new SnapshotVerificationError('unexpected_bytes', `The member ${shownName(name)} carries a comment.`, name);
    if (disk !== 0 && disk !== U16) throw new SnapshotVerificationError('unsupported_zip', 'The archive spans several disks.');
    if ((flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION)) !== 0 || method === METHOD_AES) {
      throw new SnapshotVerificationError('encrypted_entry', `The member ${shownName(name)} is encrypted.`, name);
    }
    checkEntryType(name, madeBy >> 8, external);
    if ((flags & ~ALLOWED_FLAGS) !== 0) throw new SnapshotVerificationError('unsupported_zip', `The member ${shownName(name)} uses ZIP features a snapshot does not (flags ${flags.toString(16)}).`, name);
    if (method !== 0 && method !== 8) throw new SnapshotVerificationError('unsupported_compression', `The member ${shownName(name)} uses compression method ${method}; snapshots use stored (0) or deflate (8).`, name);
    const [uncompressed, compressed, offset] = zip64Values(central.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), [uncompressed32 === U32, compressed32 === U32, offset32 === U32]);
    entries.push({
      name,
      nameBytes,
      flags,
      method,
      crc,
      compressedSize: compressed ?? compressed32,
      uncompressedSize: uncompressed ?? uncompressed32,
      localOffset: offset ?? offset32,
    });
    at = end;
  }
  if (at !== central.length) throw new SnapshotVerificationError('unexpected_bytes', 'The central directory holds more than its entries.');
  return entries;
}

const UNIX = 3;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;
const DOS_DIRECTORY = 0x10;

/** Regular files only: a link or a directory would be followed or created by a tool that unpacks. */
function checkEntryType(name: string, host: number, external: number): void {
  if (host === UNIX) {
    const type = (external >>> 16) & S_IFMT;
    if (type === S_IFLNK) throw new SnapshotVerificationError('symlink_entry', `The member ${shownName(name)} is a symbolic link.`, name);
    if (type !== 0 && type !== S_IFREG) throw new SnapshotVerificationError('special_entry', `The member ${shownName(name)} is not a regular file.`, name);
  }
  if ((external & DOS_DIRECTORY) !== 0 || name.endsWith('/')) throw new SnapshotVerificationError('special_entry', `The member ${shownName(name)} is a directory.`, name);
}

export interface LocalHeader {
  /** Where the member's compressed bytes start. */
  readonly dataStart: number;
  /** A ZIP64 extra field in the local header: its data descriptor then carries 8-byte sizes. */
  readonly zip64: boolean;
}

/** The local header of an entry, which must say what the central directory says. */
export async function readLocalHeader(file: FileHandle, entry: CentralEntry, limit: number): Promise<LocalHeader> {
  const mismatch = (what: string) => new SnapshotVerificationError('header_mismatch', `The local header of ${shownName(entry.name)} disagrees with the central directory (${what}).`, entry.name);
  if (entry.localOffset + 30 > limit) throw new SnapshotVerificationError('truncated_archive', `The member ${shownName(entry.name)} starts past the end of the members.`, entry.name);
  const fixed = await readAt(file, entry.localOffset, 30);
  if (fixed.readUInt32LE(0) !== LOCAL) throw mismatch('no local header at its offset');
  const flags = fixed.readUInt16LE(6);
  const nameLength = fixed.readUInt16LE(26);
  const extraLength = fixed.readUInt16LE(28);
  const dataStart = entry.localOffset + 30 + nameLength + extraLength;
  if (dataStart + entry.compressedSize > limit) throw new SnapshotVerificationError('truncated_archive', `The member ${shownName(entry.name)} runs past the end of the members.`, entry.name);
  const variable = await readAt(file, entry.localOffset + 30, nameLength + extraLength);
  if (flags !== entry.flags) throw mismatch('flags');
  if (fixed.readUInt16LE(8) !== entry.method) throw mismatch('compression method');
  if (!variable.subarray(0, nameLength).equals(entry.nameBytes)) throw mismatch('name');
  const crc = fixed.readUInt32LE(14);
  const compressed32 = fixed.readUInt32LE(18);
  const uncompressed32 = fixed.readUInt32LE(22);
  const extra = variable.subarray(nameLength);
  const [uncompressed, compressed] = zip64Values(extra, [uncompressed32 === U32, compressed32 === U32]);
  const zip64 = uncompressed32 === U32 || compressed32 === U32 || hasZip64Extra(extra);
  const sizes = { crc, compressed: compressed ?? compressed32, uncompressed: uncompressed ?? uncompressed32 };
  // With a data descriptor the local fields may be zero (written before the data was known).
  const deferred = (flags & FLAG_DESCRIPTOR) !== 0 && sizes.crc === 0 && sizes.compressed === 0 && sizes.uncompressed === 0;
  if (!deferred && (sizes.crc !== entry.crc || sizes.compressed !== entry.compressedSize || sizes.uncompressed !== entry.uncompressedSize)) throw mismatch('checksum or sizes');
  return { dataStart, zip64 };
}

function hasZip64Extra(extra: Buffer): boolean {
  for (let at = 0; at + 4 <= extra.length; at += 4 + extra.readUInt16LE(at + 2)) if (extra.readUInt16LE(at) === ZIP64_EXTRA) return true;
  return false;
}

/** The data descriptor after an entry's data (when its flag says so); returns where the entry ends. */
export async function readDescriptor(file: FileHandle, entry: CentralEntry, local: LocalHeader, limit: number): Promise<number> {
  const dataEnd = local.dataStart + entry.compressedSize;
  if ((entry.flags & FLAG_DESCRIPTOR) === 0) return dataEnd;
  const wide = local.zip64 || entry.compressedSize > U32 || entry.uncompressedSize > U32;
  const bodyLength = wide ? 20 : 12;
  if (dataEnd + 4 > limit) throw new SnapshotVerificationError('truncated_archive', `The data descriptor of ${shownName(entry.name)} is missing.`, entry.name);
  const signed = (await readAt(file, dataEnd, 4)).readUInt32LE(0) === DESCRIPTOR;
  const bodyAt = dataEnd + (signed ? 4 : 0);
  if (bodyAt + bodyLength > limit) throw new SnapshotVerificationError('truncated_archive', `The data descriptor of ${shownName(entry.name)} is cut short.`, entry.name);
  const body = await readAt(file, bodyAt, bodyLength);
  const compressed = wide ? safeNumber(body.readBigUInt64LE(4), 'size') : body.readUInt32LE(4);
  const uncompressed = wide ? safeNumber(body.readBigUInt64LE(12), 'size') : body.readUInt32LE(8);
  if (body.readUInt32LE(0) !== entry.crc || compressed !== entry.compressedSize || uncompressed !== entry.uncompressedSize) {
    throw new SnapshotVerificationError('header_mismatch', `The data descriptor of ${shownName(entry.name)} disagrees with the central directory.`, entry.name);
  }
  return bodyAt + bodyLength;
}
