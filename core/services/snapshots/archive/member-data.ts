import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createInflateRaw, crc32 } from 'node:zlib';
import { RATIO_FLOOR_BYTES, type SnapshotLimits } from './snapshot-limits.ts';
import type { CentralEntry } from './zip-structure.ts';
import { shownName, SnapshotVerificationError, type SnapshotVerificationReason } from './verification-error.ts';

const CHUNK = 64 * 1024;

 
async function* nothing(): AsyncGenerator<Buffer> {}

/**
 * The bytes of one range of the file, read chunk by chunk on the shared handle (a file stream
 * would close the handle when it is destroyed, and the verifier still needs it).
 */
async function* fileRange(file: FileHandle, start: number, length: number): AsyncGenerator<Buffer> {
  for (let done = 0; done < length; ) {
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK, length - done));
    const { bytesRead } = await file.read(buffer, 0, buffer.length, start + done);
    if (bytesRead === 0) return;
    done += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/** Decompressed bytes counted over the whole archive, so that many members cannot add up to a bomb. */
export interface UncompressedBudget {
  used: number;
}

export interface MemberCaps {
  /** The most bytes this member may decompress to, and the reason given beyond it. */
  readonly maxBytes: number;
  readonly overMax: SnapshotVerificationReason;
}

/**
 * A member's decompressed bytes, in chunks, read straight from the archive file and never written
 * anywhere. Every cap is judged on the bytes actually produced — the sizes in the headers are
 * claims, checked against what arrives: more than declared stops at once, fewer is a mismatch at
 * the end, as are a CRC or a compressed length that differ. Memory stays at a few chunks whatever
 * the member holds.
 */
export async function* memberData(file: FileHandle, entry: CentralEntry, dataStart: number, limits: SnapshotLimits, budget: UncompressedBudget, caps: MemberCaps): AsyncGenerator<Buffer> {
  const fail = (reason: SnapshotVerificationReason, message: string) => new SnapshotVerificationError(reason, message, entry.name);
  const ratioAllowance = Math.max(entry.compressedSize * limits.compressionRatio, RATIO_FLOOR_BYTES);
  const raw = entry.compressedSize === 0 ? null : Readable.from(fileRange(file, dataStart, entry.compressedSize), { objectMode: false });
  const inflater = raw && entry.method === 8 ? createInflateRaw({ chunkSize: CHUNK }) : null;
  const source: AsyncIterable<Buffer> = raw === null ? nothing() : inflater ? raw.pipe(inflater) : raw;
  if (raw && inflater) raw.on('error', (error) => inflater.destroy(error));
  let produced = 0;
  let crc = 0;
  try {
    for await (const chunk of source) {
      produced += chunk.length;
      budget.used += chunk.length;
      if (produced > entry.uncompressedSize) throw fail('size_mismatch', `The member ${shownName(entry.name)} holds more than the ${entry.uncompressedSize} bytes its headers declare.`);
      if (produced > caps.maxBytes) throw fail(caps.overMax, `The member ${shownName(entry.name)} is larger than ${caps.maxBytes} bytes once decompressed.`);
      if (produced > ratioAllowance) throw fail('unsafe_compression_ratio', `The member ${shownName(entry.name)} decompresses to more than ${limits.compressionRatio} times its compressed size.`);
      if (budget.used > limits.uncompressedBytes) throw fail('uncompressed_too_large', `The archive decompresses to more than ${limits.uncompressedBytes} bytes.`);
      crc = crc32(chunk, crc);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof SnapshotVerificationError) throw error;
    throw fail('corrupt_member', `The member ${shownName(entry.name)} cannot be decompressed (${(error as Error).message.slice(0, 200)}).`);
  } finally {
    raw?.destroy();
    inflater?.destroy();
  }
  if (entry.compressedSize === 0 && entry.method === 8) throw fail('corrupt_member', `The member ${shownName(entry.name)} has no deflate data.`);
  // A deflate stream that ends before its compressed bytes do leaves bytes nobody checked.
  const consumed = inflater ? inflater.bytesWritten : produced;
  if (consumed !== entry.compressedSize) throw fail('size_mismatch', `The member ${shownName(entry.name)} is ${consumed} compressed bytes, not the ${entry.compressedSize} its headers declare.`);
  if (produced !== entry.uncompressedSize) throw fail('size_mismatch', `The member ${shownName(entry.name)} is ${produced} bytes, not the ${entry.uncompressedSize} its headers declare.`);
  if (crc >>> 0 !== entry.crc) throw fail('crc_mismatch', `The CRC-32 of ${shownName(entry.name)} does not match its headers.`);
}

/** A small member (the manifest and its checksum) whole, under its cap. */
export async function memberBytes(file: FileHandle, entry: CentralEntry, dataStart: number, limits: SnapshotLimits, budget: UncompressedBudget, caps: MemberCaps): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of memberData(file, entry, dataStart, limits, budget, caps)) chunks.push(chunk);
  return Buffer.concat(chunks);
}
