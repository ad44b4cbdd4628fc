import { mkdtemp, open, readdir, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Manifest, Playlist, Track } from '@opl/plugin-sdk';
import type { SliceSource } from '@opl/plugin-sdk/sandbox';
import { playlistSchema } from '@opl/plugin-sdk/schemas';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ExportError } from '../../../../core/services/exports/export-error.ts';
import { ExportService, type ExportPluginAccess } from '../../../../core/services/exports/export.service.ts';
import type { OpenTemporaryFile } from '../../../../core/services/exports/temporary-storage.ts';

/**
 * The export service on a temporary filesystem that fills up (SPEC Limits rule 4) or a client that
 * leaves: the build stops at once, says what happened, and leaves no file behind. The files are
 * real; only their writes are counted against the room the "disk" has left.
 */

const FORMATS = ['csv', 'json'] as const;
const manifests = FORMATS.map((name) => ({ id: `opl.format.${name}`, kind: 'format', format: { name, directions: ['export'], extensions: [`.${name}`], media_types: [] } })) as unknown as Manifest[];

const CHUNK = 4 * 1024;

/** A format plugin that writes each playlist as JSON in 4 KiB chunks and, like the sandboxed ones, fails when a chunk is refused. */
function chunkingPlugins(): ExportPluginAccess & { chunks: number } {
  const access = {
    chunks: 0,
    manifests: () => manifests,
    async serializePlaylist(_pluginId: string, input: { playlist: Playlist }, nextSlice: SliceSource, onChunk: (chunk: Uint8Array) => void | Promise<void>) {
      const tracks: Track[] = [];
      for (let slice = await nextSlice(); !slice.done; slice = await nextSlice()) tracks.push(...slice.tracks);
      const playlists = [{ ...input.playlist, tracks }];
      const text = JSON.stringify({ $schema: 'https://x/schemas/bundle.json', schema_version: 1, source_provider: 'import', playlists, warnings: [] }, null, 2);
      const bytes = Buffer.from(text);
      for (let offset = 0; offset < bytes.length; offset += CHUNK) {
        try {
          await onChunk(bytes.subarray(offset, offset + CHUNK));
        } catch (error) {
          // What a plugin sees of a refused chunk: only the engine's message.
          throw new Error(`serialize: the engine refused a chunk (${(error as Error).message})`, { cause: error });
        }
        access.chunks += 1;
      }
      return {};
    },
  };
  return access as unknown as ExportPluginAccess & { chunks: number };
}

