import { crc32, deflateRawSync } from 'node:zlib';

/**
 * Builds ZIP files byte by byte for the hostile-archive suite: every field of every record can be
 * set to a lie (sizes, CRCs, names, flags, offsets, attributes, disk numbers), records can be left
 * out, repeated or cut short, and central entries can point at another entry's bytes. Nothing here
 * checks anything: it writes exactly what a test asks for.
 */

export interface CraftedEntry {
  /** The name in both headers unless `localName` says otherwise. */
  name: string | Buffer;
  localName?: string | Buffer;
  /** The member's uncompressed bytes (compressed here unless `compressed` is given). */
  data?: Buffer;
  /** Ready compressed bytes (e.g. a bomb's deflate stream), with the facts they stand for. */
  compressed?: { bytes: Buffer; uncompressedSize: number; crc: number };
  method?: number;
  flags?: number;
  /** Host (high byte) and version (low byte); default Unix, 4.5. */
  madeBy?: number;
  externalAttributes?: number;
  /** Write a data descriptor (flag bit 3 set, local CRC and sizes zero), as archiver does. */
  descriptor?: boolean;
  descriptorSignature?: boolean;
  /** Overrides of what the central directory says. */
  central?: Partial<{ crc: number; compressedSize: number; uncompressedSize: number; method: number; flags: number; localOffset: number; comment: Buffer; disk: number }>;
  /** Overrides of what the local header says. */
  local?: Partial<{ crc: number; compressedSize: number; uncompressedSize: number; method: number; flags: number; signature: number }>;
  /** Overrides of the data descriptor. */
  descriptorFields?: Partial<{ crc: number; compressedSize: number; uncompressedSize: number }>;
  /** ZIP64 extra fields with these sizes in the central directory (the 32-bit fields saturated). */
  zip64Central?: { uncompressedSize: number; compressedSize: number };
  /** Bytes written after this entry's record, before the next one. */
  gapAfter?: Buffer;
  /** Leave this entry out of the central directory (its bytes stay in the file). */
  omitFromCentral?: boolean;
}

export interface CraftOptions {
  prefix?: Buffer;
  /** Central entries that repeat another entry's fields under a new name (overlapping members). */
  aliases?: { name: string; of: number }[];
  /** ZIP64 end records as archiver writes them (default true). */
  zip64End?: boolean;
  eocd?: Partial<{ disk: number; entriesOnDisk: number; entries: number; comment: Buffer }>;
  trailing?: Buffer;
  /** Cut the finished file to this many bytes. */
  truncateTo?: number;
}

const u16 = (value: number) => {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16LE(value & 0xffff);
  return buffer;
};
const u32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value >>> 0);
  return buffer;
};
const u64 = (value: number | bigint) => {
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64LE(BigInt(value));
  return buffer;
};
const bytesOf = (name: string | Buffer) => (typeof name === 'string' ? Buffer.from(name, 'utf8') : name);

interface Placed {
  entry: CraftedEntry;
  offset: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  method: number;
  flags: number;
}

