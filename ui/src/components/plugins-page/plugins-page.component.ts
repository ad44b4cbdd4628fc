import { html, nothing, type TemplateResult } from 'lit';
import { authorizationHeaders, needsAdminToken } from '../../api/admin-token.ts';
import { canAllow, canRelease, draftForRefused } from '../../api/allow-list.ts';
import { apiRequest, type ApiResult, type RequestOptions } from '../../api/http.ts';
import { describeRefusal } from '../../api/plugin-refusals.ts';
import {
  describeRegistrySource,
  parsePluginsOverview,
  pluginKey,
  PLUGINS_PATH,
  PLUGINS_RELOAD_PATH,
  releasePath,
  type AllowListEntry,
  type PluginsOverview,
  type RefusedPlugin,
} from '../../api/plugins.ts';
import { unexpectedAnswer, type Problem } from '../../api/problem.ts';
import { formatTimestamp } from '../../api/timestamp.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { factsStyles } from '../../theme/facts.styles.ts';
import { panelStyles } from '../../theme/panel.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { tableStyles } from '../../theme/table.styles.ts';
import type { AllowListRemovedDetail } from '../allow-list-editor/allow-list-editor.component.ts';
import '../allow-list-editor/index.ts';
import '../login-form/index.ts';
import { accessHint } from '../problem-notice/access-hint.ts';
import '../problem-notice/index.ts';
import './loaded-plugins/index.ts';
import { loadedPluginsStyles } from './loaded-plugins/loaded-plugins.styles.ts';
import { pluginsPageStyles } from './plugins-page.styles.ts';
import { FocusTarget, OplPage, secretField, tableSection, type TableSection } from '../kit/index.ts';
import { loadFailedNotice } from '../problem-notice/load-failed.template.ts';

type Load =
  | { readonly kind: 'loading' }
  | { readonly kind: 'loaded'; readonly overview: PluginsOverview }
  /** 401: the session gate is on and this browser has no owner session. */
  | { readonly kind: 'signed-out' }
  /** 401 `admin_token_required`: a hosted engine wants its admin token; `rejected` when one was sent. */
  | { readonly kind: 'token-required'; readonly rejected: boolean }
  | { readonly kind: 'failed'; readonly problem: Problem };

/** Which action is waiting for the engine: the reload, or the release of one refused plugin (by key). */
type Busy = { readonly kind: 'reload' } | { readonly kind: 'release'; readonly key: string };

/** Where an action's problem is shown: next to the button that caused it. */
type ActionProblem = { readonly near: 'reload' | 'refused'; readonly problem: Problem };

const REFUSED_TABLE: TableSection = {
  headingId: 'refused-heading',
  title: 'Refused plugins',
  testId: 'refused-table',
  columns: [{ label: 'Plugin' }, { label: 'Reason' }, { label: 'Detail' }, { label: 'Actions', hidden: true }],
  empty: 'No plugins were refused.',
};

/**
 * Plugins: what `GET /api/admin/plugins` reports — registry, loaded plugins with the network access
 * they were granted, refused plugins with the reason in words, and the hosted allow-list — plus
 * the actions the engine offers on them (reload, release from quarantine, allow-list edits).
 */
export class OplPluginsPage extends OplPage {
  static override styles = [sharedStyles, pageStyles, panelStyles, factsStyles, formStyles, tableStyles, loadedPluginsStyles, pluginsPageStyles];

  static override properties = {
    _load: { state: true },
    _busy: { state: true },
    _actionProblem: { state: true },
    _expanded: { state: true },
    _adminToken: { state: true },
    _tokenError: { state: true },
  };

  declare _load: Load;
  declare _busy: Busy | undefined;
  declare _actionProblem: ActionProblem | undefined;
  /** Keys (id@version) of loaded plugins whose details are open; kept across reloads. */
  declare _expanded: ReadonlySet<string>;
  /** The hosted admin token, in memory only; sent with every admin request of this page. */
  declare _adminToken: string | undefined;
  declare _tokenError: string;
  /** Moves focus after a render, when the control that had it goes away. */
  readonly #focus = new FocusTarget();

  constructor() {
    super();
    this._load = { kind: 'loading' };
    this._busy = undefined;
    this._actionProblem = undefined;
    this._expanded = new Set();
    this._adminToken = undefined;
    this._tokenError = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.refresh();
  }

