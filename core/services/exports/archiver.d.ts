/** The part of archiver 8 (an untyped ES module) the export service uses. */
declare module 'archiver' {
  import type { Readable, Transform } from 'node:stream';

  export interface ZipArchiveOptions {
    forceZip64?: boolean;
    zlib?: { level?: number };
    store?: boolean;
  }

  export interface EntryData {
    name: string;
    date?: Date | string;
    mode?: number;
  }

  export class ZipArchive extends Transform {
    constructor(options?: ZipArchiveOptions);
    append(source: Readable | Buffer | string, data: EntryData): this;
    finalize(): Promise<void>;
    abort(): this;
    pointer(): number;
  }
}
