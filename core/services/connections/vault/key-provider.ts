import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { readOrCreateSecretFile } from '../../../storage/secret-file.ts';

/**
 * Where the vault's encryption keys come from. Pluggable: the default reads (and on first start
 * creates) a key file in the data dir; deployments pass a key in the environment instead. Every
 * key has an id stored beside each ciphertext, so keys can rotate: the current key encrypts,
 * earlier keys still decrypt.
 */
export interface VaultKey {
  readonly id: string;
  readonly key: Buffer;
}

export interface KeyProvider {
  /** The key new ciphertexts are written with. */
  current(): VaultKey;
  /** The key of an existing ciphertext, or null when this provider no longer has it. */
  byId(id: string): VaultKey | null;
}

const KEY_BYTES = 32;

/** A key id that names the key without revealing it: a short hash. */
export function keyIdOf(key: Buffer): string {
  return `k-${createHash('sha256').update('opl-vault-key-id').update(key).digest('hex').slice(0, 16)}`;
}

function vaultKey(key: Buffer): VaultKey {
  if (key.length !== KEY_BYTES) throw new Error(`a vault key must be ${KEY_BYTES} bytes`);
  return { id: keyIdOf(key), key };
}

/** A fixed set of keys: the first is current. */
export function staticKeyProvider(keys: readonly Buffer[]): KeyProvider {
  if (keys.length === 0) throw new Error('a key provider needs at least one key');
  const all = keys.map(vaultKey);
  const byId = new Map(all.map((key) => [key.id, key]));
  return { current: () => all[0]!, byId: (id) => byId.get(id) ?? null };
}

/** Keys from configuration (`OPL_VAULT_KEY`, `OPL_VAULT_PREVIOUS_KEYS`), base64. */
export function envKeyProvider(current: string, previous: readonly string[] = []): KeyProvider {
  return staticKeyProvider([current, ...previous].map((value) => Buffer.from(value, 'base64')));
}

const keyFileSchema = z.object({
  version: z.literal(1),
  /** Base64 keys, newest first; the first is current. */
  keys: z.array(z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/)).min(1),
});

/**
 * The default: `OPL_DATA_DIR/vault.key`, created with a random key (mode 0600) on first start.
 * Losing the file loses the stored credentials (accounts then need reconnecting), never more.
 */
export async function fileKeyProvider(path: string): Promise<KeyProvider> {
  const text = await readOrCreateSecretFile(path, () => `${JSON.stringify({ version: 1, keys: [randomBytes(KEY_BYTES).toString('base64')] }, null, 2)}\n`);
  let parsed: z.output<typeof keyFileSchema>;
  try {
    parsed = keyFileSchema.parse(JSON.parse(text));
  } catch (error) {
    // The message names the file and what to do, never its content (a JSON error quotes the text).
    throw new Error(`the vault key file ${path} is not valid (${error instanceof z.ZodError ? 'unexpected content' : error instanceof SyntaxError ? 'not JSON' : 'unreadable'}); restore it from a backup or remove it (stored provider credentials are then lost and accounts must be reconnected)`, { cause: error });
  }
  return staticKeyProvider(parsed.keys.map((value) => Buffer.from(value, 'base64')));
}
