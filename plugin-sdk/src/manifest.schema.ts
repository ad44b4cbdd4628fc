import { z } from 'zod';
import { authKindSchema, capabilitySchema } from './capabilities.schema.ts';
import { NO_ORGANIZER_ACTIONS, organizerSectionSchema } from './organizer.schema.ts';

/**
 * The plugin manifest: everything the engine needs to decide whether to load a plugin and what it
 * may do. The signature covers the canonical bytes of this document, and `files` pins every file
 * of the bundle by sha256, so nothing a manifest promises can change after signing.
 */

export const MANIFEST_VERSION = 1;

/** Reverse-DNS style id: `opl.spotify`, `com.example.my-provider`. */
export const pluginIdSchema = z
  .string()
  .min(3)
  .max(100)
  .regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*(?:\.[a-z0-9]+(?:[-_][a-z0-9]+)*)+$/, 'expected a lowercase dotted id such as "com.example.my-provider"');

/** Strict semver (no leading `v`, no ranges). */
export const semverSchema = z
  .string()
  .max(64)
  .regex(/^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/, 'expected a semver version such as 1.2.3');

export const keyIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{2,63}$/, 'expected a key id of lowercase letters, digits and dashes');

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** An https origin with no path, query, userinfo or default-port spelling (`https://api.example.com`). */
export const originSchema = z
  .string()
  .max(300)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === 'https:' || url.protocol === 'http:') &&
        url.username === '' &&
        url.password === '' &&
        url.origin === value
      );
    } catch {
      return false;
    }
  }, 'expected a bare origin such as "https://api.example.com" (scheme, host and optional port only)');

/**
 * One permitted kind of request. The host compares the parsed request URL against these fields;
 * nothing is matched as a glob on the raw string.
 */
export const networkGrantSchema = z.object({
  origin: originSchema,
  /** Must start with `/`; a request path must equal it or continue it after a `/` boundary when it ends with `/`. */
  path_prefix: z.string().min(1).max(500).startsWith('/'),
  methods: z.array(z.enum(HTTP_METHODS)).min(1),
  /** Shown to admins: why the plugin needs this. */
  reason: z.string().min(1).max(500),
});

export const limitsSchema = z.object({
  /** Largest response body the host hands to the plugin. */
  max_response_bytes: z.number().int().positive().max(64 * 1024 * 1024).default(8 * 1024 * 1024),
  /** Per-request timeout. */
  request_timeout_ms: z.number().int().positive().max(120_000).default(20_000),
});

/**
 * Names the engine uses as keys of plain objects (a provider's name keys every track's
 * `provider_uris`, a format's name and a bucket's name key lookups): one that is also a member of
 * `Object.prototype` (`constructor`) would find that member on every object that lacks the key.
 */
const notObjectMember = (what: string) => [(name: string) => !(name in Object.prototype), `"constructor" and the other names of JavaScript object members cannot be ${what}`] as const;

/** A quota bucket's name: `default` is the provider's general daily budget (`quota.daily_units`). */
export const quotaBucketNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,31}$/, 'expected a lowercase bucket name such as "search"')
  .refine(...notObjectMember('a bucket name'));

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * What one kind of request costs: the first rule whose methods and path prefix match a request
 * (compared on the parsed URL, like network grants; the longest matching prefix wins) prices it.
 */
export const quotaCostRuleSchema = z.object({
  /** Methods this rule prices; every method when absent. */
  methods: z.array(z.enum(HTTP_METHODS)).min(1).optional(),
  /** Must start with `/`; a request path must equal it or continue it after a `/` (or `?`). */
  path_prefix: z.string().min(1).max(500).startsWith('/'),
  units: z.number().nonnegative().max(1_000_000),
  /** The bucket the units come out of. */
  bucket: quotaBucketNameSchema.default('default'),
  /** What the request is, for forecasts ("how many songs fit today"): one track insert, one search. */
  counts_as: z.enum(['track_insert', 'track_remove', 'search', 'playlist_create', 'read']).nullable().default(null),
});

