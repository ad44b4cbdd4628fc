import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** The upload passed the byte limit; reading stopped there. */
export class UploadTooLargeError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`the upload exceeds ${limit} bytes`);
    this.name = 'UploadTooLargeError';
    this.limit = limit;
  }
}

/** The client went away (or the connection broke) before the upload ended. */
export class UploadAbortedError extends Error {
  constructor() {
    super('the upload was aborted before it ended');
    this.name = 'UploadAbortedError';
  }
}

export interface SpoolOptions {
  /** Bytes kept in memory; beyond this the upload moves to a temporary file. */
  memoryBytes: number;
  /** Bytes accepted in all; one more aborts the spool with `UploadTooLargeError`. */
  maxBytes: number;
  /** Private directory (mode 0700) of the temporary files. */
  directory: string;
}

/**
 * An upload held in memory up to a threshold and in a private temporary file (mode 0600) beyond
 * it. `dispose()` removes the file; callers dispose in `finally`, so every outcome cleans up.
 */
export class SpooledUpload {
  readonly #options: SpoolOptions;
  #chunks: Buffer[] = [];
  #memory = 0;
  #size = 0;
  #file: { path: string; handle: FileHandle | null } | null = null;
  #disposed = false;

  constructor(options: SpoolOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#size;
  }

  /** Where the bytes are, for tests and diagnostics. */
  get onDisk(): boolean {
    return this.#file !== null;
  }

  /** Adds a chunk; returns a promise when it had to touch the disk (the caller pauses until then). */
  append(chunk: Buffer): Promise<void> | undefined {
    this.#size += chunk.length;
    if (this.#file) return this.#write(chunk);
    this.#chunks.push(chunk);
    this.#memory += chunk.length;
    if (this.#memory <= this.#options.memoryBytes) return undefined;
    return this.#spill();
  }

  async #spill(): Promise<void> {
    await mkdir(this.#options.directory, { recursive: true, mode: 0o700 });
    const path = join(this.#options.directory, `${randomUUID()}.upload`);
    this.#file = { path, handle: null };
    this.#file.handle = await open(path, 'wx', 0o600);
    const pending = Buffer.concat(this.#chunks);
    this.#chunks = [];
    this.#memory = 0;
    await this.#write(pending);
  }

  async #write(chunk: Buffer): Promise<void> {
    const handle = this.#file?.handle;
    if (!handle) throw new Error('the spool file is not open');
    let offset = 0;
    while (offset < chunk.length) offset += (await handle.write(chunk, offset)).bytesWritten;
  }

  /** Closes the file (if any) so its bytes can be read. */
  async finish(): Promise<void> {
    await this.#file?.handle?.close();
    if (this.#file) this.#file.handle = null;
  }

  /** The first `length` bytes (fewer when the upload is shorter): enough to tell the format without reading it all. */
  async head(length: number): Promise<Uint8Array> {
    if (!this.#file) return new Uint8Array(Buffer.concat(this.#chunks).subarray(0, length));
    const handle = await open(this.#file.path, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(length, this.#size));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead);
    } finally {
      await handle.close();
    }
  }

  /** The whole upload (bounded by `maxBytes`), as a fresh byte array. */
  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    if (this.#file) return new Uint8Array(await readFile(this.#file.path));
    return new Uint8Array(Buffer.concat(this.#chunks));
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#chunks = [];
    const file = this.#file;
    this.#file = null;
    if (!file) return;
    await file.handle?.close().catch(() => undefined);
    await rm(file.path, { force: true });
  }
}

/**
 * Reads `source` into a spool, counting bytes as they arrive. Past `maxBytes` it stops reading at
 * once (the source is paused, never drained into memory) and rejects with `UploadTooLargeError`;
 * the caller answers and closes the connection. A broken or aborted source rejects with
 * `UploadAbortedError`. On rejection the spool is already disposed.
 */
export function spoolUpload(source: Readable, options: SpoolOptions): Promise<SpooledUpload> {
  const spool = new SpooledUpload(options);
  return new Promise((resolve, reject) => {
    let settled = false;
    let writing: Promise<void> = Promise.resolve();
    const detach = () => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onAbort);
      source.off('close', onClose);
      source.off('aborted', onAbort);
    };
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      detach();
      source.pause();
      void writing
        .catch(() => undefined)
        .then(() => spool.dispose())
        .finally(() => reject(error));
    };
    const onData = (chunk: Buffer | string) => {
      if (settled) return;
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (spool.size + bytes.length > options.maxBytes) {
        fail(new UploadTooLargeError(options.maxBytes));
        return;
      }
      const pending = spool.append(bytes);
      if (!pending) return;
      source.pause();
      writing = pending.then(
        () => {
          if (!settled) source.resume();
        },
        (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
      );
    };
    const onEnd = () => {
      if (settled) return;
      void writing
        .then(() => spool.finish())
        .then(
          () => {
            if (settled) return;
            settled = true;
            detach();
            resolve(spool);
          },
          (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
        );
    };
    const onAbort = () => fail(new UploadAbortedError());
    const onClose = () => {
      if (!source.readableEnded) fail(new UploadAbortedError());
    };
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onAbort);
    source.on('close', onClose);
    source.on('aborted', onAbort);
    source.resume();
  });
}
