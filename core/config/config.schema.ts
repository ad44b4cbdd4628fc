import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SCHEMA_BASE } from '@opl/plugin-sdk/schemas';
import { z } from 'zod';
import { DEFAULT_HEAP_PROFILE, HEAP_PROFILES, type HeapProfile } from '../bootstrap/heap-profile.mjs';
import { integer, optionalText } from './env-values.ts';
import { checkOidcEnv, oidcEnvShape, toOidcConfig, type OidcConfig } from './oidc-config.ts';
import { toUserLimitsConfig, userLimitsEnvShape, type UserLimitsConfig } from './user-limits-config.ts';

/**
 * Every `OPL_*` variable the engine reads, with the defaults of the specification. This schema is
 * the only place that knows about environment variables; everything else receives a parsed Config.
 * `describe()` texts feed the README's configuration table and the `opl config` command.
 */

/** fastify's `trustProxy`: false, true, a hop count, or proxy addresses/CIDRs. */
const trustProxy = z
  .string()
  .trim()
  .transform((value, context): boolean | number | string[] => {
    if (value === '' || value === 'false') return false;
    if (value === 'true') return true;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
    const bad = entries.find((entry) => !/^[0-9A-Fa-f:.]+(?:\/\d{1,3})?$/.test(entry));
    if (bad !== undefined || entries.length === 0) {
      context.addIssue({ code: 'custom', message: `must be false, true, a hop count, or proxy addresses/CIDR ranges (${JSON.stringify(bad ?? value)} is none of these)` });
      return z.NEVER;
    }
    return entries;
  });

const postgresUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'postgres:' || url.protocol === 'postgresql:';
    } catch {
      return false;
    }
  }, 'must be a postgres:// or postgresql:// URL');

const httpBaseUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && !url.search && !url.hash;
    } catch {
      return false;
    }
  }, 'must be an http(s) URL without credentials, query or fragment')
  .transform((value) => value.replace(/\/+$/, ''));

const booleanFlag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => ['true', 'false', '1', '0', 'yes', 'no'].includes(value), 'must be true or false')
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const httpsUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' && !url.username && !url.password && !url.search && !url.hash;
    } catch {
      return false;
    }
  }, 'must be an https:// URL without credentials, query or fragment')
  .transform((value) => value.replace(/\/+$/, ''));

const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

