import { keyIdSchema } from '../manifest.schema.ts';
import { describeIssues } from './describe-issues.ts';
import { readJsonFile, writeJsonFileAtomic } from './json-file.ts';
import { type KeyRecord } from './key.schema.ts';
import { PluginToolError } from './tool-error.ts';
import { emptyTrustStore, type TrustStore, trustStoreSchema } from './trust-store.schema.ts';

/** Trust store edits are pure (store in, store out); reading and writing the file is separate. */

/** Adds a publisher key to the trust store. Re-adding the same key is a no-op; a different key under the same id is refused. */
export function trustKey(store: TrustStore, record: KeyRecord, options: { addedAt?: Date; testOnly?: boolean } = {}): TrustStore {
  const existing = store.keys.find((key) => key.key_id === record.key_id);
  if (existing) {
    if (existing.public_key === record.public_key) return store;
    throw new PluginToolError(`The trust store already holds a different public key under the id "${record.key_id}"; revoke or remove it before trusting another key with that id.`);
  }
  if (record.revoked_at) throw new PluginToolError(`Key "${record.key_id}" was revoked by its publisher on ${record.revoked_at}; it cannot be trusted.`);
  return {
    ...store,
    keys: [
      ...store.keys,
      {
        key_id: record.key_id,
        publisher: record.publisher,
        public_key: record.public_key,
        added_at: (options.addedAt ?? new Date()).toISOString(),
        test_only: options.testOnly ?? record.test_only,
      },
    ],
  };
}

/**
 * Revokes a key locally. The key stays listed (so its id cannot be silently re-added) and every
 * plugin it signed — and every key it endorsed — stops loading.
 */
export function revokeKeyInTrustStore(store: TrustStore, keyId: string, reason: string, options: { revokedAt?: Date } = {}): TrustStore {
  if (!keyIdSchema.safeParse(keyId).success) throw new PluginToolError(`"${keyId}" is not a valid key id.`);
  if (reason.trim() === '') throw new PluginToolError('A revocation needs a reason (--reason), so that admins know why plugins stopped loading.');
  if (store.revoked.some((entry) => entry.key_id === keyId)) return store;
  return { ...store, revoked: [...store.revoked, { key_id: keyId, reason: reason.trim(), revoked_at: (options.revokedAt ?? new Date()).toISOString() }] };
}

/** Reads a trust store file. A missing file is an empty store only when `missingOk` (e.g. `trust add` creating it). */
export async function readTrustStore(path: string, options: { missingOk?: boolean } = {}): Promise<TrustStore> {
  const json = await readJsonFile(path, 'The trust store');
  if (json === null) {
    if (options.missingOk) return emptyTrustStore();
    throw new PluginToolError(`The trust store ${path} does not exist; create it with \`opl-plugin trust add <key.pub.json> --trust ${path}\`.`);
  }
  const parsed = trustStoreSchema.safeParse(json);
  if (!parsed.success) throw new PluginToolError(`The trust store ${path} is not valid: ${describeIssues(parsed.error)}.`);
  return parsed.data;
}

export async function writeTrustStore(path: string, store: TrustStore): Promise<void> {
  await writeJsonFileAtomic(path, trustStoreSchema.parse(store));
}
