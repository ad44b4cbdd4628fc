import { execFile } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';

/** Helpers the export tests share: the exported archive opened by the real `unzip`, and the temp-dir checks. */

const run = promisify(execFile);

export interface Unzipped {
  tested: string;
  names: string[];
  manifest: unknown;
  file: string;
  read(name: string): Promise<string>;
}

/**
 * The end of a ZIP64 archive as the format lays it out (APPNOTE 4.3.14–4.3.16), checked by position,
 * not by finding signatures somewhere in the bytes: the end of central directory record (no
 * comment) closes the file, the ZIP64 locator sits right before it and points at the ZIP64 record,
 * which ends where the locator starts, counts `entries`, and follows the central directory.
 */
export function expectZip64End(bytes: Buffer, entries: number): void {
  const eocd = bytes.length - 22;
  expect(bytes.readUInt32LE(eocd)).toBe(0x06054b50);
  expect(bytes.readUInt16LE(eocd + 20)).toBe(0); // no comment: the record really is the last 22 bytes
  const locator = eocd - 20;
  expect(bytes.readUInt32LE(locator)).toBe(0x07064b50);
  expect(bytes.readUInt32LE(locator + 4)).toBe(0); // the disk holding the ZIP64 record
  expect(bytes.readUInt32LE(locator + 16)).toBe(1); // disks in all
  const record = Number(bytes.readBigUInt64LE(locator + 8));
  expect(bytes.readUInt32LE(record)).toBe(0x06064b50);
  // Its size field counts the bytes after the first 12: the record ends where the locator starts.
  expect(record + 12 + Number(bytes.readBigUInt64LE(record + 4))).toBe(locator);
  expect(Number(bytes.readBigUInt64LE(record + 24))).toBe(entries); // entries on this disk
  expect(Number(bytes.readBigUInt64LE(record + 32))).toBe(entries); // entries in all
  const directorySize = Number(bytes.readBigUInt64LE(record + 40));
  const directoryStart = Number(bytes.readBigUInt64LE(record + 48));
  expect(directoryStart + directorySize).toBe(record);
  expect(bytes.readUInt32LE(directoryStart)).toBe(0x02014b50); // a central directory file header
}

export async function unzipArchive(scratch: string, bytes: Buffer): Promise<Unzipped> {
  const file = join(scratch, `archive-${Math.random().toString(36).slice(2)}.zip`);
  await writeFile(file, bytes);
  const tested = await run('unzip', ['-t', file]);
  const listed = await run('unzip', ['-Z1', file]);
  const read = async (name: string) => (await run('unzip', ['-p', file, name], { maxBuffer: 64 * 1024 * 1024 })).stdout;
  return { tested: tested.stdout, names: listed.stdout.trim().split('\n'), manifest: JSON.parse(await read('manifest.json')) as unknown, file, read };
}

async function entriesOf(directory: string): Promise<string[]> {
  try {
    return await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** The export service's temporary directory empties (removal after a response is asynchronous). */
export async function expectNoTemporaryFiles(directory: string, attempts = 100): Promise<void> {
  for (let attempt = 0; attempt < attempts && (await entriesOf(directory)).length > 0; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(await entriesOf(directory)).toEqual([]);
}

export interface DownloadResponse {
  status: number;
  headers: Headers;
  bytes: Buffer;
  json<T>(): T;
}

/** POSTs a JSON body and keeps the raw bytes (files and archives are not text). */
export async function postForFile(url: string, body: unknown): Promise<DownloadResponse> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, json: <T>() => JSON.parse(bytes.toString('utf8')) as T };
}