export function craftZip(entries: readonly CraftedEntry[], options: CraftOptions = {}): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  const push = (buffer: Buffer) => {
    parts.push(buffer);
    offset += buffer.length;
  };
  if (options.prefix) push(options.prefix);
  const placed: Placed[] = [];
  for (const entry of entries) {
    const method = entry.method ?? 8;
    const data = entry.data ?? Buffer.alloc(0);
    const compressedBytes = entry.compressed?.bytes ?? (method === 8 ? deflateRawSync(data) : data);
    const crc = entry.compressed?.crc ?? crc32(data);
    const uncompressedSize = entry.compressed?.uncompressedSize ?? data.length;
    const descriptor = entry.descriptor ?? true;
    const name = bytesOf(entry.name);
    const flags = entry.flags ?? (descriptor ? 0x0008 : 0) | (name.some((byte) => byte >= 0x80) ? 0x0800 : 0);
    const localName = bytesOf(entry.localName ?? entry.name);
    const start = offset;
    push(
      Buffer.concat([
        u32(entry.local?.signature ?? 0x04034b50),
        u16(20),
        u16(entry.local?.flags ?? flags),
        u16(entry.local?.method ?? method),
        u16(0),
        u16(0x21),
        u32(entry.local?.crc ?? (descriptor ? 0 : crc)),
        u32(entry.local?.compressedSize ?? (descriptor ? 0 : compressedBytes.length)),
        u32(entry.local?.uncompressedSize ?? (descriptor ? 0 : uncompressedSize)),
        u16(localName.length),
        u16(0),
        localName,
      ]),
    );
    push(compressedBytes);
    if (descriptor) {
      push(
        Buffer.concat([
          entry.descriptorSignature === false ? Buffer.alloc(0) : u32(0x08074b50),
          u32(entry.descriptorFields?.crc ?? crc),
          u32(entry.descriptorFields?.compressedSize ?? compressedBytes.length),
          u32(entry.descriptorFields?.uncompressedSize ?? uncompressedSize),
        ]),
      );
    }
    if (entry.gapAfter) push(entry.gapAfter);
    placed.push({ entry, offset: start, crc, compressedSize: compressedBytes.length, uncompressedSize, method, flags });
  }
  const centralStart = offset;
  const centralRecord = (item: Placed, name: Buffer) => {
    const { entry } = item;
    const zip64 = entry.zip64Central;
    const extra = zip64 ? Buffer.concat([u16(1), u16(16), u64(zip64.uncompressedSize), u64(zip64.compressedSize)]) : Buffer.alloc(0);
    const comment = entry.central?.comment ?? Buffer.alloc(0);
    return Buffer.concat([
      u32(0x02014b50),
      u16(entry.madeBy ?? 0x032d),
      u16(20),
      u16(entry.central?.flags ?? item.flags),
      u16(entry.central?.method ?? item.method),
      u16(0),
      u16(0x21),
      u32(entry.central?.crc ?? item.crc),
      u32(zip64 ? 0xffffffff : (entry.central?.compressedSize ?? item.compressedSize)),
      u32(zip64 ? 0xffffffff : (entry.central?.uncompressedSize ?? item.uncompressedSize)),
      u16(name.length),
      u16(extra.length),
      u16(comment.length),
      u16(entry.central?.disk ?? 0),
      u16(0),
      u32(entry.externalAttributes ?? (0o100644 << 16) >>> 0),
      u32(entry.central?.localOffset ?? item.offset),
      name,
      extra,
      comment,
    ]);
  };
  let count = 0;
  for (const item of placed) {
    if (item.entry.omitFromCentral) continue;
    push(centralRecord(item, bytesOf(item.entry.name)));
    count += 1;
  }
  for (const alias of options.aliases ?? []) {
    push(centralRecord(placed[alias.of]!, Buffer.from(alias.name)));
    count += 1;
  }
  const centralSize = offset - centralStart;
  const zip64 = options.zip64End ?? true;
  if (zip64) {
    const recordAt = offset;
    push(Buffer.concat([u32(0x06064b50), u64(44), u16(0x2d), u16(0x2d), u32(0), u32(0), u64(count), u64(count), u64(centralSize), u64(centralStart)]));
    push(Buffer.concat([u32(0x07064b50), u32(0), u64(recordAt), u32(1)]));
  }
  const comment = options.eocd?.comment ?? Buffer.alloc(0);
  push(
    Buffer.concat([
      u32(0x06054b50),
      u16(options.eocd?.disk ?? 0),
      u16(0),
      u16(options.eocd?.entriesOnDisk ?? (zip64 ? 0xffff : count)),
      u16(options.eocd?.entries ?? (zip64 ? 0xffff : count)),
      u32(zip64 ? 0xffffffff : centralSize),
      u32(zip64 ? 0xffffffff : centralStart),
      u16(comment.length),
      comment,
    ]),
  );
  if (options.trailing) push(options.trailing);
  const file = Buffer.concat(parts);
  return options.truncateTo === undefined ? file : file.subarray(0, options.truncateTo);
}

/** A raw deflate stream of `size` copies of one byte (a bomb's payload) and the facts it stands for. */
export function repeatedByteBomb(size: number, byte = 0x20): { bytes: Buffer; uncompressedSize: number; crc: number } {
  const data = Buffer.alloc(size, byte);
  return { bytes: deflateRawSync(data, { level: 9 }), uncompressedSize: size, crc: crc32(data) };
}
