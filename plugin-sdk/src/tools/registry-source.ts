import { type BundleSource } from './bundle-source.ts';
import { type KeyRecord } from './key.schema.ts';
import { type KeyRecordLookup } from './key-trust.ts';
import { type RegistryIndex } from './registry.schema.ts';

/**
 * A registry as the engine and the tools read it: the same four reads whether it is a local
 * directory or the same layout over HTTPS. Implementations validate ids, versions and paths
 * before touching the transport and throw on malformed documents.
 */
export interface RegistrySource extends KeyRecordLookup {
  /** A directory or a base URL, for messages. */
  readonly location: string;
  /** The index; an empty index when the registry has none yet. */
  readIndex(): Promise<RegistryIndex>;
  /** `keys/<key_id>.json`, or null when the registry has no record of the key. */
  readKeyRecord(keyId: string): Promise<KeyRecord | null>;
  /** One file of `plugins/<id>/<version>/`, or null when it does not exist. */
  readBundleFile(id: string, version: string, path: string): Promise<Uint8Array | null>;
  /** The files of `plugins/<id>/<version>/`, or null when the transport cannot list (HTTPS). */
  listBundleFiles(id: string, version: string): Promise<string[] | null>;
}

/** One published version of a registry as a `BundleSource`, for `verifyBundle`. */
export function registryBundleSource(registry: RegistrySource, id: string, version: string): BundleSource {
  return {
    location: `${registry.location} (${id}@${version})`,
    readFile: (path) => registry.readBundleFile(id, version, path),
    listFiles: () => registry.listBundleFiles(id, version),
  };
}