/**
 * A provider's daily quota, declared per request kind. Buckets are separate daily budgets (a
 * provider may meter one method on its own counter); a request draws only from its rule's bucket.
 */
export const quotaSchema = z
  .object({
    /** Units per day of the `default` bucket. */
    daily_units: z.number().int().positive(),
    /** When the day turns over: local midnight in this IANA time zone. */
    reset: z.object({ time_zone: z.string().max(100).refine(isTimeZone, 'expected an IANA time zone such as "America/Los_Angeles"').default('UTC') }).default({ time_zone: 'UTC' }),
    /**
     * Whose budget it is: `account` (each connected account has its own) or `client` (the engine's
     * one registration at the provider — e.g. a Google Cloud project — shared by every account).
     */
    scope: z.enum(['account', 'client']).default('account'),
    /** Units of a request no rule matches. */
    default_units: z.number().nonnegative().max(1_000_000).default(1),
    costs: z.array(quotaCostRuleSchema).max(50).default([]),
    /** Further buckets with their own daily budgets. */
    buckets: z.record(quotaBucketNameSchema, z.object({ daily_units: z.number().int().positive() })).default({}),
  })
  .superRefine((quota, ctx) => {
    quota.costs.forEach((rule, index) => {
      if (rule.bucket !== 'default' && !(rule.bucket in quota.buckets)) ctx.addIssue({ code: 'custom', path: ['costs', index, 'bucket'], message: `bucket "${rule.bucket}" is not declared in quota.buckets` });
    });
    if ('default' in quota.buckets) ctx.addIssue({ code: 'custom', path: ['buckets', 'default'], message: 'the default bucket is quota.daily_units' });
  });

export const pacingSchema = z.object({
  /** Sustained requests per second the provider tolerates for one account. */
  requests_per_second: z.number().positive().max(1_000).default(5),
  burst: z.number().int().positive().max(1_000).default(10),
  /** Add random jitter between requests (unofficial providers). */
  jitter: z.boolean().default(false),
  /** Quota units of one request during a search operation (used when `quota` is null). */
  search_quota_cost: z.number().nonnegative().default(1),
  /** Quota units of one request during a write operation (used when `quota` is null). */
  write_quota_cost: z.number().nonnegative().default(1),
  /** Provider quota units per UTC day, if the provider has one (used when `quota` is null). */
  daily_quota: z.number().int().positive().nullable().default(null),
  /**
   * The provider's daily quota per request kind, with its reset time and separate buckets. When
   * set it replaces `daily_quota` and the two costs above, which stay as coarse hints for readers
   * that know only them.
   */
  quota: quotaSchema.nullable().default(null),
});

export const oauthEndpointsSchema = z.object({
  authorization_url: z.url({ protocol: /^https$/ }),
  token_url: z.url({ protocol: /^https$/ }),
  revocation_url: z.url({ protocol: /^https$/ }).nullable().default(null),
  /**
   * Dialects of providers that predate or bend RFC 6749/7636, declared rather than coded: the
   * defaults are the standard. Deezer, for one, names the client `app_id`, its secret `secret` and
   * the scope `perms` (comma-separated), has no PKCE, and takes the code exchange as a GET query.
   */
  pkce: z.boolean().default(true),
  scope_separator: z.enum([' ', ',', '+']).default(' '),
  param_names: z
    .object({
      client_id: z.string().regex(/^[a-z_]{1,50}$/).default('client_id'),
      client_secret: z.string().regex(/^[a-z_]{1,50}$/).default('client_secret'),
      scope: z.string().regex(/^[a-z_]{1,50}$/).default('scope'),
    })
    .default({ client_id: 'client_id', client_secret: 'client_secret', scope: 'scope' }),
  /** `post_form`: the standard form POST; `get_query`: the grant's parameters in the URL of a GET. */
  token_request: z.enum(['post_form', 'get_query']).default('post_form'),
  /** Extra, non-secret token request parameters (e.g. `output=json`). */
  token_params: z.record(z.string().regex(/^[a-z_]{1,50}$/), z.string().max(200)).default({}),
});

export const deviceEndpointsSchema = z.object({
  device_authorization_url: z.url({ protocol: /^https$/ }),
  token_url: z.url({ protocol: /^https$/ }),
});

