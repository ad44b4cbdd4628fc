import { z } from 'zod';
import { originSchema } from '../manifest.schema.ts';

/**
 * What the engine passes with each call: the account the call runs for and the credential headers
 * the host attaches to requests for each origin. Validated at every boundary it crosses.
 */

export const pluginAccountSchema = z.object({
  id: z.string().min(1).max(500),
  label: z.string().max(500).nullable().default(null),
});

export const hostCredentialSchema = z.object({
  origin: originSchema,
  headers: z.record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/), z.string().max(16_384)).default({}),
  /** Query parameters the host sets on the wire URL of requests for this origin (token-in-URL APIs). */
  query: z.record(z.string().regex(/^[a-z_]{1,50}$/), z.string().max(16_384)).optional(),
  /** The raw token, shown to the plugin only for its manifest's `credential_access` origins. */
  token: z.string().max(16_384).nullable().default(null),
});

export const sandboxCallContextSchema = z.object({
  account: pluginAccountSchema.nullable().default(null),
  credentials: z.array(hostCredentialSchema).max(20).default([]),
});

export type SandboxCallContext = z.input<typeof sandboxCallContextSchema>;
export type ParsedCallContext = z.output<typeof sandboxCallContextSchema>;