  protected override updated(): void {
    this.#focus.apply(this.renderRoot);
  }

  #request(path: string, options: RequestOptions = {}): Promise<ApiResult<unknown>> {
    return apiRequest(path, { ...options, headers: authorizationHeaders(this._adminToken) });
  }

  /** The engine refused the admin token (or was never given one): ask for it, whatever was shown. */
  #tokenRejected(): void {
    const sent = this._adminToken !== undefined;
    this._adminToken = undefined;
    this._tokenError = sent ? 'The engine did not accept this admin token.' : '';
    this._load = { kind: 'token-required', rejected: sent };
    // Only a rejected token moves focus (back to the field); a first request leaves it where it is.
    if (sent) this.#focus.set('admin-token');
  }

  /**
   * Reads the overview again. The first read replaces the page with its outcome; a later one keeps
   * what is shown when it fails and reports the problem next to the refused list instead.
   */
  async refresh(): Promise<void> {
    const shown = this._load.kind === 'loaded';
    if (!shown) this._load = { kind: 'loading' };
    const result = await this.#request(PLUGINS_PATH);
    this.#applyOverview(result, `GET ${PLUGINS_PATH}`, shown ? 'refused' : undefined);
  }

  /** Returns true when the answer was an overview and is now shown. */
  #applyOverview(result: ApiResult<unknown>, request: string, keepShownAndReportNear?: ActionProblem['near']): boolean {
    let failure: Problem;
    if (result.ok) {
      const overview = parsePluginsOverview(result.data);
      if (overview) {
        this._load = { kind: 'loaded', overview };
        return true;
      }
      failure = unexpectedAnswer(result.status, request);
    } else if (needsAdminToken(result.problem)) {
      this.#tokenRejected();
      return false;
    } else if (result.status === 401 && !keepShownAndReportNear) {
      // Normally `session_required`; its detail is written for API clients, so the page explains in its own words.
      this._load = { kind: 'signed-out' };
      return false;
    } else {
      failure = result.problem;
    }
    if (keepShownAndReportNear) this._actionProblem = { near: keepShownAndReportNear, problem: failure };
    else this._load = { kind: 'failed', problem: failure };
    return false;
  }

  async #signedIn(): Promise<void> {
    await this.refresh();
    if (this._load.kind === 'loaded') {
      this._announcement = 'Signed in.';
      this.#focus.set('registry-heading');
    }
  }

  async #submitToken(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const input = (event.currentTarget as HTMLFormElement).elements.namedItem('admin-token') as HTMLInputElement;
    if (input.value.trim() === '') {
      this._tokenError = 'Enter the admin token.';
      input.focus();
      return;
    }
    this._tokenError = '';
    this._adminToken = input.value.trim();
    await this.refresh();
    // A rejected token comes back to an empty field with focus (see #tokenRejected).
    if (this._load.kind === 'loaded') {
      this._announcement = 'Admin token accepted.';
      this.#focus.set('registry-heading');
    }
  }

  async #reloadPlugins(): Promise<void> {
    if (this._busy) return;
    this._busy = { kind: 'reload' };
    this._actionProblem = undefined;
    this._announcement = '';
    const result = await this.#request(PLUGINS_RELOAD_PATH, { method: 'POST' });
    this._busy = undefined;
    if (!result.ok) {
      if (needsAdminToken(result.problem)) this.#tokenRejected();
      else this._actionProblem = { near: 'reload', problem: result.problem };
      return;
    }
    // The engine answers with the new overview; an answer without a body is read back instead.
    if (result.data === undefined) await this.refresh();
    else if (!this.#applyOverview(result, `POST ${PLUGINS_RELOAD_PATH}`, 'reload')) return;
    if (this._load.kind === 'loaded') {
      const { loaded, refused } = this._load.overview;
      this._announcement = `Plugins reloaded: ${loaded.length} loaded, ${refused.length} refused.`;
    }
  }

  async #release(plugin: RefusedPlugin): Promise<void> {
    if (this._busy) return;
    this._busy = { kind: 'release', key: pluginKey(plugin) };
    this._actionProblem = undefined;
    this._announcement = '';
    const result = await this.#request(releasePath(plugin.id), { method: 'POST' });
    if (!result.ok) {
      this._busy = undefined;
      if (needsAdminToken(result.problem)) this.#tokenRejected();
      else this._actionProblem = { near: 'refused', problem: result.problem };
      return;
    }
    // The engine answers with the new overview; anything else is read back.
    const overview = parsePluginsOverview(result.data);
    if (overview) this._load = { kind: 'loaded', overview };
    else await this.refresh();
    this._busy = undefined;
    this._announcement = `Released ${plugin.id} from quarantine.`;
    // Its Release button is gone with the refusal; the refused list's heading is the nearest place.
    this.#focus.set('refused-heading');
  }

  async #allow(plugin: RefusedPlugin): Promise<void> {
    await this.renderRoot.querySelector('opl-allow-list-editor')?.prefill(draftForRefused(plugin));
  }

  #changeAllowList(change: (entries: readonly AllowListEntry[]) => readonly AllowListEntry[]): void {
    if (this._load.kind !== 'loaded') return;
    const overview = this._load.overview;
    this._load = { kind: 'loaded', overview: { ...overview, allowList: change(overview.allowList) } };
  }

  readonly #onAllowListAdded = (event: CustomEvent<AllowListEntry>): void => {
    const entry = event.detail;
    this.#changeAllowList((entries) => [...entries.filter((existing) => existing.id !== entry.id), entry]);
  };

  readonly #onAllowListRemoved = (event: CustomEvent<AllowListRemovedDetail>): void => {
    const { id } = event.detail;
    this.#changeAllowList((entries) => entries.filter((existing) => existing.id !== id));
  };

  #toggle(key: string): void {
    const next = new Set(this._expanded);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    this._expanded = next;
  }

  #problemNotice(near: ActionProblem['near']): TemplateResult | typeof nothing {
    const action = this._actionProblem;
    if (action?.near !== near) return nothing;
    return html`<opl-problem-notice .problem=${action.problem}>${accessHint(action.problem)}</opl-problem-notice>`;
  }

  #registry(overview: PluginsOverview): TemplateResult {
    const reloading = this._busy?.kind === 'reload';
    return html`
      <section aria-labelledby="registry-heading">
        <h2 id="registry-heading" tabindex="-1">Registry and trust</h2>
        <dl>
          <dt>Mode</dt>
          <dd data-field="mode">
            <code>${overview.mode}</code>
            <span class="explain">
              ${overview.mode === 'hosted'
                ? 'Hosted: only plugins on the allow-list are loaded.'
                : 'Self-hosted: plugins signed by a trusted publisher key are loaded.'}
            </span>
          </dd>
          <dt>Registry</dt>
          <dd data-field="registry">
            ${describeRegistrySource(overview.registry.source)}
            <code class="explain">${overview.registry.location}</code>
            ${overview.refreshedAt
              ? html`<span class="explain">Last read <time datetime=${overview.refreshedAt}>${formatTimestamp(overview.refreshedAt)}</time>.</span>`
              : nothing}
          </dd>
          <dt>Unsigned plugins</dt>
          <dd data-field="allow-unsigned">
            ${overview.allowUnsigned
              ? html`<span class="badge-warning">Allowed — development only</span>
                  <span class="explain">OPL_PLUGIN_ALLOW_UNSIGNED=true: plugins without a signature load, and nobody vouches for them.</span>`
              : html`Refused<span class="explain">Every plugin must be signed by a trusted publisher key.</span>`}
          </dd>
        </dl>
        ${overview.registry.error
          ? html`<div class="warning" data-testid="registry-error">
              <strong>The registry could not be read.</strong>
              ${overview.registry.error}
              <span class="explain">Plugins that were loaded before stay loaded. Fix the cause, then reload.</span>
            </div>`
          : nothing}
        <div class="actions">
          <button type="button" aria-disabled=${reloading ? 'true' : 'false'} @click=${() => void this.#reloadPlugins()}>
            ${reloading ? 'Reloading…' : 'Reload plugins'}
          </button>
          <span class="hint">Reads the registry again and checks every plugin anew.</span>
        </div>
        ${this.#problemNotice('reload')}
      </section>
    `;
  }

  #refusedAction(plugin: RefusedPlugin): TemplateResult | typeof nothing {
    if (canRelease(plugin)) {
      const releasing = this._busy?.kind === 'release' && this._busy.key === pluginKey(plugin);
      return html`<button type="button" aria-disabled=${releasing ? 'true' : 'false'} @click=${() => void this.#release(plugin)}>
        ${releasing ? 'Releasing…' : 'Release'}<span class="visually-hidden"> ${plugin.id}</span>
      </button>`;
    }
    if (canAllow(plugin)) {
      return html`<button type="button" @click=${() => void this.#allow(plugin)}>
        Allow<span class="visually-hidden"> ${plugin.id}</span>
      </button>`;
    }
    return nothing;
  }

  #refused(refused: readonly RefusedPlugin[]): TemplateResult {
    return tableSection(
      REFUSED_TABLE,
      refused.map((plugin) => {
        const reason = describeRefusal(plugin.reason);
        return html`<tr data-plugin=${plugin.id} data-reason=${plugin.reason}>
          <th scope="row">
            <code>${plugin.id}</code>
            <span class="secondary">
              ${plugin.version === null ? 'Version unknown' : html`Version <code>${plugin.version}</code>`}
            </span>
            ${plugin.keyId ? html`<span class="secondary">Key <code>${plugin.keyId}</code></span>` : nothing}
          </th>
          <td><span class="reason-label">${reason.label}</span><code class="secondary">${plugin.reason}</code></td>
          <td>${plugin.detail}<span class="secondary">${reason.advice}</span></td>
          <td class="actions-cell">${this.#refusedAction(plugin)}</td>
        </tr>`;
      }),
      this.#problemNotice('refused'),
    );
  }

  #signIn(): TemplateResult {
    return html`
      <section aria-labelledby="sign-in-heading">
        <h2 id="sign-in-heading" tabindex="-1">Sign in</h2>
        <p>This engine is protected by the owner secret. Sign in to see and manage its plugins from this browser.</p>
        <opl-login-form @opl-signed-in=${() => void this.#signedIn()}></opl-login-form>
      </section>
    `;
  }

  #tokenForm(rejected: boolean): TemplateResult {
    return html`
      <section aria-labelledby="admin-token-heading">
        <h2 id="admin-token-heading" tabindex="-1">Admin token</h2>
        <p>
          This hosted engine lets only its administrator manage plugins. Enter its admin token, the value of
          <code>OPL_ADMIN_TOKEN</code>, to continue.${rejected ? '' : ' Without it, use the opl plugin command on the server.'}
        </p>
        <form class="token-form" novalidate @submit=${(event: SubmitEvent) => void this.#submitToken(event)}>
          ${secretField({
            id: 'admin-token',
            label: 'Admin token',
            hint: "Sent with this page's plugin requests and kept only in its memory: leaving or reloading the page forgets it.",
            autocomplete: 'off',
            error: this._tokenError,
          })}
          <div class="form-actions"><button class="primary" type="submit">Continue</button></div>
        </form>
      </section>
    `;
  }

  #body(): TemplateResult {
    const load = this._load;
    switch (load.kind) {
      case 'loading':
        return html`<p role="status" class="loading">Loading plugins…</p>`;
      case 'signed-out':
        return this.#signIn();
      case 'token-required':
        return this.#tokenForm(load.rejected);
      case 'failed':
        return loadFailedNotice(load.problem, () => void this.refresh());
      case 'loaded': {
        const { overview } = load;
        return html`
          ${this.#registry(overview)} <opl-loaded-plugins
            .loaded=${overview.loaded}
            .expanded=${this._expanded}
            @opl-plugin-toggle=${(event: CustomEvent<string>) => this.#toggle(event.detail)}
          ></opl-loaded-plugins> ${this.#refused(overview.refused)}
          <opl-allow-list-editor
            .entries=${overview.allowList}
            .mode=${overview.mode}
            .adminToken=${this._adminToken}
            @opl-admin-token-rejected=${() => this.#tokenRejected()}
            @opl-allow-list-added=${this.#onAllowListAdded}
            @opl-allow-list-removed=${this.#onAllowListRemoved}
          ></opl-allow-list-editor>
        `;
      }
    }
  }

  override render(): TemplateResult {
    return html`
      ${this.summary ? html`<p class="summary">${this.summary}</p>` : nothing}${this.#body()}
      <span class="visually-hidden" role="status">${this._announcement}</span>
    `;
  }
}
