import type { Config } from '../../config/index.ts';
import type { CatalogueSnapshot, PluginCatalogue } from '../../plugins/plugin-catalogue.service.ts';
import type { AllowListEntry, PluginStore } from '../../plugins/plugin-store.ts';
import type { ProviderView } from '../../plugins/provider-view.ts';

export interface PluginAdminView {
  mode: 'self_host' | 'hosted';
  allow_unsigned: boolean;
  registry: { source: 'directory' | 'https'; location: string; error: string | null };
  loaded: CatalogueSnapshot['loaded'];
  refused: CatalogueSnapshot['refused'];
  allow_list: AllowListEntry[];
  refreshed_at: string | null;
}

/** What the HTTP routes and the CLI use. */
export type PluginAdminApi = Pick<PluginAdmin, 'providers' | 'view' | 'reload' | 'addAllowListEntry' | 'removeAllowListEntry' | 'release'>;

export interface PluginAdminOptions {
  config: Config;
  catalogue: PluginCatalogue;
  store: PluginStore;
  /** Tells the other engine processes that plugin policy changed (LISTEN/NOTIFY). */
  announceChange: () => Promise<void>;
}

/**
 * What admins do with plugins, for the HTTP routes and the CLI alike: read the catalogue, edit the
 * hosted allow-list, release quarantined plugins. Every change re-applies the policy here and
 * announces it, so every engine process converges on the same set of loaded plugins.
 */
export class PluginAdmin {
  readonly #options: PluginAdminOptions;

  constructor(options: PluginAdminOptions) {
    this.#options = options;
  }

  providers(): ProviderView[] {
    return this.#options.catalogue.providers();
  }

  async view(): Promise<PluginAdminView> {
    const { config, catalogue, store } = this.#options;
    const snapshot = catalogue.snapshot();
    return {
      mode: config.deploymentMode,
      allow_unsigned: config.plugins.allowUnsigned,
      registry: { source: config.plugins.registry.source, location: catalogue.registryLocation, error: snapshot.error },
      loaded: snapshot.loaded,
      refused: snapshot.refused,
      allow_list: await store.allowList(),
      refreshed_at: snapshot.refreshed_at,
    };
  }

  async reload(): Promise<void> {
    await this.#options.catalogue.refresh();
    await this.#options.announceChange();
  }

  async addAllowListEntry(entry: { pluginId: string; keyId: string; versionRange: string; addedBy: string }): Promise<AllowListEntry | null> {
    const added = await this.#options.store.addAllowListEntry(entry);
    if (added) await this.reload();
    return added;
  }

  async removeAllowListEntry(id: string): Promise<boolean> {
    const removed = await this.#options.store.removeAllowListEntry(id);
    if (removed) await this.reload();
    return removed;
  }

  async release(pluginId: string): Promise<boolean> {
    const released = await this.#options.store.release(pluginId);
    if (released) await this.reload();
    return released;
  }
}