export const configEnvSchema = z
  .object({
    OPL_DEPLOYMENT_MODE: z
      .enum(['self_host', 'hosted'], { error: 'must be self_host or hosted' })
      .default('self_host')
      .describe('`self_host` (single local owner) or `hosted` (multi-user; migrations refused until user authentication is configured, header paste disabled, plugin allow-list enforced).'),
    OPL_DATABASE_URL: postgresUrl
      .optional()
      .describe('PostgreSQL connection URL. Unset: the engine starts its own embedded PostgreSQL server in `OPL_DATA_DIR/postgres`.'),
    OPL_DATA_DIR: z
      .string()
      .trim()
      .min(1)
      .default('data')
      .describe('Directory for the embedded database, keys and other local state (relative paths resolve against the working directory).'),
    OPL_EMBEDDED_DB_PORT: integer(1, 65535)
      .default(54329)
      .describe('Loopback port of the embedded PostgreSQL server (only used without `OPL_DATABASE_URL`).'),
    OPL_PUBLIC_BASE_URL: httpBaseUrl
      .optional()
      .describe('Public URL of this instance. When set, every private `/api` route requires an owner session (see `OPL_OWNER_SECRET`).'),
    OPL_OWNER_SECRET: optionalText
      .pipe(z.string().min(12, 'must be at least 12 characters').optional())
      .describe('Owner login secret for the owner-session gate. Required when `OPL_PUBLIC_BASE_URL` is set in self-host mode; never logged.'),
    OPL_SESSION_TTL_HOURS: integer(1, 24 * 365)
      .default(168)
      .describe('Lifetime of an owner session, in hours.'),
    OPL_HOST: z.string().trim().min(1).default('127.0.0.1').describe('Interface the HTTP server listens on.'),
    OPL_PORT: integer(0, 65535).default(8765).describe('TCP port of the HTTP server (0 picks a free port).'),
    OPL_TRUST_PROXY: trustProxy
      .default(false)
      .describe('Which reverse proxies may name the client address in `X-Forwarded-For` (the address sign-in throttling counts by): `false` (none: the connection\'s address), `true` (any: only when nothing else can reach the engine), a number of proxy hops, or a comma-separated list of proxy addresses or CIDR ranges (e.g. `127.0.0.1,10.0.0.0/8`).'),
    OPL_LOG_LEVEL: logLevel.default('info').describe('Log level: fatal, error, warn, info, debug, trace or silent.'),
    OPL_LOG_FORMAT: z
      .enum(['auto', 'json', 'pretty'])
      .default('auto')
      .describe('How `opl start`, `serve` and `worker` write their logs: `auto` prints readable lines and a start banner (the address to open) when standard output is a terminal and JSON lines otherwise (services, containers, pipes); `json` and `pretty` force one.'),
    OPL_SNAPSHOT_DIR: optionalText.describe('Directory for library snapshot archives. Default: `OPL_DATA_DIR/snapshots`.'),
    OPL_SNAPSHOT_MAX_ARCHIVE_BYTES: integer(1024, 1024 * 1024 * 1024 * 1024)
      .default(1024 * 1024 * 1024)
      .describe('Largest snapshot archive file verification (and an upload) accepts, in bytes.'),
    OPL_SNAPSHOT_MAX_UNCOMPRESSED_BYTES: integer(1024, 1024 * 1024 * 1024 * 1024)
      .default(4 * 1024 * 1024 * 1024)
      .describe('Most bytes all members of a snapshot archive may decompress to together.'),
    OPL_SNAPSHOT_MAX_MANIFEST_BYTES: integer(1024, 1024 * 1024 * 1024)
      .default(64 * 1024 * 1024)
      .describe("Largest decompressed `manifest.json` of a snapshot archive (it is read into memory)."),
    OPL_SNAPSHOT_MAX_RECORD_BYTES: integer(1024, 256 * 1024 * 1024)
      .default(2 * 1024 * 1024)
      .describe('Longest record line of a snapshot collection member, in bytes.'),
    OPL_SNAPSHOT_MAX_COMPRESSION_RATIO: integer(2, 1_000_000)
      .default(200)
      .describe('Most decompressed bytes per compressed byte of one snapshot member (beyond its first MiB): higher is refused as a zip bomb.'),
    OPL_SNAPSHOT_SIGNING: booleanFlag
      .default(true)
      .describe("Sign every snapshot's manifest with this instance's ed25519 key (`OPL_DATA_DIR/snapshot-signing.key`, made on first use, never exported). A signature is verified whenever an archive has one."),
    OPL_EXPORT_MAX_PLAYLISTS: integer(1, 100_000)
      .default(100)
      .describe('Maximum playlists in one export request.'),
    OPL_IMPORT_MAX_BYTES: integer(1024, 4 * 1024 * 1024 * 1024)
      .default(50 * 1024 * 1024)
      .describe('Largest playlist file (and pasted text) an import preview accepts, in bytes; larger uploads are refused with 413 as soon as they pass it.'),
    OPL_IMPORT_MAX_PLAYLISTS: integer(1, 10_000)
      .default(1000)
      .describe('Most playlists one import may hold; more is refused with 422.'),
    OPL_IMPORT_MAX_TRACKS: integer(1, 10_000_000)
      .default(100_000)
      .describe('Most tracks one import may hold, summed over its playlists; more is refused with 422.'),
    OPL_IMPORT_TTL_HOURS: integer(1, 24 * 90)
      .default(24)
      .describe('Hours an import record lives before it expires (410) and the hourly cleanup deletes it.'),
    OPL_IMPORT_SPOOL_MEMORY_BYTES: integer(0, 256 * 1024 * 1024)
      .default(1024 * 1024)
      .describe('Bytes of an upload held in memory; beyond this it is spooled to a private temporary file (mode 0600) that is removed after the preview.'),
    OPL_IMPORT_URL_ALLOWED_HOSTS: z
      .string()
      .trim()
      .default('')
      .transform((value, ctx) => {
        const hosts: { host: string; pathPrefixes: string[] }[] = [];
        for (const entry of value.split(',').map((item) => item.trim()).filter(Boolean)) {
          const slash = entry.indexOf('/');
          const host = (slash === -1 ? entry : entry.slice(0, slash)).toLowerCase();
          const prefix = slash === -1 ? '/' : entry.slice(slash);
          if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/.test(host) || /^[\d.]+$/.test(host)) {
            ctx.addIssue({ code: 'custom', message: `"${entry}" is not a host name (optionally followed by a path prefix such as /playlists/)` });
            continue;
          }
          const existing = hosts.find((item) => item.host === host);
          if (existing) existing.pathPrefixes.push(prefix);
          else hosts.push({ host, pathPrefixes: [prefix] });
        }
        return hosts;
      })
      .describe('Hosts (optionally with a path prefix: `lists.example.org/shared/`) from which remote Open Playlist JSON may be imported by URL, comma-separated. Empty: URL imports of remote JSON are off.'),
    OPL_SHARE_MAX_TRACKS: integer(1, 100_000)
      .default(10_000)
      .describe('Most tracks of a playlist that can be shared; a longer playlist is refused with 422 (export it as a file instead).'),
    OPL_SHARE_MAX_BYTES: integer(1024, 64 * 1024 * 1024)
      .default(5 * 1024 * 1024)
      .describe('Largest public share snapshot (Open Playlist JSON), in bytes; a larger one is refused with 422.'),
    OPL_MIGRATION_HISTORY_RETENTION_DAYS: integer(0, 36_500)
      .default(90)
      .describe('Days that migration item detail is kept after a job ends; `0` keeps it forever.'),
    OPL_MIGRATION_HISTORY_CLEANUP_BATCH_SIZE: integer(1, 100_000)
      .default(500)
      .describe('Rows deleted per batch by the hourly history cleanup.'),
    OPL_MIGRATION_REPORT_BATCH_SIZE: integer(1, 100_000)
      .default(500)
      .describe('Rows fetched per database round trip when streaming a migration report.'),
    OPL_REGISTRY_DIR: optionalText.describe('Local plugin registry directory. Default: the `registry/` directory of this installation.'),
    OPL_REGISTRY_URL: httpsUrl
      .optional()
      .describe('HTTPS base URL of a plugin registry with the same layout as the directory; when set it replaces `OPL_REGISTRY_DIR`.'),
    OPL_PLUGIN_TRUST_FILE: optionalText.describe(
      'Trust store of publisher keys whose signed plugins may load (JSON). Default: `.opl-local/trusted-keys.json` of this installation, which setup creates with the locally generated first-party key.',
    ),
    OPL_PLUGIN_ALLOW_UNSIGNED: booleanFlag
      .default(false)
      .describe('Development only: also load unsigned plugins (shown as UNSIGNED everywhere). Refused in hosted mode.'),
    OPL_HEAP_PROFILE: z
      .enum(HEAP_PROFILES, { error: 'must be memory or speed' })
      .default(DEFAULT_HEAP_PROFILE)
      .describe(
        'V8 heap sizing of the engine and plugin-host processes, set by the `opl` launcher at start: `memory` (`--optimize-for-size`: a 1,000,000-track export peaks at about 1.4× the memory of a 10,000-track one instead of 2.7×, for 3% more time on migrations and 15–30% on exports) or `speed` (V8 defaults).',
      ),
    OPL_PLUGIN_MEMORY_MB: integer(16, 4096).default(256).describe('Memory limit of each plugin sandbox (isolate), in MiB. 256 MiB lets format plugins handle files of about 100,000 tracks.'),
    OPL_PLUGIN_CALL_TIMEOUT_MS: integer(100, 600_000)
      .default(30_000)
      .describe('Wall-clock limit of one plugin call, in milliseconds (CPU time is limited to the same budget).'),
    OPL_PLUGIN_QUARANTINE_STRIKES: integer(1, 100)
      .default(3)
      .describe('Limit breaches (timeouts, memory, crashes) after which a plugin is quarantined until an admin releases it.'),
    OPL_SCHEMA_BASE_URL: httpBaseUrl
      .optional()
      .describe('Base URL of the published JSON Schemas (`$schema` of exported bundles and manifests). Default: `OPL_PUBLIC_BASE_URL/schemas`, else the canonical `https://open-playlist.org/schemas` (never the listening address, which readers of a file cannot reach). The engine serves them under `/schemas/` either way.'),
    OPL_ADMIN_TOKEN: optionalText
      .pipe(z.string().min(24, 'must be at least 24 characters').optional())
      .describe('Hosted mode: bearer token for the admin routes (`/api/admin/…`), e.g. the plugin allow-list. Never logged.'),
    ...oidcEnvShape,
    ...userLimitsEnvShape,
    OPL_VAULT_KEY: optionalText
      .pipe(
        z
          .string()
          .refine((value) => Buffer.from(value, 'base64').length === 32 && /^[A-Za-z0-9+/]+={0,2}$/.test(value), 'must be 32 random bytes in base64 (e.g. `openssl rand -base64 32`)')
          .optional(),
      )
      .describe('Key that encrypts stored provider credentials (32 bytes, base64). Unset: a key file `OPL_DATA_DIR/vault.key` is created on first start. Set it on deployments whose data dir is not private. Never logged.'),
    OPL_VAULT_PREVIOUS_KEYS: optionalText.describe(
      'Comma-separated earlier `OPL_VAULT_KEY` values, still accepted for decryption after a key rotation (credentials are re-encrypted with the current key when next refreshed).',
    ),
    OPL_PROVIDER_CLIENTS_FILE: optionalText.describe(
      'JSON file with the OAuth client registrations per provider name, e.g. `{"spotify": {"client_id": "…"}, "tidal": {"client_id": "…", "client_secret": "…"}}` (and the developer key of token-signing providers). Without an entry, that provider cannot be connected.',
    ),
    OPL_AUTH_ATTEMPT_TTL_MINUTES: integer(1, 60).default(15).describe('How long a started connection (OAuth state, device code, form) stays valid.'),
    OPL_GENERATOR_URL: httpBaseUrl
      .optional()
      .describe('Base URL of an OpenAI-compatible chat-completions API for the playlist generator, up to `/v1` (Ollama `http://127.0.0.1:11434/v1`, llama.cpp server `http://127.0.0.1:8080/v1`, LM Studio, vLLM, LocalAI). Configuration only, never user input; loopback is allowed. Unset: the generator is off (in demo mode, a built-in demo model).'),
    OPL_GENERATOR_MODEL: optionalText.describe('Model name sent with every generator request (e.g. `llama3.1:8b`). Required with `OPL_GENERATOR_URL`.'),
    OPL_GENERATOR_API_KEY: optionalText.describe('Bearer key for the model server, if it wants one. Never logged.'),
    OPL_GENERATOR_TIMEOUT_MS: integer(1_000, 30 * 60_000).default(120_000).describe('How long one model request may take, in milliseconds.'),
    OPL_GENERATOR_MAX_OUTPUT_BYTES: integer(4_096, 16 * 1024 * 1024)
      .default(256 * 1024)
      .describe('Largest model answer read, in bytes; a larger one is refused.'),
    OPL_GENERATOR_DRAFT_TTL_HOURS: integer(1, 24 * 90).default(168).describe('Hours an unconfirmed generated draft is kept.'),
    OPL_ORGANIZER_PREFLIGHT_TTL_SECONDS: integer(30, 3_600)
      .default(600)
      .describe('Seconds an organizer preflight may start its job; an older one is refused and needs a new preflight (30 to 3600).'),
    OPL_DEMO: booleanFlag
      .default(false)
      .describe('Demo mode: runs simulated Spotify and TIDAL services in-process with made-up libraries, so accounts can be connected and migrated without credentials. Labelled as demo everywhere. Refused in hosted mode.'),
  })
  .superRefine((env, ctx) => {
    if (env.OPL_DEPLOYMENT_MODE === 'hosted' && env.OPL_DEMO) {
      ctx.addIssue({ code: 'custom', path: ['OPL_DEMO'], message: 'cannot be true in hosted mode (demo providers are simulated and only meant for trying the engine locally)' });
    }
    if (env.OPL_DEPLOYMENT_MODE === 'hosted' && env.OPL_PLUGIN_ALLOW_UNSIGNED) {
      ctx.addIssue({ code: 'custom', path: ['OPL_PLUGIN_ALLOW_UNSIGNED'], message: 'cannot be true in hosted mode (hosted instances load only allow-listed signed plugins)' });
    }
    if (env.OPL_GENERATOR_URL && !env.OPL_GENERATOR_MODEL) {
      ctx.addIssue({ code: 'custom', path: ['OPL_GENERATOR_MODEL'], message: 'is required when OPL_GENERATOR_URL is set (the model name the server runs, e.g. llama3.1:8b)' });
    }
    checkOidcEnv(env, ctx);
    // Hosted instances sign users in through OpenID Connect, never with the one owner secret.
    if (env.OPL_PUBLIC_BASE_URL && !env.OPL_OWNER_SECRET && env.OPL_DEPLOYMENT_MODE === 'self_host') {
      ctx.addIssue({
        code: 'custom',
        path: ['OPL_OWNER_SECRET'],
        message: 'is required when OPL_PUBLIC_BASE_URL is set (it is the owner login secret of the session gate)',
      });
    }
  });

