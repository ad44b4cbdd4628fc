import { open, type FileHandle } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';

/**
 * Reads one small entry (the export's `manifest.json`) out of a downloaded ZIP or ZIP64 archive
 * on disk without loading the archive: the end records, the central directory, then only that
 * entry's bytes. Returns null when the archive has no such entry.
 */

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
const MAX_CENTRAL_BYTES = 256 * 1024 * 1024;

export class ZipReadError extends Error {}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new ZipReadError('the archive ends early');
  return buffer;
}

function bigToNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipReadError('an archive offset is out of range');
  return Number(value);
}

export async function readZipEntry(path: string, entryName: string): Promise<Buffer | null> {
  const file = await open(path, 'r');
  try {
    const size = (await file.stat()).size;
    const tailLength = Math.min(size, 22 + 0xffff);
    const tail = await readAt(file, size - tailLength, tailLength);
    let at = -1;
    for (let index = tail.length - 22; index >= 0; index -= 1) {
      if (tail.readUInt32LE(index) === EOCD) {
        at = index;
        break;
      }
    }
    if (at < 0) throw new ZipReadError('not a ZIP archive (no end of central directory)');
    let entries = tail.readUInt16LE(at + 10);
    let centralSize = tail.readUInt32LE(at + 12);
    let centralOffset = tail.readUInt32LE(at + 16);
    if (entries === 0xffff || centralSize === 0xffffffff || centralOffset === 0xffffffff) {
      const locatorAt = size - tailLength + at - 20;
      const locator = await readAt(file, locatorAt, 20);
      if (locator.readUInt32LE(0) !== ZIP64_LOCATOR) throw new ZipReadError('a ZIP64 archive without its locator');
      const record = await readAt(file, bigToNumber(locator.readBigUInt64LE(8)), 56);
      if (record.readUInt32LE(0) !== ZIP64_EOCD) throw new ZipReadError('a ZIP64 archive without its end record');
      entries = bigToNumber(record.readBigUInt64LE(32));
      centralSize = bigToNumber(record.readBigUInt64LE(40));
      centralOffset = bigToNumber(record.readBigUInt64LE(48));
    }
    if (centralSize > MAX_CENTRAL_BYTES || centralOffset + centralSize > size) throw new ZipReadError('the central directory is out of bounds');
    const central = await readAt(file, centralOffset, centralSize);
    let position = 0;
    for (let entry = 0; entry < entries; entry += 1) {
      if (position + 46 > central.length || central.readUInt32LE(position) !== CENTRAL) throw new ZipReadError('a damaged central directory');
      const method = central.readUInt16LE(position + 10);
      let compressed = central.readUInt32LE(position + 20);
      let uncompressed = central.readUInt32LE(position + 24);
      const nameLength = central.readUInt16LE(position + 28);
      const extraLength = central.readUInt16LE(position + 30);
      const commentLength = central.readUInt16LE(position + 32);
      let localOffset = central.readUInt32LE(position + 42);
      const name = central.toString('utf8', position + 46, position + 46 + nameLength);
      if (name === entryName) {
        // ZIP64 sizes and offset live in the extra field (id 1), in this order, when the 32-bit ones are saturated.
        let extra = position + 46 + nameLength;
        const extraEnd = extra + extraLength;
        while (extra + 4 <= extraEnd) {
          const id = central.readUInt16LE(extra);
          const length = central.readUInt16LE(extra + 2);
          if (id === 1) {
            let field = extra + 4;
            if (uncompressed === 0xffffffff) {
              uncompressed = bigToNumber(central.readBigUInt64LE(field));
              field += 8;
            }
            if (compressed === 0xffffffff) {
              compressed = bigToNumber(central.readBigUInt64LE(field));
              field += 8;
            }
            if (localOffset === 0xffffffff) localOffset = bigToNumber(central.readBigUInt64LE(field));
          }
          extra += 4 + length;
        }
        if (compressed > MAX_ENTRY_BYTES || uncompressed > MAX_ENTRY_BYTES) throw new ZipReadError(`${entryName} is larger than this reader accepts`);
        const local = await readAt(file, localOffset, 30);
        if (local.readUInt32LE(0) !== LOCAL) throw new ZipReadError('a damaged local header');
        const dataAt = localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
        const data = await readAt(file, dataAt, compressed);
        if (method === 0) return data;
        if (method === 8) return inflateRawSync(data, { maxOutputLength: MAX_ENTRY_BYTES });
        throw new ZipReadError(`${entryName} uses compression method ${method}, which this reader does not know`);
      }
      position += 46 + nameLength + extraLength + commentLength;
    }
    return null;
  } finally {
    await file.close();
  }
}