export const authMethodSchema = z.object({
  kind: authKindSchema,
  oauth: oauthEndpointsSchema.optional(),
  device: deviceEndpointsSchema.optional(),
  /** Scopes always requested. */
  base_scopes: z.array(z.string().max(200)).default([]),
  /** Minimal scopes per capability: only those for the capabilities a user selects are requested. */
  scopes: z.partialRecord(capabilitySchema, z.array(z.string().max(200))).default({}),
  /** For `form` challenges (header paste, pasted user token): the fields the UI renders. */
  form_fields: z
    .array(
      z.object({
        name: z.string().regex(/^[a-z][a-z0-9_]*$/),
        label: z.string().max(200),
        secret: z.boolean().default(true),
        /** Header paste: the request header this field's value is sent as (`cookie`, `authorization`, …). */
        header: z.string().regex(/^[A-Za-z0-9-]{1,100}$/).nullable().default(null),
        /** Shown under the field: where the user finds the value. */
        help: z.string().max(1_000).nullable().default(null),
      }),
    )
    .default([]),
  /**
   * Origins the host attaches the credential to. Empty: every origin of the network grants except
   * those of the OAuth/device endpoints (tokens never go to an origin the user did not authorise).
   */
  credential_origins: z.array(originSchema).max(20).default([]),
  /** How the credential travels on API requests (bearer tokens by default). */
  credential_header: z
    .object({ name: z.string().regex(/^[A-Za-z0-9-]{1,100}$/).default('authorization'), prefix: z.string().max(50).default('Bearer ') })
    .default({ name: 'authorization', prefix: 'Bearer ' }),
  /**
   * For APIs that take the token only in the URL (Deezer's `access_token`): the host adds this
   * query parameter to requests for the credential origins instead of the credential header. The
   * plugin never sees it: it is set on the wire URL only and masked wherever a URL is reported.
   */
  credential_query_param: z.string().regex(/^[a-z_]{1,50}$/).nullable().default(null),
  /** How the engine authenticates itself at the token endpoint: public PKCE clients use `none`. */
  token_endpoint_auth: z.enum(['none', 'client_secret_basic', 'client_secret_post']).default('none'),
  /** Extra, non-secret authorization request parameters (e.g. `show_dialog=true`). */
  authorize_params: z.record(z.string().regex(/^[a-z_]{1,50}$/), z.string().max(200)).default({}),
});

export const searchModeSchema = z.enum(['isrc', 'text']);

/**
 * A playlist id pattern of the one shape the engine accepts: `^[character class]{min,max}$`. A
 * single bounded character class runs in linear time, so a manifest can never make link parsing
 * backtrack catastrophically.
 */
export const playlistIdPatternSchema = z
  .string()
  .max(200)
  .regex(/^\^\[[A-Za-z0-9_\\-]+\]\{\d{1,3}(,\d{1,3})?\}\$$/, 'expected "^[class]{min,max}$" with letters, digits, "_" and "-" (ranges allowed) in the class')
  .refine((pattern) => {
    try {
      new RegExp(pattern);
      return true;
    } catch {
      return false;
    }
  }, 'expected a valid regular expression');

/**
 * A public playlist link of this provider. The playlist id is the path segment right after
 * `path_prefix`, or the query parameter `id_query_param` when the link carries it there
 * (`/playlist?list=…`); `id_pattern` says what an id looks like (any `[A-Za-z0-9_-]{1,200}` when absent).
 */
export const playlistLinkSchema = z.object({
  origin: originSchema,
  path_prefix: z.string().startsWith('/'),
  id_query_param: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,40}$/)
    .optional(),
  id_pattern: playlistIdPatternSchema.optional(),
});

