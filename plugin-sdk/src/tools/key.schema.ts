import { z } from 'zod';
import { keyIdSchema } from '../manifest.schema.ts';
import { isBase64OfLength } from './encoding.ts';

/**
 * Publisher keys as files: the registry's public key records (`keys/<key_id>.json`, also written
 * next to a secret key as `<name>.pub.json`), the secret key file `keygen` writes, and the
 * endorsement an older key gives a newer one when a publisher rotates keys.
 */

export const isoTimestampSchema = z.iso.datetime({ offset: true });

export const publicKeySchema = z.string().refine((value) => isBase64OfLength(value, 32), 'expected a base64 ed25519 public key (32 bytes)');
export const secretKeySchema = z.string().refine((value) => isBase64OfLength(value, 64), 'expected a base64 ed25519 secret key (64 bytes)');
export const signatureBytesSchema = z.string().refine((value) => isBase64OfLength(value, 64), 'expected a base64 ed25519 signature (64 bytes)');

export const ENDORSEMENT_TYPE = 'opl.key-endorsement/v1';

/** The older key's signature over `canonicalJson({type, key_id, public_key, endorsed_at})` of the newer key. */
export const endorsementSchema = z.strictObject({
  key_id: keyIdSchema,
  endorsed_at: isoTimestampSchema,
  signature: signatureBytesSchema,
});

export const keyRecordSchema = z.object({
  key_id: keyIdSchema,
  publisher: z.string().min(1).max(200),
  algorithm: z.literal('ed25519'),
  public_key: publicKeySchema,
  created_at: isoTimestampSchema,
  revoked_at: isoTimestampSchema.nullable().default(null),
  revocation_reason: z.string().max(1_000).nullable().default(null),
  endorsement: endorsementSchema.nullable().default(null),
  /** Keys generated for tests and local development; shown as such wherever they are trusted. */
  test_only: z.boolean().default(false),
});

export const secretKeyFileSchema = z.object({
  key_id: keyIdSchema,
  publisher: z.string().min(1).max(200),
  algorithm: z.literal('ed25519'),
  public_key: publicKeySchema,
  secret_key: secretKeySchema,
  created_at: isoTimestampSchema,
  test_only: z.boolean().default(false),
});

export type Endorsement = z.output<typeof endorsementSchema>;
export type KeyRecord = z.output<typeof keyRecordSchema>;
export type SecretKeyFile = z.output<typeof secretKeyFileSchema>;
