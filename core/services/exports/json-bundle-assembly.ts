import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { BUNDLE_SCHEMA_PATH, OPEN_PLAYLIST_SCHEMA_VERSION, type ExportWarning } from '@opl/plugin-sdk/schemas';
import { BundlePlaylistScanner } from './bundle-playlist-scanner.ts';

/**
 * A multi-playlist JSON bundle written one playlist at a time. The serialize operation takes every
 * playlist of a bundle in one call, which would hold a whole 100-playlist export in memory; so the
 * `json` format plugin writes each playlist as a one-playlist bundle, and this assembly copies that
 * playlist object's text, unchanged, into the archive's bundle. The envelope is the bundle v1 document
 * (SPEC "Open Playlist JSON bundle v1"); warnings come last because some are only known at the end.
 */
export class JsonBundleAssembly {
  readonly #handle: FileHandle;
  #count = 0;

  private constructor(handle: FileHandle) {
    this.#handle = handle;
  }

  static async start(handle: FileHandle, schemaBaseUrl: string, sourceProvider: string): Promise<JsonBundleAssembly> {
    const assembly = new JsonBundleAssembly(handle);
    await handle.write(
      `{\n  "$schema": ${JSON.stringify(schemaBaseUrl + BUNDLE_SCHEMA_PATH)},\n  "schema_version": ${OPEN_PLAYLIST_SCHEMA_VERSION},\n  "source_provider": ${JSON.stringify(sourceProvider)},\n  "playlists": [`,
    );
    return assembly;
  }

  /**
   * Adds the playlist of a one-playlist bundle file the format plugin wrote. The plugin's output is
   * already the serializer's rendering of a validated Playlist, so its text is streamed across as
   * it is read, never parsed again (that held a 10,000-track playlist several times over): a
   * structural scan makes sure exactly one balanced playlist object is what gets copied.
   */
  async addFrom(bundleFile: string): Promise<void> {
    await this.#handle.write(`${this.#count === 0 ? '' : ','}\n    `);
    const scanner = new BundlePlaylistScanner();
    for await (const chunk of createReadStream(bundleFile, { highWaterMark: 64 * 1024 })) {
      for (const piece of scanner.push(chunk as Buffer)) await this.#handle.write(piece);
    }
    const problem = scanner.end();
    if (problem !== null) throw new Error(`the json format plugin wrote something other than a one-playlist bundle v1 (${problem})`);
    this.#count += 1;
  }

  async finish(warnings: readonly ExportWarning[]): Promise<void> {
    const list = warnings.map((warning) => `    ${JSON.stringify(warning)}`).join(',\n');
    await this.#handle.write(`${this.#count === 0 ? '' : '\n  '}],\n  "warnings": [${list === '' ? '' : `\n${list}\n  `}]\n}\n`);
  }
}
