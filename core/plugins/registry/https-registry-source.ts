import { keyRecordSchema, registryIndexSchema, type KeyRecord, type RegistryIndex, type RegistrySource } from '@opl/plugin-sdk/tools';
import type { Dispatcher } from 'undici';
import { HttpsRegistryFetch, RegistryFetchError } from './https-registry-fetch.ts';

const MAX_INDEX_BYTES = 1024 * 1024;
const MAX_KEY_BYTES = 64 * 1024;
const MAX_BUNDLE_FILE_BYTES = 32 * 1024 * 1024;

function parseJson<T>(bytes: Uint8Array, what: string, schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { message: string } } }): T {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new RegistryFetchError(`${what} of the remote registry is not UTF-8 JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new RegistryFetchError(`${what} of the remote registry does not match its schema`);
  return parsed.data;
}

/**
 * The registry layout served over HTTPS (`OPL_REGISTRY_URL`). It cannot list a bundle's files, so
 * verification checks exactly the files the signed manifest lists, and nothing else is fetched.
 */
export function createHttpsRegistrySource(options: { baseUrl: string; dispatcher?: Dispatcher; timeoutMs?: number }): RegistrySource {
  const http = new HttpsRegistryFetch(options);
  return {
    location: http.location,
    async readIndex(): Promise<RegistryIndex> {
      const bytes = await http.read(['index.json'], MAX_INDEX_BYTES);
      return bytes === null ? registryIndexSchema.parse({ registry_version: 1, plugins: {} }) : parseJson(bytes, 'index.json', registryIndexSchema);
    },
    async readKeyRecord(keyId: string): Promise<KeyRecord | null> {
      const bytes = await http.read(['keys', `${keyId}.json`], MAX_KEY_BYTES);
      return bytes === null ? null : parseJson(bytes, `keys/${keyId}.json`, keyRecordSchema);
    },
    async readBundleFile(id: string, version: string, path: string): Promise<Uint8Array | null> {
      return http.read(['plugins', id, version, ...path.split('/')], MAX_BUNDLE_FILE_BYTES);
    },
    async listBundleFiles(): Promise<string[] | null> {
      return null;
    },
  };
}
