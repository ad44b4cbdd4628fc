import { readFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { BUNDLE_SCHEMA_PATH, OPEN_PLAYLIST_SCHEMA_VERSION, openPlaylistBundleSchema, type ExportWarning } from '@opl/plugin-sdk/schemas';

/**
 * A multi-playlist JSON bundle written one playlist at a time. The serialize operation takes every
 * playlist of a bundle in one call, which would hold a whole 100-playlist export in memory; so the
 * `json` format plugin writes each playlist as a one-playlist bundle, and this assembly copies that
 * playlist object, unchanged, into the archive's bundle. The envelope is the bundle v1 document
 * (SPEC "Open Playlist JSON bundle v1"); warnings come last because some are only known at the end.
 */
export class JsonBundleAssembly {
  readonly #handle: FileHandle;
  #count = 0;

  private constructor(handle: FileHandle) {
    this.#handle = handle;
  }

  static async start(handle: FileHandle, schemaBaseUrl: string, sourceProvider: string | null): Promise<JsonBundleAssembly> {
    const assembly = new JsonBundleAssembly(handle);
    await handle.write(
      `{\n  "$schema": ${JSON.stringify(schemaBaseUrl + BUNDLE_SCHEMA_PATH)},\n  "schema_version": ${OPEN_PLAYLIST_SCHEMA_VERSION},\n  "source_provider": ${JSON.stringify(sourceProvider)},\n  "playlists": [`,
    );
    return assembly;
  }

  /** Adds the playlist of a one-playlist bundle file the format plugin wrote (checked against bundle v1). */
  async addFrom(bundleFile: string): Promise<void> {
    const raw: unknown = JSON.parse(await readFile(bundleFile, 'utf8'));
    const checked = openPlaylistBundleSchema.safeParse(raw);
    if (!checked.success || checked.data.playlists.length !== 1) {
      throw new Error(`the json format plugin wrote something other than a one-playlist bundle v1 (${checked.success ? `${checked.data.playlists.length} playlists` : checked.error.issues[0]?.message})`);
    }
    // The plugin's own text of the playlist (not the parsed defaults): JSON does not alter values.
    const playlist = (raw as { playlists: unknown[] }).playlists[0];
    await this.#handle.write(`${this.#count === 0 ? '' : ','}\n    ${JSON.stringify(playlist)}`);
    this.#count += 1;
  }

  async finish(warnings: readonly ExportWarning[]): Promise<void> {
    const list = warnings.map((warning) => `    ${JSON.stringify(warning)}`).join(',\n');
    await this.#handle.write(`${this.#count === 0 ? '' : '\n  '}],\n  "warnings": [${list === '' ? '' : `\n${list}\n  `}]\n}\n`);
  }
}
