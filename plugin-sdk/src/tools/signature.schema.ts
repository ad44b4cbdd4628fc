import { z } from 'zod';
import { keyIdSchema, sha256HexSchema } from '../manifest.schema.ts';
import { isoTimestampSchema, signatureBytesSchema } from './key.schema.ts';

/**
 * `signature.json`: a statement naming the plugin (`id@version`), the sha256 of the canonical
 * manifest bytes, the key and the time, and an ed25519 signature over the statement's canonical
 * JSON. Strict objects: nothing outside the signed statement can ride along unnoticed.
 */
export const SIGNATURE_TYPE = 'opl.plugin-signature/v1';

export const signatureStatementSchema = z.strictObject({
  type: z.literal(SIGNATURE_TYPE),
  plugin: z.string().min(1).max(200),
  manifest_sha256: sha256HexSchema,
  key_id: keyIdSchema,
  signed_at: isoTimestampSchema,
});

export const signatureFileSchema = z.strictObject({
  statement: signatureStatementSchema,
  signature: signatureBytesSchema,
});

export type SignatureStatement = z.output<typeof signatureStatementSchema>;
export type SignatureFile = z.output<typeof signatureFileSchema>;
