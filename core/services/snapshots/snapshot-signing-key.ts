import nacl from 'tweetnacl';
import { z } from 'zod';
import { readOrCreateSecretFile } from '../../storage/secret-file.ts';
import { signingKeyFromSecret, type SnapshotSigningKey } from './archive/index.ts';

const keyFileSchema = z.strictObject({
  version: z.literal(1),
  algorithm: z.literal('ed25519'),
  secret_key: z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/),
  created_at: z.string(),
});

/** What may be shown of the instance's key: never its secret half. */
export interface SigningKeyView {
  algorithm: 'ed25519';
  key_id: string;
  public_key: string;
}

export function signingKeyView(key: SnapshotSigningKey): SigningKeyView {
  return { algorithm: 'ed25519', key_id: key.keyId, public_key: key.publicKey };
}

/**
 * The instance's snapshot signing key (`OPL_DATA_DIR/snapshot-signing.key`): generated once, on
 * first use, readable by the engine's user only, and never exported, logged or sent. Two processes
 * starting together agree on one key: the file is published with link(), which fails when the
 * other process published first, and then its key wins.
 */
export async function loadSigningKey(path: string): Promise<SnapshotSigningKey> {
  const text = await readOrCreateSecretFile(path, () => {
    const pair = nacl.sign.keyPair();
    const body = { version: 1, algorithm: 'ed25519', secret_key: Buffer.from(pair.secretKey).toString('base64'), created_at: new Date().toISOString() };
    return `${JSON.stringify(body, null, 2)}\n`;
  });
  try {
    const parsed = keyFileSchema.parse(JSON.parse(text));
    return signingKeyFromSecret(Buffer.from(parsed.secret_key, 'base64'));
  } catch (error) {
    // The message names the file and what to do, never its content.
    throw new Error(`the snapshot signing key file ${path} is not valid (${error instanceof z.ZodError ? 'unexpected content' : error instanceof SyntaxError ? 'not JSON' : 'not an ed25519 key'}); restore it from a backup, or remove it to make a new key (archives signed before then still verify with their own key)`, { cause: error });
  }
}
