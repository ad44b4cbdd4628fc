import type { Manifest, NetworkGrant } from '@opl/plugin-sdk';
import {
  readBundleManifest,
  readTrustStore,
  registryBundleSource,
  verifyBundle,
  type RefusalReason,
  type RegistrySource,
  type TrustStore,
} from '@opl/plugin-sdk/tools';
import semver from 'semver';
import type { Logger } from '../logging/logger.ts';
import type { AllowListEntry, PluginStateStore } from './plugin-store.ts';
import { providerView, type ProviderView } from './provider-view.ts';

/** What the catalogue needs from the sandbox host (the plugin-host child process). */
export interface PluginRuntime {
  load(bundle: { manifest: Manifest; code: string }): Promise<void>;
  unload(pluginId: string): Promise<void>;
}

export interface LoadedPlugin {
  id: string;
  name: string;
  version: string;
  kind: 'provider' | 'format';
  publisher: { name: string; key_id: string };
  signed: boolean;
  /** Signed with a key marked test-only (never for production instances). */
  test_only_key: boolean;
  capabilities: string[];
  network: NetworkGrant[];
}

export interface RefusedPlugin {
  id: string;
  version: string | null;
  reason: RefusalReason;
  detail: string;
  /** The signing key, when known: admins need it to allow-list a plugin. */
  key_id: string | null;
}

export interface CatalogueSnapshot {
  loaded: LoadedPlugin[];
  refused: RefusedPlugin[];
  /** Set when the registry or trust store could not be read; loaded plugins stay loaded. */
  error: string | null;
  refreshed_at: string | null;
}

export interface PluginCatalogueOptions {
  registry: RegistrySource;
  trustFile: string;
  allowUnsigned: boolean;
  deploymentMode: 'self_host' | 'hosted';
  engineVersion: string;
  store: PluginStateStore;
  runtime: PluginRuntime;
  logger: Logger;
}

interface Active {
  info: LoadedPlugin;
  manifest: Manifest;
  /** sha256 of the entry, so an identical re-read keeps the running sandbox. */
  entryHash: string;
}

/** True when some allow-list entry admits this plugin id, signing key and version. */
export function isAllowListed(entries: readonly AllowListEntry[], pluginId: string, keyId: string | null, version: string): boolean {
  return entries.some(
    (entry) =>
      entry.plugin_id === pluginId &&
      keyId !== null &&
      entry.key_id === keyId &&
      semver.validRange(entry.version_range) !== null &&
      semver.satisfies(version, entry.version_range, { includePrerelease: true }),
  );
}

function describeEngineRange(manifest: Manifest, engineVersion: string): string {
  return `${manifest.id}@${manifest.version} needs engine ${manifest.engines.opl}, but this engine is ${engineVersion}`;
}

/**
 * The engine's view of its plugins: reads the registry, applies the trust policy (signature and
 * key trust, rollback, engine range, hosted allow-list, quarantine) and keeps the plugin host in
 * step. Every plugin that is not loaded is listed with the reason.
 */
