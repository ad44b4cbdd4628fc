import { join } from 'node:path';
import { keyIdSchema } from '../manifest.schema.ts';
import { writeJsonFileAtomic } from './json-file.ts';
import { type KeyRecord, keyRecordSchema } from './key.schema.ts';
import { createLocalRegistrySource, REGISTRY_KEYS_DIR } from './local-registry-source.ts';
import { PluginToolError } from './tool-error.ts';

/** Publisher key records in a registry directory (`keys/<key_id>.json`). */

/** The record marked revoked. Revocation is final: a revoked record keeps its first date and reason. */
export function revokeKeyRecord(record: KeyRecord, reason: string, options: { revokedAt?: Date } = {}): KeyRecord {
  if (reason.trim() === '') throw new PluginToolError('A revocation needs a reason (--reason), so that admins know why plugins stopped loading.');
  if (record.revoked_at) return record;
  return { ...record, revoked_at: (options.revokedAt ?? new Date()).toISOString(), revocation_reason: reason.trim() };
}

/**
 * Stores a key record in the registry. A record for the same key id must hold the same public
 * key (ids are permanent); an existing revocation is never lifted by a newer write.
 * Returns whether the record was added, updated or already identical.
 */
export async function putRegistryKeyRecord(registryDir: string, record: KeyRecord): Promise<'added' | 'updated' | 'unchanged'> {
  const next = keyRecordSchema.parse(record);
  const existing = await createLocalRegistrySource(registryDir).readKeyRecord(next.key_id);
  if (existing && existing.public_key !== next.public_key) {
    throw new PluginToolError(`The registry ${registryDir} already has a different public key under the id "${next.key_id}"; key ids cannot be reused.`);
  }
  const merged: KeyRecord = existing?.revoked_at ? { ...next, revoked_at: existing.revoked_at, revocation_reason: existing.revocation_reason } : next;
  if (existing && JSON.stringify(keyRecordSchema.parse(existing)) === JSON.stringify(merged)) return 'unchanged';
  await writeJsonFileAtomic(join(registryDir, REGISTRY_KEYS_DIR, `${next.key_id}.json`), merged);
  return existing ? 'updated' : 'added';
}

/** Marks a key revoked in the registry, so that every engine reading it stops trusting the key. */
export async function revokeRegistryKey(registryDir: string, keyId: string, reason: string, options: { revokedAt?: Date } = {}): Promise<KeyRecord> {
  if (!keyIdSchema.safeParse(keyId).success) throw new PluginToolError(`"${keyId}" is not a valid key id.`);
  const existing = await createLocalRegistrySource(registryDir).readKeyRecord(keyId);
  if (!existing) throw new PluginToolError(`The registry ${registryDir} has no record of key "${keyId}".`);
  const revoked = revokeKeyRecord(existing, reason, options);
  await writeJsonFileAtomic(join(registryDir, REGISTRY_KEYS_DIR, `${keyId}.json`), revoked);
  return revoked;
}