export type ConfigEnv = z.output<typeof configEnvSchema>;

export interface Config {
  deploymentMode: 'self_host' | 'hosted';
  heapProfile: HeapProfile;
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedDbPort: number;
  publicBaseUrl: string | undefined;
  ownerSecret: string | undefined;
  sessionTtlHours: number;
  host: string;
  /** fastify's `trustProxy` (OPL_TRUST_PROXY). */
  trustProxy: boolean | number | string[];
  port: number;
  logLevel: z.output<typeof logLevel>;
  /** `auto`: readable on a terminal, JSON otherwise (see `readableLogs`). */
  logFormat: 'auto' | 'json' | 'pretty';
  snapshotDir: string;
  /** The instance's snapshot signing key file; null: snapshots are not signed (OPL_SNAPSHOT_SIGNING). */
  snapshotSigningKeyFile: string | null;
  /** Verification caps of snapshot archives (SPEC Limits rule 8). */
  snapshotLimits: { archiveBytes: number; uncompressedBytes: number; manifestBytes: number; recordBytes: number; compressionRatio: number };
  exportMaxPlaylists: number;
  imports: {
    maxBytes: number;
    maxPlaylists: number;
    maxTracks: number;
    ttlHours: number;
    spoolMemoryBytes: number;
    /** Where remote Open Playlist JSON may come from (exact hosts, path prefixes). */
    urlAllowedHosts: { host: string; pathPrefixes: string[] }[];
  };
  shares: { maxTracks: number; maxBytes: number };
  migrationHistoryRetentionDays: number;
  migrationHistoryCleanupBatchSize: number;
  migrationReportBatchSize: number;
  plugins: {
    /** Exactly one registry source: a local directory or an HTTPS base URL. */
    registry: { source: 'directory'; location: string } | { source: 'https'; location: string };
    trustFile: string;
    allowUnsigned: boolean;
    memoryMb: number;
    callTimeoutMs: number;
    quarantineStrikes: number;
  };
  adminToken: string | undefined;
  /** Hosted mode's user sign-in; null when no OpenID provider is configured. */
  oidc: OidcConfig | null;
  /** Hosted mode's per-user limits (unused in self-host mode). */
  userLimits: UserLimitsConfig;
  /**
   * Where the engine's JSON Schemas live: the `$id` base of the documents the `/schemas` routes
   * serve and the `$schema` of every bundle and manifest it writes. `publishedSchemaBaseUrl`, else
   * the canonical base — never the listening address, which names nothing others can reach (and
   * nothing at all for 0.0.0.0 or port 0).
   */
  schemaBaseUrl: string;
  /**
   * The schema base when it is configured as an address others can reach (`OPL_SCHEMA_BASE_URL`,
   * else `OPL_PUBLIC_BASE_URL/schemas`); null otherwise.
   */
  publishedSchemaBaseUrl: string | null;
  connections: {
    /** Current vault key (base64) from the environment; absent ⇒ the key file. */
    vaultKey: string | undefined;
    vaultPreviousKeys: string[];
    vaultKeyFile: string;
    providerClientsFile: string | undefined;
    authAttemptTtlMinutes: number;
  };
  demo: boolean;
  /** The playlist generator's model endpoint; null when none is configured. */
  generator: { url: string; model: string; apiKey: string | undefined; timeoutMs: number; maxOutputBytes: number } | null;
  generatorDraftTtlHours: number;
  organizerPreflightTtlSeconds: number;
}

