/**
 * `GET /api/admin/plugins` (and the same body from `POST /api/admin/plugins/reload`): which plugins
 * the engine loaded, which it refused and why, and the hosted allow-list. Parsed into camelCase the
 * way `me.ts` does, so components never read raw JSON.
 */

import type { DeploymentMode } from './me.ts';
import { isRecord, isString, listOf, nullableString as optionalString, stringList } from './answer-parsing.ts';

export const PLUGINS_PATH = '/api/admin/plugins';
export const PLUGINS_RELOAD_PATH = '/api/admin/plugins/reload';
export const ALLOW_LIST_PATH = '/api/admin/plugins/allow-list';

export interface NetworkGrant {
  readonly origin: string;
  readonly pathPrefix: string;
  readonly methods: readonly string[];
  readonly reason: string;
}

export interface LoadedPlugin {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  /** `provider` or `format`; kept as a string so a newer engine's kind still shows. */
  readonly kind: string;
  readonly publisher: { readonly name: string; readonly keyId: string };
  readonly signed: boolean;
  /** Signed with a key its owner marked as for tests only: fine in development, never in production. */
  readonly testOnlyKey: boolean;
  readonly capabilities: readonly string[];
  readonly network: readonly NetworkGrant[];
}

export interface RefusedPlugin {
  readonly id: string;
  readonly version: string | null;
  /** A refusal code (see plugin-refusals.ts); unknown codes still show. */
  readonly reason: string;
  readonly detail: string;
  /** The key that signed the bundle, when the engine got that far. */
  readonly keyId: string | null;
}

export interface AllowListEntry {
  readonly id: string;
  readonly pluginId: string;
  readonly keyId: string;
  readonly versionRange: string;
  readonly addedBy: string;
  readonly createdAt: string;
}

export interface PluginsOverview {
  readonly mode: DeploymentMode;
  readonly allowUnsigned: boolean;
  readonly registry: {
    readonly source: string;
    readonly location: string;
    /** Why the registry or trust store could not be read last time; plugins loaded before stay loaded. */
    readonly error: string | null;
  };
  /** When the engine last read the registry. */
  readonly refreshedAt: string | null;
  readonly loaded: readonly LoadedPlugin[];
  readonly refused: readonly RefusedPlugin[];
  readonly allowList: readonly AllowListEntry[];
}

function parseGrant(value: unknown): NetworkGrant | undefined {
  if (!isRecord(value)) return undefined;
  const { origin, path_prefix: pathPrefix, reason } = value;
  const methods = stringList(value['methods']);
  if (!isString(origin) || !isString(pathPrefix) || !isString(reason) || !methods) return undefined;
  return { origin, pathPrefix, methods, reason };
}

function parseLoaded(value: unknown): LoadedPlugin | undefined {
  if (!isRecord(value)) return undefined;
  const { id, name, version, kind, publisher, signed, test_only_key: testOnlyKey = false } = value;
  const capabilities = stringList(value['capabilities']);
  const network = listOf(value['network'], parseGrant);
  if (!isString(id) || !isString(name) || !isString(version) || !isString(kind) || typeof signed !== 'boolean') return undefined;
  if (!isRecord(publisher) || !isString(publisher['name']) || !isString(publisher['key_id'])) return undefined;
  if (!capabilities || !network || typeof testOnlyKey !== 'boolean') return undefined;
  return {
    id,
    name,
    version,
    kind,
    publisher: { name: publisher['name'], keyId: publisher['key_id'] },
    signed,
    testOnlyKey,
    capabilities,
    network,
  };
}

function parseRefused(value: unknown): RefusedPlugin | undefined {
  if (!isRecord(value)) return undefined;
  const { id, version, reason, detail } = value;
  const keyId = optionalString(value['key_id']);
  if (!isString(id) || !isString(reason) || !isString(detail) || keyId === undefined) return undefined;
  if (version !== null && !isString(version)) return undefined;
  return { id, version, reason, detail, keyId };
}

/** Parses one allow-list entry, as listed in the overview and as answered by `POST …/allow-list`. */
export function parseAllowListEntry(value: unknown): AllowListEntry | undefined {
  if (!isRecord(value)) return undefined;
  const { id, plugin_id: pluginId, key_id: keyId, version_range: versionRange, added_by: addedBy, created_at: createdAt } = value;
  if (!isString(id) || !isString(pluginId) || !isString(keyId) || !isString(versionRange) || !isString(addedBy) || !isString(createdAt)) {
    return undefined;
  }
  return { id, pluginId, keyId, versionRange, addedBy, createdAt };
}

/** Returns undefined when the body does not have the documented shape. */
export function parsePluginsOverview(body: unknown): PluginsOverview | undefined {
  if (!isRecord(body)) return undefined;
  const { mode, allow_unsigned: allowUnsigned, registry } = body;
  if (mode !== 'self_host' && mode !== 'hosted') return undefined;
  if (typeof allowUnsigned !== 'boolean') return undefined;
  if (!isRecord(registry) || !isString(registry['source']) || !isString(registry['location'])) return undefined;
  const registryError = optionalString(registry['error']);
  const refreshedAt = optionalString(body['refreshed_at']);
  const loaded = listOf(body['loaded'], parseLoaded);
  const refused = listOf(body['refused'], parseRefused);
  const allowList = listOf(body['allow_list'], parseAllowListEntry);
  if (!loaded || !refused || !allowList || registryError === undefined || refreshedAt === undefined) return undefined;
  return {
    mode,
    allowUnsigned,
    registry: { source: registry['source'], location: registry['location'], error: registryError },
    refreshedAt,
    loaded,
    refused,
    allowList,
  };
}

export function releasePath(pluginId: string): string {
  return `${PLUGINS_PATH}/${encodeURIComponent(pluginId)}/release`;
}

export function allowListEntryPath(entryId: string): string {
  return `${ALLOW_LIST_PATH}/${encodeURIComponent(entryId)}`;
}

export function describeRegistrySource(source: string): string {
  if (source === 'directory') return 'Local directory';
  if (source === 'https') return 'HTTPS registry';
  return source;
}

export function pluginKindLabel(kind: string): string {
  if (kind === 'provider') return 'Provider';
  if (kind === 'format') return 'File format';
  return kind;
}

/** `GET, POST https://api.example.com/v1/`: what one grant lets the plugin request. */
export function describeGrant(grant: NetworkGrant): string {
  const methods = grant.methods.map((method) => method.toUpperCase()).join(', ');
  return `${methods} ${grant.origin}${grant.pathPrefix}`;
}

/** The same plugin id and version, whether loaded or refused; keys UI state across reloads. */
export function pluginKey(plugin: { readonly id: string; readonly version: string | null }): string {
  return `${plugin.id}@${plugin.version ?? ''}`;
}
