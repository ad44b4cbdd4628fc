/**
 * Reads the table of contents of a downloaded ZIP (ZIP64 included) and one small entry of it, so
 * the page can show an archive's `manifest.json` — the full warnings — without another request.
 * Only what export archives use: stored or deflated entries, no encryption, no spanning.
 */

const EOCD = 0x06054b50;
const ZIP64_EOCD_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const MAX_16 = 0xffff;
const MAX_32 = 0xffffffff;
/** The end record plus the longest comment a ZIP may carry. */
const TAIL_BYTES = 22 + 0xffff;
/** A manifest far larger than this is not one the engine wrote; refuse rather than inflate it. */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

export class ZipReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipReadError';
  }
}

export interface ZipEntry {
  readonly name: string;
  /** 0 = stored, 8 = deflated. */
  readonly method: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localHeaderOffset: number;
}

/** Where to read bytes from: a Blob in the browser, anything with the same `slice` in tests. */
export interface ByteSource {
  readonly size: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

async function bytesAt(source: ByteSource, start: number, length: number): Promise<DataView> {
  if (start < 0 || start + length > source.size) throw new ZipReadError('The archive is cut short: a record points past its end.');
  return new DataView(await source.slice(start, start + length).arrayBuffer());
}

function uint64(view: DataView, at: number): number {
  const value = view.getBigUint64(at, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipReadError('The archive names a size beyond what this browser can address.');
  return Number(value);
}

/** The ZIP64 extra field replaces, in this order, each classic field that holds 0xFFFFFFFF. */
function applyZip64Extra(extra: DataView, fields: { size: number; compressedSize: number; localHeaderOffset: number }): void {
  let at = 0;
  while (at + 4 <= extra.byteLength) {
    const id = extra.getUint16(at, true);
    const length = extra.getUint16(at + 2, true);
    if (id === ZIP64_EXTRA) {
      let cursor = at + 4;
      const take = (): number => {
        if (cursor + 8 > at + 4 + length) throw new ZipReadError('A ZIP64 extra field is shorter than the sizes it replaces.');
        const value = uint64(extra, cursor);
        cursor += 8;
        return value;
      };
      if (fields.size === MAX_32) fields.size = take();
      if (fields.compressedSize === MAX_32) fields.compressedSize = take();
      if (fields.localHeaderOffset === MAX_32) fields.localHeaderOffset = take();
      return;
    }
    at += 4 + length;
  }
}

/** Every entry of the archive's central directory, in order. */
export async function listZipEntries(source: ByteSource): Promise<ZipEntry[]> {
  const tailStart = Math.max(0, source.size - TAIL_BYTES);
  const tail = await bytesAt(source, tailStart, source.size - tailStart);
  let eocd = -1;
  for (let at = tail.byteLength - 22; at >= 0; at -= 1) {
    if (tail.getUint32(at, true) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw new ZipReadError('This is not a ZIP archive: it has no end-of-directory record.');
  let count = tail.getUint16(eocd + 10, true);
  let directorySize = tail.getUint32(eocd + 12, true);
  let directoryOffset = tail.getUint32(eocd + 16, true);
  if (count === MAX_16 || directorySize === MAX_32 || directoryOffset === MAX_32) {
    const locatorAt = eocd - 20;
    if (locatorAt < 0 || tail.getUint32(locatorAt, true) !== ZIP64_EOCD_LOCATOR) throw new ZipReadError('The archive announces ZIP64 but has no ZIP64 locator.');
    const zip64At = uint64(tail, locatorAt + 8);
    const zip64 = await bytesAt(source, zip64At, 56);
    if (zip64.getUint32(0, true) !== ZIP64_EOCD) throw new ZipReadError('The ZIP64 end-of-directory record is missing.');
    count = uint64(zip64, 32);
    directorySize = uint64(zip64, 40);
    directoryOffset = uint64(zip64, 48);
  }
  const directory = await bytesAt(source, directoryOffset, directorySize);
  const decoder = new TextDecoder('utf-8');
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > directory.byteLength || directory.getUint32(at, true) !== CENTRAL_HEADER) throw new ZipReadError(`Directory entry ${index + 1} is damaged.`);
    const nameLength = directory.getUint16(at + 28, true);
    const extraLength = directory.getUint16(at + 30, true);
    const commentLength = directory.getUint16(at + 32, true);
    if (at + 46 + nameLength + extraLength + commentLength > directory.byteLength) throw new ZipReadError(`Directory entry ${index + 1} runs past the directory.`);
    const fields = {
      size: directory.getUint32(at + 24, true),
      compressedSize: directory.getUint32(at + 20, true),
      localHeaderOffset: directory.getUint32(at + 42, true),
    };
    applyZip64Extra(new DataView(directory.buffer, directory.byteOffset + at + 46 + nameLength, extraLength), fields);
    const name = decoder.decode(new Uint8Array(directory.buffer, directory.byteOffset + at + 46, nameLength));
    entries.push({ name, method: directory.getUint16(at + 10, true), ...fields });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

async function inflateRaw(data: ArrayBuffer): Promise<Uint8Array> {
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The bytes of one entry (stored or deflated), at most MAX_ENTRY_BYTES. */
export async function readZipEntry(source: ByteSource, entry: ZipEntry): Promise<Uint8Array> {
  if (entry.size > MAX_ENTRY_BYTES || entry.compressedSize > MAX_ENTRY_BYTES) throw new ZipReadError(`${entry.name} is too large to show here.`);
  const local = await bytesAt(source, entry.localHeaderOffset, 30);
  if (local.getUint32(0, true) !== LOCAL_HEADER) throw new ZipReadError(`The local header of ${entry.name} is missing.`);
  const dataStart = entry.localHeaderOffset + 30 + local.getUint16(26, true) + local.getUint16(28, true);
  const raw = (await bytesAt(source, dataStart, entry.compressedSize)).buffer as ArrayBuffer;
  if (entry.method === 0) return new Uint8Array(raw);
  if (entry.method === 8) {
    const inflated = await inflateRaw(raw);
    if (inflated.byteLength !== entry.size) throw new ZipReadError(`${entry.name} does not inflate to the size the directory names.`);
    return inflated;
  }
  throw new ZipReadError(`${entry.name} uses compression method ${entry.method}, which this page does not read.`);
}

/** The named entry parsed as UTF-8 JSON; undefined when the archive has no such entry. */
export async function readZipJson(source: ByteSource, name: string): Promise<{ entries: ZipEntry[]; json: unknown }> {
  const entries = await listZipEntries(source);
  const entry = entries.find((candidate) => candidate.name === name);
  if (!entry) return { entries, json: undefined };
  const bytes = await readZipEntry(source, entry);
  try {
    return { entries, json: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown };
  } catch {
    throw new ZipReadError(`${name} is not valid UTF-8 JSON.`);
  }
}
