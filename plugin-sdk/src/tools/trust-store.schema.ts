import { z } from 'zod';
import { keyIdSchema } from '../manifest.schema.ts';
import { isoTimestampSchema, publicKeySchema } from './key.schema.ts';

/**
 * The local trust store (`OPL_PLUGIN_TRUST_FILE`): the keys this installation trusts and the keys
 * it has revoked. It is never read from the registry, so a registry can only reduce trust (by
 * revoking its own records), never add it.
 */
export const trustedKeySchema = z.object({
  key_id: keyIdSchema,
  publisher: z.string().min(1).max(200),
  public_key: publicKeySchema,
  added_at: isoTimestampSchema,
  test_only: z.boolean().default(false),
});

export const revokedKeySchema = z.object({
  key_id: keyIdSchema,
  reason: z.string().min(1).max(1_000),
  revoked_at: isoTimestampSchema,
});

export const trustStoreSchema = z.object({
  trust_version: z.literal(1),
  keys: z.array(trustedKeySchema).default([]),
  revoked: z.array(revokedKeySchema).default([]),
});

export type TrustedKey = z.output<typeof trustedKeySchema>;
export type RevokedKey = z.output<typeof revokedKeySchema>;
export type TrustStore = z.output<typeof trustStoreSchema>;

export function emptyTrustStore(): TrustStore {
  return { trust_version: 1, keys: [], revoked: [] };
}
