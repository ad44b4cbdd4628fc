import { html, nothing, type TemplateResult } from 'lit';
import { describeGrant, pluginKey, pluginKindLabel, type LoadedPlugin } from '../../../api/plugins.ts';
import { emit, OplLightElement } from '../../kit/index.ts';

const LOADED_COLUMNS = 6;

/**
 * The loaded plugins as a table: name, version, kind, publisher, signature, and a disclosure per
 * plugin with the network access it was granted and its capabilities. Which are open is the page's
 * (kept across reloads); a Details button asks it with `opl-plugin-toggle` and the plugin's key.
 */
export class OplLoadedPlugins extends OplLightElement {
  static override properties = {
    loaded: { attribute: false },
    expanded: { attribute: false },
  };

  declare loaded: readonly LoadedPlugin[];
  /** Keys (id@version) of the plugins whose details are open. */
  declare expanded: ReadonlySet<string>;

  constructor() {
    super();
    this.loaded = [];
    this.expanded = new Set();
  }

  #loadedDetails(plugin: LoadedPlugin): TemplateResult {
    return html`<div class="details">
      <div>
        <h3>Network access</h3>
        ${plugin.network.length === 0
          ? html`<p class="empty">None: this plugin makes no network requests.</p>`
          : html`<ul class="grants">
              ${plugin.network.map(
                (grant) => html`<li>
                  <code>${describeGrant(grant)}</code>
                  <span class="reason">${grant.reason}</span>
                </li>`,
              )}
            </ul>`}
      </div>
      <div>
        <h3>Capabilities</h3>
        ${plugin.capabilities.length === 0
          ? html`<p class="empty">None declared.</p>`
          : html`<ul class="capabilities">
              ${plugin.capabilities.map((capability) => html`<li><code>${capability}</code></li>`)}
            </ul>`}
      </div>
    </div>`;
  }

  override render(): TemplateResult {
    const { loaded } = this;
    return html`
      <section aria-labelledby="loaded-heading">
        <h2 id="loaded-heading" tabindex="-1">Loaded plugins <span class="count">(${loaded.length})</span></h2>
        ${loaded.length === 0
          ? html`<p class="empty">No plugins are loaded.</p>`
          : html`<div class="table-scroll" role="region" aria-labelledby="loaded-heading" tabindex="0">
              <table aria-labelledby="loaded-heading" data-testid="loaded-table">
                <thead>
                  <tr>
                    <th scope="col">Plugin</th>
                    <th scope="col">Version</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Publisher</th>
                    <th scope="col">Signature</th>
                    <th scope="col">Access</th>
                  </tr>
                </thead>
                <tbody>
                  ${loaded.map((plugin, index) => {
                    const key = pluginKey(plugin);
                    const expanded = this.expanded.has(key);
                    const detailsId = `loaded-details-${index}`;
                    return html`<tr data-plugin=${plugin.id}>
                        <th scope="row">${plugin.name}<code class="secondary">${plugin.id}</code></th>
                        <td><code>${plugin.version}</code></td>
                        <td>${pluginKindLabel(plugin.kind)}</td>
                        <td>${plugin.publisher.name}<span class="secondary">key <code>${plugin.publisher.keyId}</code></span></td>
                        <td>
                          ${plugin.signed
                            ? html`<span class="signed">Signed</span>`
                            : html`<span class="badge-warning">UNSIGNED — development only</span>`}
                          ${plugin.signed && plugin.testOnlyKey
                            ? html`<span class="badge-warning">TEST KEY — not for production</span>`
                            : nothing}
                        </td>
                        <td>
                          <button
                            type="button"
                            class="disclosure"
                            aria-expanded=${expanded ? 'true' : 'false'}
                            aria-controls=${detailsId}
                            @click=${() => emit(this, 'opl-plugin-toggle', key)}
                          >
                            <span class="chevron" aria-hidden="true"></span>Details<span class="visually-hidden"> of ${plugin.name}</span>
                          </button>
                          <span class="secondary">${plugin.network.length} network ${plugin.network.length === 1 ? 'grant' : 'grants'}</span>
                        </td>
                      </tr>
                      <tr class="details-row" id=${detailsId} ?hidden=${!expanded}>
                        <td colspan=${LOADED_COLUMNS}>${expanded ? this.#loadedDetails(plugin) : nothing}</td>
                      </tr>`;
                  })}
                </tbody>
              </table>
            </div>`}
      </section>
    `;
  }
}