export const providerSectionSchema = z.object({
  /** Short provider name used as the key of `provider_uris` (e.g. `spotify`). */
  name: z
    .string()
    .regex(/^[a-z][a-z0-9_]{1,39}$/)
    .refine(...notObjectMember('a provider name')),
  display_name: z.string().min(1).max(100),
  capabilities: z.array(capabilitySchema),
  attributes: z.object({
    has_isrc: z.boolean(),
    search_modes: z.array(searchModeSchema).default(['text']),
    official: z.boolean(),
    stability: z.enum(['stable', 'beta', 'experimental']).default('stable'),
    /** Video providers: entries may be music videos or user uploads rather than audio tracks. */
    video: z.boolean().default(false),
  }),
  write_constraints: z.object({
    max_add_batch: z.number().int().positive().max(10_000).default(100),
    max_remove_batch: z.number().int().positive().max(10_000).default(100),
    max_playlist_size: z.number().int().positive().nullable().default(null),
    supports_duplicates: z.boolean().default(true),
    ordering: z.enum(['preserved', 'best_effort', 'none']).default('preserved'),
    description_max_len: z.number().int().nonnegative().nullable().default(null),
  }),
  pacing: pacingSchema.default(pacingSchema.parse({})),
  /** Free-form caveat shown in the UI. */
  warning: z.string().max(1_000).nullable().default(null),
  can_mirror: z.boolean().default(false),
  /** Actionable reason shown when mirror is unavailable. */
  mirror_unavailable_reason: z.string().max(500).nullable().default(null),
  can_unfollow_playlist: z.boolean().default(false),
  can_delete_playlist: z.boolean().default(false),
  /** What the organizer offers for this provider (see organizer.schema.ts); nothing when absent. */
  organizer: organizerSectionSchema.default(NO_ORGANIZER_ACTIONS),
  auth: z.array(authMethodSchema).min(1),
  /** Public links to this provider's playlists that URL imports may hand to this plugin. */
  playlist_links: z.array(playlistLinkSchema).default([]),
});

export const formatSectionSchema = z.object({
  /** Short format name (`m3u8`, `xspf`, `csv`). */
  name: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{0,31}$/)
    .refine(...notObjectMember('a format name')),
  display_name: z.string().min(1).max(100),
  /** Lowercase, with the dot: `.m3u8`. */
  extensions: z.array(z.string().regex(/^\.[a-z0-9.]{1,15}$/)).min(1),
  media_types: z.array(z.string().regex(/^[a-z]+\/[a-z0-9.+-]+$/)).default([]),
  directions: z.array(z.enum(['import', 'export'])).min(1),
});

export const manifestSourceSchema = z.object({
  manifest_version: z.literal(MANIFEST_VERSION),
  id: pluginIdSchema,
  name: z.string().min(1).max(100),
  version: semverSchema,
  description: z.string().max(2_000).default(''),
  kind: z.enum(['provider', 'format']),
  publisher: z.object({ name: z.string().min(1).max(200), key_id: keyIdSchema }),
  engines: z.object({ opl: z.string().min(1).max(100) }),
  /** The bundled entry file, relative to the bundle root. */
  entry: z.string().regex(/^[A-Za-z0-9_.-]+\.js$/).default('plugin.js'),
  provider: providerSectionSchema.optional(),
  format: formatSectionSchema.optional(),
  network: z.array(networkGrantSchema).max(50).default([]),
  limits: limitsSchema.default(limitsSchema.parse({})),
  /**
   * Origins for which the host may show the plugin the connected account's credential (header
   * signing schemes). Absent ⇒ the plugin never sees a token; the host attaches it to requests.
   */
  credential_access: z
    .object({ origins: z.array(originSchema).min(1), reason: z.string().min(1).max(500) })
    .nullable()
    .default(null),
});

/** Bundle file paths: relative, forward slashes, no `..`, no hidden files. */
export const bundlePathSchema = z
  .string()
  .max(200)
  .regex(/^(?!.*(?:^|\/)\.)[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*$/, 'expected a relative path without "..", hidden parts or backslashes');

export const sha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/);