function enospc(syscall: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, ${syscall}`), { code: 'ENOSPC', errno: -28, syscall });
}

/**
 * Real temporary files on a "disk" with `room` bytes left for the files `counted` picks (all by
 * default): a write past the room fails with ENOSPC, as the kernel's would.
 */
function fillingDisk(room: number, counted: (name: string) => boolean = () => true): OpenTemporaryFile & { used: () => number } {
  let used = 0;
  const opener = async (path: string): Promise<FileHandle> => {
    const handle = await open(path, 'wx', 0o600);
    if (!counted(basename(path))) return handle;
    const write = handle.write.bind(handle) as (...args: unknown[]) => Promise<unknown>;
    const writev = handle.writev.bind(handle);
    const take = (bytes: number, syscall: string) => {
      if (used + bytes > room) throw enospc(syscall);
      used += bytes;
    };
    // Both the direct writes and those of a write stream on the handle (which batches into writev).
    Object.assign(handle, {
      write: async (data: string | Uint8Array, ...rest: unknown[]) => {
        take(typeof data === 'string' ? Buffer.byteLength(data) : ((rest[1] as number | undefined) ?? data.byteLength - ((rest[0] as number | undefined) ?? 0)), 'write');
        return write(data, ...rest);
      },
      writev: async (buffers: NodeJS.ArrayBufferView[], position?: number) => {
        take(
          buffers.reduce((sum, buffer) => sum + buffer.byteLength, 0),
          'writev',
        );
        return writev(buffers, position);
      },
    });
    return handle;
  };
  return Object.assign(opener, { used: () => used });
}

const playlist = (name: string, count: number): Playlist =>
  playlistSchema.parse({ name, tracks: Array.from({ length: count }, (_, index) => ({ title: `Track ${index} of ${name} ${Math.random()}`, artist: `Artist ${Math.random()}` })) });

describe('exports on a full or failing temporary filesystem, and a client that leaves', () => {
  let root: string;
  let service: ExportService | null = null;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'opl-export-storage-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(async () => {
    process.off('unhandledRejection', onUnhandled);
    await service?.close();
    service = null;
  });

  const serviceWith = (playlists: Playlist[], plugins: ExportPluginAccess, openFile?: OpenTemporaryFile) =>
    (service = new ExportService({
      records: { get: async () => ({ id: 'rec', name: 'Library.m3u8', playlists }) as never },
      plugins,
      maxPlaylists: 100,
      schemaBaseUrl: 'https://x/schemas',
      tempRoot: root,
      ...(openFile ? { openFile } : {}),
    }));

  /** The rejection of `work`, once the event loop has had the chance to report a stray one too. */
  const failureOf = async (work: Promise<unknown>): Promise<unknown> => {
    const error = await work.then(
      () => null,
      (reason: unknown) => reason,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    return error;
  };
  const leftBehind = async (directory: string) => readdir(directory, { recursive: true }).catch(() => []);
  const fullDisk = { reason: 'temporary_storage_full', extensions: { errno: 'ENOSPC' } };

  it('the archive file failing part-way (ENOSPC) ends the build at once: 503-class error, no stray rejection, no file left', async () => {
    const plugins = chunkingPlugins();
    // Room for the archive's first bytes only; the playlists' own files have room.
    const disk = fillingDisk(200, (name) => name === 'archive.zip');
    const exports = serviceWith([playlist('One', 3_000), playlist('Two', 3_000), playlist('Three', 3_000), playlist('Four', 3_000)], plugins, disk);
    const error = await failureOf(exports.export('owner', { source_provider: 'import', source_account_id: 'rec', format: 'csv' }));
    expect(error).toBeInstanceOf(ExportError);
    expect(error).toMatchObject(fullDisk);
    expect((error as Error).message).toMatch(/^The server's temporary space is full \(ENOSPC\)/);
    expect((error as Error).message).not.toContain(root); // no server paths in what a client reads
    expect(unhandled).toEqual([]);
    expect(disk.used()).toBeGreaterThan(0);
    // Stopped at once: the plugin did not go on to write every playlist.
    expect(plugins.chunks).toBeLessThan(4 * 3_000);
    expect(await leftBehind(exports.temporaryDirectory)).toEqual([]);
  });

  it.each(FORMATS)('a full disk while the plugin writes one playlist of an archive (%s) is the server\'s full disk, not write_failed', async (format) => {
    const plugins = chunkingPlugins();
    const exports = serviceWith([playlist('One', 500), playlist('Two', 500), playlist('Three', 500)], plugins, fillingDisk(96 * 1024));
    const error = await failureOf(exports.export('owner', { source_provider: 'import', source_account_id: 'rec', format }));
    expect(error).toMatchObject(fullDisk);
    expect(unhandled).toEqual([]);
    expect(await leftBehind(exports.temporaryDirectory)).toEqual([]);
  });

  it('a full disk while writing the one playlist of a single-file export is the server\'s full disk, not the plugin\'s failure', async () => {
    const plugins = chunkingPlugins();
    const exports = serviceWith([playlist('Only', 2_000)], plugins, fillingDisk(CHUNK * 3));
    const error = await failureOf(exports.export('owner', { source_provider: 'import', source_account_id: 'rec', format: 'csv' }));
    expect(error).toMatchObject(fullDisk);
    expect((error as Error).message).not.toMatch(/plugin could not write/);
    // The plugin was stopped at the first refused chunk.
    expect(plugins.chunks).toBe(3);
    expect(await leftBehind(exports.temporaryDirectory)).toEqual([]);
  });

  it('another I/O error of the temporary files is temporary_storage_failed, naming the errno only', async () => {
    const failing: OpenTemporaryFile = async () => {
      throw Object.assign(new Error(`EIO: i/o error, open '${root}/x'`), { code: 'EIO', errno: -5, syscall: 'open' });
    };
    const exports = serviceWith([playlist('Only', 10)], chunkingPlugins(), failing);
    const error = await failureOf(exports.export('owner', { source_provider: 'import', source_account_id: 'rec', format: 'csv' }));
    expect(error).toMatchObject({ reason: 'temporary_storage_failed', extensions: { errno: 'EIO' } });
    expect((error as Error).message).not.toContain(root);
  });

  it('a single-playlist export stops writing as soon as the client leaves, and keeps nothing', async () => {
    const plugins = chunkingPlugins();
    const left = new AbortController();
    const leaving = new Error('the client closed the connection');
    const base = plugins.serializePlaylist.bind(plugins);
    // The client leaves while the plugin is writing its first chunk.
    plugins.serializePlaylist = (pluginId, input, nextSlice, onChunk) =>
      base(pluginId, input, nextSlice, async (chunk) => {
        left.abort(leaving);
        await onChunk(chunk);
      });
    const exports = serviceWith([playlist('Only', 2_000)], plugins);
    const error = await failureOf(exports.export('owner', { source_provider: 'import', source_account_id: 'rec', format: 'csv' }, { signal: left.signal }));
    expect(error).toBe(leaving);
    // Without stopping, every chunk of this ~150 KiB file would have been written.
    expect(plugins.chunks).toBe(0);
    expect(await leftBehind(exports.temporaryDirectory)).toEqual([]);
  });

  it('a single-playlist export that the client left before reading does not read or write at all', async () => {
    const plugins = chunkingPlugins();
    const left = new AbortController();
    left.abort(new Error('gone'));
    const exports = serviceWith([playlist('Only', 10)], plugins);
    await expect(exports.export('owner', { source_provider: 'import', source_account_id: 'rec', format: 'csv' }, { signal: left.signal })).rejects.toThrow('gone');
    expect(plugins.chunks).toBe(0);
    expect(await leftBehind(exports.temporaryDirectory)).toEqual([]);
  });
});