export class PluginCatalogue {
  readonly #options: PluginCatalogueOptions;
  readonly #active = new Map<string, Active>();
  #snapshot: CatalogueSnapshot = { loaded: [], refused: [], error: null, refreshed_at: null };
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: PluginCatalogueOptions) {
    this.#options = options;
  }

  get registryLocation(): string {
    return this.#options.registry.location;
  }

  snapshot(): CatalogueSnapshot {
    return this.#snapshot;
  }

  manifest(pluginId: string): Manifest | undefined {
    return this.#active.get(pluginId)?.manifest;
  }

  /** Every loaded plugin's manifest. */
  manifests(): Manifest[] {
    return [...this.#active.values()].map((active) => active.manifest);
  }

  /** The loaded provider plugin for a provider name (`spotify`), if any. */
  providerPlugin(providerName: string): Manifest | undefined {
    for (const { manifest } of this.#active.values()) if (manifest.provider?.name === providerName) return manifest;
    return undefined;
  }

  /** The loaded format plugin for a format name (`m3u8`), if any. */
  formatPlugin(formatName: string): Manifest | undefined {
    for (const { manifest } of this.#active.values()) if (manifest.format?.name === formatName) return manifest;
    return undefined;
  }

  providers(): ProviderView[] {
    const views: ProviderView[] = [];
    for (const { manifest, info } of this.#active.values()) {
      const view = providerView(manifest, info.signed);
      if (view) views.push(view);
    }
    return views.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Re-reads registry, trust store and policy; one refresh at a time. */
  refresh(): Promise<CatalogueSnapshot> {
    const next = this.#queue.then(() => this.#refresh());
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** Quarantines a plugin after repeated limit breaches and unloads it. */
  async quarantine(pluginId: string, reason: string): Promise<void> {
    const version = this.#active.get(pluginId)?.info.version ?? '0.0.0';
    await this.#options.store.quarantine(pluginId, version, reason);
    this.#options.logger.warn({ plugin: pluginId, reason }, 'plugin quarantined');
    await this.refresh();
  }

  async close(): Promise<void> {
    await this.#queue;
  }

  async #refresh(): Promise<CatalogueSnapshot> {
    const { registry, logger } = this.#options;
    let trust: TrustStore;
    let index;
    try {
      trust = await readTrustStore(this.#options.trustFile, { missingOk: true });
      index = await registry.readIndex();
    } catch (error) {
      const message = `The plugin registry at ${registry.location} or the trust store could not be read: ${(error as Error).message}`;
      logger.error({ err: error }, 'plugin registry refresh failed');
      this.#snapshot = { ...this.#snapshot, error: message, refreshed_at: new Date().toISOString() };
      return this.#snapshot;
    }

    const records = await this.#options.store.records();
    const allowList = this.#options.deploymentMode === 'hosted' ? await this.#options.store.allowList() : [];
    const loaded: LoadedPlugin[] = [];
    const refused: RefusedPlugin[] = [];
    const keep = new Set<string>();
    const takenNames = new Map<string, string>();

    for (const pluginId of Object.keys(index.plugins).sort()) {
      const versions = (index.plugins[pluginId]?.versions ?? []).filter((v) => semver.valid(v) !== null).sort(semver.rcompare);
      const outcome = await this.#evaluate(pluginId, versions, trust, records.get(pluginId), allowList, takenNames);
      if (outcome.ok) {
        loaded.push(outcome.info);
        if (!outcome.info.signed) logger.warn({ plugin: pluginId, version: outcome.info.version }, 'UNSIGNED plugin loaded (OPL_PLUGIN_ALLOW_UNSIGNED is on: development only)');
        keep.add(pluginId);
        const name = outcome.manifest.provider?.name ?? outcome.manifest.format?.name;
        if (name) takenNames.set(`${outcome.manifest.kind}:${name}`, pluginId);
      } else {
        refused.push(outcome.refused);
      }
    }

    for (const pluginId of [...this.#active.keys()]) {
      if (!keep.has(pluginId)) await this.#unload(pluginId);
    }
    for (const item of refused) logger.warn({ plugin: item.id, version: item.version, reason: item.reason, detail: item.detail }, 'plugin refused');
    this.#snapshot = { loaded, refused, error: null, refreshed_at: new Date().toISOString() };
    logger.info({ loaded: loaded.map((p) => `${p.id}@${p.version}`), refused: refused.length }, 'plugins refreshed');
    return this.#snapshot;
  }

  async #unload(pluginId: string): Promise<void> {
    this.#active.delete(pluginId);
    try {
      await this.#options.runtime.unload(pluginId);
    } catch (error) {
      this.#options.logger.error({ err: error, plugin: pluginId }, 'plugin unload failed');
    }
  }

  async #evaluate(
    pluginId: string,
    versions: string[],
    trust: TrustStore,
    record: { highestVersionSeen: string; installedVersion: string | null; state: string; stateReason: string | null } | undefined,
    allowList: readonly AllowListEntry[],
    takenNames: Map<string, string>,
  ): Promise<{ ok: true; info: LoadedPlugin; manifest: Manifest } | { ok: false; refused: RefusedPlugin }> {
    const { registry, engineVersion } = this.#options;
    const refuse = (version: string | null, reason: RefusalReason, detail: string, keyId: string | null = null) =>
      ({ ok: false, refused: { id: pluginId, version, reason, detail, key_id: keyId } }) as const;

    if (record?.state === 'quarantined') {
      return refuse(
        record.installedVersion ?? versions[0] ?? null,
        'quarantined',
        `${pluginId} is quarantined: ${record.stateReason ?? 'it broke its limits repeatedly'}. An admin can release it after review.`,
      );
    }
    if (versions.length === 0) return refuse(null, 'unreadable', `The registry index lists no valid version of ${pluginId}.`);

    // Newest version whose manifest accepts this engine; older ones are fallbacks only for the engine range.
    let candidate: { version: string; manifest: Manifest } | null = null;
    let newestMismatch: string | null = null;
    for (const version of versions) {
      const read = await readBundleManifest(registryBundleSource(registry, pluginId, version));
      if ('ok' in read) return refuse(version, read.reason, read.detail);
      if (read.manifest.id !== pluginId || read.manifest.version !== version) {
        return refuse(version, 'invalid_manifest', `The registry lists ${pluginId}@${version}, but its manifest says ${read.manifest.id}@${read.manifest.version}.`);
      }
      if (semver.validRange(read.manifest.engines.opl) !== null && semver.satisfies(engineVersion, read.manifest.engines.opl, { includePrerelease: true })) {
        candidate = { version, manifest: read.manifest };
        break;
      }
      newestMismatch ??= describeEngineRange(read.manifest, engineVersion);
    }
    if (!candidate) return refuse(versions[0] ?? null, 'engine_range', `No published version fits this engine: ${newestMismatch ?? 'no version found'}.`);
    const { version } = candidate;

    if (record && semver.valid(record.highestVersionSeen) && semver.lt(version, record.highestVersionSeen)) {
      return refuse(
        version,
        'rollback',
        `${pluginId}@${version} is older than ${record.highestVersionSeen}, which this instance already loaded; plugin versions only move forward. Publish a newer version instead.`,
      );
    }

    const verified = await verifyBundle(registryBundleSource(registry, pluginId, version), {
      trust,
      registry,
      allowUnsigned: this.#options.allowUnsigned,
    });
    if (!verified.ok) return refuse(version, verified.reason, verified.detail, candidate.manifest.publisher.key_id);
    const { manifest } = verified;

    if (this.#options.deploymentMode === 'hosted' && !isAllowListed(allowList, pluginId, verified.keyId, version)) {
      return refuse(
        version,
        'not_allow_listed',
        `${pluginId}@${version} (key ${verified.keyId ?? 'none'}) is not on this hosted instance's allow-list. An admin can allow it with plugin id ${pluginId}, key id ${verified.keyId ?? '?'} and a version range such as ^${version}.`,
        verified.keyId,
      );
    }

    const name = manifest.provider?.name ?? manifest.format?.name;
    const owner = name ? takenNames.get(`${manifest.kind}:${name}`) : undefined;
    if (owner) {
      return refuse(version, 'duplicate', `${pluginId} declares the ${manifest.kind} name "${name}", which ${owner} already provides.`, verified.keyId);
    }

    const entry = verified.files.get(manifest.entry);
    if (!entry) return refuse(version, 'missing_file', `The entry file ${manifest.entry} is missing.`, verified.keyId);
    const entryHash = manifest.files[manifest.entry] ?? '';
    const info: LoadedPlugin = {
      id: manifest.id,
      name: manifest.name,
      version: manifest.version,
      kind: manifest.kind,
      publisher: { name: manifest.publisher.name, key_id: manifest.publisher.key_id },
      signed: verified.signed,
      test_only_key: verified.testOnlyKey,
      capabilities: manifest.provider?.capabilities ?? [],
      network: manifest.network,
    };

    const current = this.#active.get(pluginId);
    if (!current || current.info.version !== version || current.entryHash !== entryHash) {
      if (current) await this.#unload(pluginId);
      try {
        await this.#options.runtime.load({ manifest, code: new TextDecoder('utf-8', { fatal: true }).decode(entry) });
      } catch (error) {
        return refuse(version, 'load_failed', `The sandbox could not start ${pluginId}@${version}: ${(error as Error).message}`, verified.keyId);
      }
      this.#active.set(pluginId, { info, manifest, entryHash });
    } else {
      current.info = info;
    }
    await this.#options.store.recordLoaded(pluginId, version);
    return { ok: true, info, manifest };
  }
}