/** The installation's own directory: defaults for the registry and the local trust store live here. */
const INSTALL_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function toConfig(env: ConfigEnv, cwd: string): Config {
  const absolute = (path: string) => (isAbsolute(path) ? path : resolve(cwd, path));
  const dataDir = absolute(env.OPL_DATA_DIR);
  const publishedSchemaBaseUrl = env.OPL_SCHEMA_BASE_URL ?? (env.OPL_PUBLIC_BASE_URL ? `${env.OPL_PUBLIC_BASE_URL}/schemas` : null);
  return {
    deploymentMode: env.OPL_DEPLOYMENT_MODE,
    heapProfile: env.OPL_HEAP_PROFILE,
    databaseUrl: env.OPL_DATABASE_URL,
    dataDir,
    embeddedDbPort: env.OPL_EMBEDDED_DB_PORT,
    publicBaseUrl: env.OPL_PUBLIC_BASE_URL,
    ownerSecret: env.OPL_OWNER_SECRET,
    sessionTtlHours: env.OPL_SESSION_TTL_HOURS,
    host: env.OPL_HOST,
    trustProxy: env.OPL_TRUST_PROXY,
    port: env.OPL_PORT,
    logLevel: env.OPL_LOG_LEVEL,
    logFormat: env.OPL_LOG_FORMAT,
    snapshotDir: env.OPL_SNAPSHOT_DIR ? absolute(env.OPL_SNAPSHOT_DIR) : resolve(dataDir, 'snapshots'),
    snapshotSigningKeyFile: env.OPL_SNAPSHOT_SIGNING ? resolve(dataDir, 'snapshot-signing.key') : null,
    snapshotLimits: {
      archiveBytes: env.OPL_SNAPSHOT_MAX_ARCHIVE_BYTES,
      uncompressedBytes: env.OPL_SNAPSHOT_MAX_UNCOMPRESSED_BYTES,
      manifestBytes: env.OPL_SNAPSHOT_MAX_MANIFEST_BYTES,
      recordBytes: env.OPL_SNAPSHOT_MAX_RECORD_BYTES,
      compressionRatio: env.OPL_SNAPSHOT_MAX_COMPRESSION_RATIO,
    },
    exportMaxPlaylists: env.OPL_EXPORT_MAX_PLAYLISTS,
    imports: {
      maxBytes: env.OPL_IMPORT_MAX_BYTES,
      maxPlaylists: env.OPL_IMPORT_MAX_PLAYLISTS,
      maxTracks: env.OPL_IMPORT_MAX_TRACKS,
      ttlHours: env.OPL_IMPORT_TTL_HOURS,
      spoolMemoryBytes: env.OPL_IMPORT_SPOOL_MEMORY_BYTES,
      urlAllowedHosts: env.OPL_IMPORT_URL_ALLOWED_HOSTS,
    },
    shares: { maxTracks: env.OPL_SHARE_MAX_TRACKS, maxBytes: env.OPL_SHARE_MAX_BYTES },
    migrationHistoryRetentionDays: env.OPL_MIGRATION_HISTORY_RETENTION_DAYS,
    migrationHistoryCleanupBatchSize: env.OPL_MIGRATION_HISTORY_CLEANUP_BATCH_SIZE,
    migrationReportBatchSize: env.OPL_MIGRATION_REPORT_BATCH_SIZE,
    plugins: {
      registry: env.OPL_REGISTRY_URL
        ? { source: 'https', location: env.OPL_REGISTRY_URL }
        : { source: 'directory', location: env.OPL_REGISTRY_DIR ? absolute(env.OPL_REGISTRY_DIR) : resolve(INSTALL_ROOT, 'registry') },
      trustFile: env.OPL_PLUGIN_TRUST_FILE ? absolute(env.OPL_PLUGIN_TRUST_FILE) : resolve(INSTALL_ROOT, '.opl-local', 'trusted-keys.json'),
      allowUnsigned: env.OPL_PLUGIN_ALLOW_UNSIGNED,
      memoryMb: env.OPL_PLUGIN_MEMORY_MB,
      callTimeoutMs: env.OPL_PLUGIN_CALL_TIMEOUT_MS,
      quarantineStrikes: env.OPL_PLUGIN_QUARANTINE_STRIKES,
    },
    adminToken: env.OPL_ADMIN_TOKEN,
    oidc: toOidcConfig(env, env.OPL_PUBLIC_BASE_URL),
    userLimits: toUserLimitsConfig(env),
    connections: {
      vaultKey: env.OPL_VAULT_KEY,
      vaultPreviousKeys: (env.OPL_VAULT_PREVIOUS_KEYS ?? '')
        .split(',')
        .map((key) => key.trim())
        .filter(Boolean),
      vaultKeyFile: resolve(dataDir, 'vault.key'),
      providerClientsFile: env.OPL_PROVIDER_CLIENTS_FILE ? absolute(env.OPL_PROVIDER_CLIENTS_FILE) : undefined,
      authAttemptTtlMinutes: env.OPL_AUTH_ATTEMPT_TTL_MINUTES,
    },
    demo: env.OPL_DEMO,
    generator:
      env.OPL_GENERATOR_URL && env.OPL_GENERATOR_MODEL
        ? { url: env.OPL_GENERATOR_URL, model: env.OPL_GENERATOR_MODEL, apiKey: env.OPL_GENERATOR_API_KEY, timeoutMs: env.OPL_GENERATOR_TIMEOUT_MS, maxOutputBytes: env.OPL_GENERATOR_MAX_OUTPUT_BYTES }
        : null,
    generatorDraftTtlHours: env.OPL_GENERATOR_DRAFT_TTL_HOURS,
    organizerPreflightTtlSeconds: env.OPL_ORGANIZER_PREFLIGHT_TTL_SECONDS,
    schemaBaseUrl: publishedSchemaBaseUrl ?? DEFAULT_SCHEMA_BASE,
    publishedSchemaBaseUrl,
  };
}
