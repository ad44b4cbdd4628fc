import { html, nothing, type TemplateResult } from 'lit';
import { describeGrant, pluginKey, pluginKindLabel, type LoadedPlugin } from '../../../api/plugins.ts';
import { emit, OplLightElement, tableSection, type TableSection } from '../../kit/index.ts';

const LOADED_TABLE: TableSection = {
  headingId: 'loaded-heading',
  title: 'Loaded plugins',
  testId: 'loaded-table',
  columns: [{ label: 'Plugin' }, { label: 'Version' }, { label: 'Kind' }, { label: 'Publisher' }, { label: 'Signature' }, { label: 'Access' }],
  empty: 'No plugins are loaded.',
};
/** A plugin's details row spans the whole table. */
const LOADED_COLUMNS = LOADED_TABLE.columns.length;

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
    return tableSection(
      LOADED_TABLE,
      this.loaded.map((plugin, index) => {
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
      }),
    );
  }
}
