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