export const manifestSchema = manifestSourceSchema
  .extend({
    /** sha256 (hex) of every file in the bundle other than the manifest and its signature. */
    files: z.record(bundlePathSchema, sha256HexSchema),
  })
  .superRefine((manifest, ctx) => {
    if (manifest.kind === 'provider' && !manifest.provider) ctx.addIssue({ code: 'custom', path: ['provider'], message: 'a provider plugin needs a "provider" section' });
    if (manifest.kind === 'format' && !manifest.format) ctx.addIssue({ code: 'custom', path: ['format'], message: 'a format plugin needs a "format" section' });
    if (manifest.kind === 'provider' && manifest.format) ctx.addIssue({ code: 'custom', path: ['format'], message: 'a provider plugin has no "format" section' });
    if (manifest.kind === 'format' && manifest.provider) ctx.addIssue({ code: 'custom', path: ['provider'], message: 'a format plugin has no "provider" section' });
    if (!(manifest.entry in manifest.files)) ctx.addIssue({ code: 'custom', path: ['files'], message: `the entry file "${manifest.entry}" is not listed in "files"` });
    const grantedOrigins = new Set(manifest.network.map((grant) => grant.origin));
    manifest.provider?.auth.forEach((method, index) => {
      for (const origin of method.credential_origins) {
        if (!grantedOrigins.has(origin)) ctx.addIssue({ code: 'custom', path: ['provider', 'auth', index, 'credential_origins'], message: `credential origin ${origin} has no network grant` });
      }
    });
    if (manifest.provider) organizerConsistency(manifest.provider, ctx);
    if (manifest.credential_access) {
      const granted = new Set(manifest.network.map((grant) => grant.origin));
      for (const origin of manifest.credential_access.origins) {
        if (!granted.has(origin)) ctx.addIssue({ code: 'custom', path: ['credential_access', 'origins'], message: `credential origin ${origin} has no network grant` });
      }
    }
  });

/** The organizer may offer only what the plugin's operations can do. */
function organizerConsistency(provider: z.output<typeof providerSectionSchema>, ctx: z.RefinementCtx): void {
  const { organizer } = provider;
  const path = (key: string) => ['provider', 'organizer', key];
  if (organizer.safe_removal.available && !provider.can_unfollow_playlist) ctx.addIssue({ code: 'custom', path: path('safe_removal'), message: 'safe removal calls unfollowPlaylist: set "can_unfollow_playlist": true' });
  if (organizer.permanent_delete.available && !provider.can_delete_playlist) ctx.addIssue({ code: 'custom', path: path('permanent_delete'), message: 'permanent deletion calls deletePlaylist: set "can_delete_playlist": true' });
  if (organizer.permanent_delete.available && !provider.capabilities.includes('READ_PLAYLISTS')) ctx.addIssue({ code: 'custom', path: path('permanent_delete'), message: 'confirming ownership reads playlists: declare READ_PLAYLISTS' });
  const songs = organizer.remove_songs;
  if (songs.available) {
    for (const needed of ['REMOVE_TRACKS', 'READ_TRACKS'] as const) {
      if (!provider.capabilities.includes(needed)) ctx.addIssue({ code: 'custom', path: path('remove_songs'), message: `removing songs needs the ${needed} capability` });
    }
    if (songs.positional_insert && !provider.capabilities.includes('ADD_TRACKS')) ctx.addIssue({ code: 'custom', path: path('remove_songs'), message: 'positional_insert puts songs back with addTracks: declare ADD_TRACKS' });
    if (songs.max_entries_per_job > provider.write_constraints.max_remove_batch && songs.identify_by === 'uri_positions_snapshot') {
      ctx.addIssue({ code: 'custom', path: path('remove_songs'), message: 'a snapshot-pinned removal is one request: max_entries_per_job cannot exceed write_constraints.max_remove_batch' });
    }
  }
}

export type ManifestSource = z.input<typeof manifestSourceSchema>;
export type Manifest = z.output<typeof manifestSchema>;
export type NetworkGrant = z.output<typeof networkGrantSchema>;
export type ProviderSection = z.output<typeof providerSectionSchema>;
export type FormatSection = z.output<typeof formatSectionSchema>;
export type AuthMethod = z.output<typeof authMethodSchema>;
export type Pacing = z.output<typeof pacingSchema>;
export type Quota = z.output<typeof quotaSchema>;
export type QuotaCostRule = z.output<typeof quotaCostRuleSchema>;
