import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/**
 * The engine's own registrations at each provider (OAuth client ids and secrets, the developer key
 * of token-signing providers), from `OPL_PROVIDER_CLIENTS_FILE`. Keyed by provider name. Secrets in
 * here are never logged or returned; the file is read once at start.
 */

export const providerClientSchema = z.object({
  client_id: z.string().min(1).max(500).optional(),
  client_secret: z.string().min(1).max(2_000).optional(),
  /** DEVELOPER_USER_TOKEN: the signing key of the developer JWT (ES256, PEM). */
  developer_key: z
    .object({
      team_id: z.string().min(1).max(100),
      key_id: z.string().min(1).max(100),
      private_key_file: z.string().min(1).max(1_000).optional(),
      private_key_pem: z.string().min(1).max(10_000).optional(),
    })
    .refine((key) => Boolean(key.private_key_file) !== Boolean(key.private_key_pem), 'give exactly one of private_key_file or private_key_pem')
    .optional(),
});

export const providerClientsFileSchema = z.record(z.string().regex(/^[a-z][a-z0-9_]{1,39}$/), providerClientSchema);

export type ProviderClient = z.output<typeof providerClientSchema>;
export type ProviderClients = Readonly<Record<string, ProviderClient>>;

/** The client id the demo providers accept. Public: it opens nothing but simulated services. */
export const DEMO_CLIENT_ID = 'opl-demo-client';

export async function loadProviderClients(path: string | undefined): Promise<ProviderClients> {
  if (!path) return {};
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`OPL_PROVIDER_CLIENTS_FILE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`OPL_PROVIDER_CLIENTS_FILE: ${path} is not valid JSON`);
  }
  const parsed = providerClientsFileSchema.safeParse(json);
  if (!parsed.success) {
    // Paths and messages only: never echo values, which may be secrets.
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
    throw new Error(`OPL_PROVIDER_CLIENTS_FILE: ${path} is not valid: ${issues}`);
  }
  return parsed.data;
}
