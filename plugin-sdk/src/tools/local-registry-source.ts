import { join } from 'node:path';
import { bundlePathSchema, keyIdSchema, pluginIdSchema, semverSchema } from '../manifest.schema.ts';
import { describeIssues } from './describe-issues.ts';
import { decodeUtf8 } from './encoding.ts';
import { type KeyRecord, keyRecordSchema } from './key.schema.ts';
import { type RegistrySource } from './registry-source.ts';
import { emptyRegistryIndex, type RegistryIndex, registryIndexSchema } from './registry.schema.ts';
import { listFilesInside, readFileInside, locate } from './safe-path.ts';
import { PluginToolError } from './tool-error.ts';

/** Registry layout names, shared by the reader and the publisher. */
export const REGISTRY_INDEX_FILE = 'index.json';
export const REGISTRY_KEYS_DIR = 'keys';
export const REGISTRY_PLUGINS_DIR = 'plugins';

function checked<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, value: string, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new PluginToolError(`"${value}" is not a valid ${what}.`);
  return parsed.data;
}

export function bundleDirIn(registryDir: string, id: string, version: string): string {
  return join(registryDir, REGISTRY_PLUGINS_DIR, checked(pluginIdSchema, id, 'plugin id'), checked(semverSchema, version, 'version'));
}

async function readJsonInside(root: string, path: string, what: string): Promise<unknown> {
  const bytes = await readFileInside(root, path);
  if (bytes === null) return null;
  const text = decodeUtf8(bytes);
  try {
    if (text === null) throw new Error('not UTF-8');
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new PluginToolError(`${what} in ${root} is not valid JSON: ${(error as Error).message}.`, { cause: error });
  }
}

/**
 * A registry in a local directory. Ids, versions, key ids and paths are validated before any
 * file is opened, and every read is confined to the registry (a symlink pointing elsewhere is
 * refused), so a hostile registry checkout cannot make the engine read other files.
 */
export function createLocalRegistrySource(registryDir: string): RegistrySource {
  const bundleRoot = async (id: string, version: string): Promise<string | null> => {
    const dir = bundleDirIn(registryDir, id, version);
    const where = await locate(registryDir, dir);
    if (where === 'outside') throw new PluginToolError(`The bundle directory of ${id}@${version} resolves outside the registry ${registryDir}; refusing to read it.`);
    return where === 'inside' ? dir : null;
  };
  return {
    location: registryDir,

    async readIndex(): Promise<RegistryIndex> {
      const json = await readJsonInside(registryDir, REGISTRY_INDEX_FILE, REGISTRY_INDEX_FILE);
      if (json === null) return emptyRegistryIndex();
      const parsed = registryIndexSchema.safeParse(json);
      if (!parsed.success) throw new PluginToolError(`${REGISTRY_INDEX_FILE} of the registry ${registryDir} is not valid: ${describeIssues(parsed.error)}.`);
      return parsed.data;
    },

    async readKeyRecord(keyId: string): Promise<KeyRecord | null> {
      const id = checked(keyIdSchema, keyId, 'key id');
      const path = `${REGISTRY_KEYS_DIR}/${id}.json`;
      const json = await readJsonInside(registryDir, path, path);
      if (json === null) return null;
      const parsed = keyRecordSchema.safeParse(json);
      if (!parsed.success) throw new PluginToolError(`${path} of the registry ${registryDir} is not valid: ${describeIssues(parsed.error)}.`);
      if (parsed.data.key_id !== id) throw new PluginToolError(`${path} of the registry ${registryDir} holds key "${parsed.data.key_id}", not "${id}".`);
      return parsed.data;
    },

    async readBundleFile(id: string, version: string, path: string): Promise<Uint8Array | null> {
      // manifest.json and signature.json are valid bundle paths too, so one check covers all files.
      const file = checked(bundlePathSchema, path, 'bundle file path');
      const root = await bundleRoot(id, version);
      return root === null ? null : readFileInside(root, file);
    },

    async listBundleFiles(id: string, version: string): Promise<string[] | null> {
      const root = await bundleRoot(id, version);
      return root === null ? [] : listFilesInside(root);
    },
  };
}
