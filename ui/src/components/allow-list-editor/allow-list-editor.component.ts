import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { authorizationHeaders, needsAdminToken } from '../../api/admin-token.ts';
import { checkDraft, EMPTY_DRAFT, type AllowListDraft, type AllowListField } from '../../api/allow-list.ts';
import { apiRequest } from '../../api/http.ts';
import type { DeploymentMode } from '../../api/me.ts';
import { ALLOW_LIST_PATH, allowListEntryPath, parseAllowListEntry, type AllowListEntry } from '../../api/plugins.ts';
import type { Problem } from '../../api/problem.ts';
import { formatTimestamp } from '../../api/timestamp.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { panelStyles } from '../../theme/panel.styles.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { tableStyles } from '../../theme/table.styles.ts';
import { accessHint } from '../problem-notice/access-hint.ts';
import '../problem-notice/index.ts';
import { allowListEditorStyles } from './allow-list-editor.styles.ts';

const INPUT_IDS: Readonly<Record<AllowListField, string>> = {
  pluginId: 'allow-plugin-id',
  keyId: 'allow-key-id',
  versionRange: 'allow-version-range',
};

export interface AllowListRemovedDetail {
  readonly id: string;
}

/**
 * The hosted allow-list: its entries with a Remove button each, and a form to add one. Talks to the
 * allow-list routes itself and reports each change to the page with `opl-allow-list-added` (detail:
 * the new entry) and `opl-allow-list-removed` (detail: `{id}`), so the page keeps one overview; a
 * refused admin token is reported with `opl-admin-token-rejected`.
 */
export class OplAllowListEditor extends LitElement {
  static override styles = [sharedStyles, pageStyles, panelStyles, formStyles, tableStyles, allowListEditorStyles];

  static override properties = {
    entries: { attribute: false },
    mode: {},
    adminToken: { attribute: false },
    _draft: { state: true },
    _errors: { state: true },
    _adding: { state: true },
    _removing: { state: true },
    _problem: { state: true },
    _removeProblem: { state: true },
    _announcement: { state: true },
  };

  declare entries: readonly AllowListEntry[];
  declare mode: DeploymentMode;
  /** Hosted engines: sent as a bearer token; kept by the page, never stored. */
  declare adminToken: string | undefined;
  declare _draft: AllowListDraft;
  declare _errors: Readonly<Partial<Record<AllowListField, string>>>;
  declare _adding: boolean;
  /** Id of the entry being removed. */
  declare _removing: string | undefined;
  declare _problem: Problem | undefined;
  declare _removeProblem: Problem | undefined;
  declare _announcement: string;

  constructor() {
    super();
    this.entries = [];
    this.mode = 'self_host';
    this.adminToken = undefined;
    this._draft = EMPTY_DRAFT;
    this._errors = {};
    this._adding = false;
    this._removing = undefined;
    this._problem = undefined;
    this._removeProblem = undefined;
    this._announcement = '';
  }

  /**
   * Fills the form (the "Allow" action of a refused plugin) and puts focus on the first field still
   * empty, normally the key id, which only the administrator can vouch for.
   */
  async prefill(draft: AllowListDraft): Promise<void> {
    this._draft = draft;
    this._errors = {};
    this._problem = undefined;
    await this.updateComplete;
    const field = (['pluginId', 'keyId', 'versionRange'] as const).find((name) => draft[name].trim() === '') ?? 'keyId';
    const input = this.#input(field);
    input?.scrollIntoView({ block: 'center' });
    input?.focus();
  }

  #input(field: AllowListField): HTMLInputElement | null {
    return this.renderRoot.querySelector<HTMLInputElement>(`#${INPUT_IDS[field]}`);
  }

  #onInput(field: AllowListField, event: InputEvent): void {
    const value = (event.currentTarget as HTMLInputElement).value;
    this._draft = { ...this._draft, [field]: value };
    if (this._errors[field]) this._errors = { ...this._errors, [field]: undefined };
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this._adding) return;
    this._problem = undefined;
    const check = checkDraft(this._draft);
    if (!check.ok) {
      this._errors = check.errors;
      await this.updateComplete;
      this.#input(check.firstInvalid)?.focus();
      return;
    }
    this._errors = {};
    this._adding = true;
    const result = await apiRequest(ALLOW_LIST_PATH, { method: 'POST', json: check.body, headers: authorizationHeaders(this.adminToken) });
    this._adding = false;
    if (!result.ok) {
      if (needsAdminToken(result.problem)) this.#tokenRejected();
      else this._problem = result.problem;
      return;
    }
    const entry = parseAllowListEntry(result.data);
    if (!entry) {
      this._problem = {
        title: 'Unexpected answer from the engine',
        status: result.status,
        detail: 'The entry may have been added, but the answer did not describe it. Reload the page to see the allow-list.',
      };
      return;
    }
    this._draft = EMPTY_DRAFT;
    this._announcement = `Added ${entry.pluginId} to the allow-list. Reload plugins to apply it.`;
    this.dispatchEvent(new CustomEvent<AllowListEntry>('opl-allow-list-added', { detail: entry, bubbles: true, composed: true }));
  }

  async #remove(entry: AllowListEntry): Promise<void> {
    if (this._removing) return;
    this._removing = entry.id;
    this._removeProblem = undefined;
    const result = await apiRequest(allowListEntryPath(entry.id), { method: 'DELETE', headers: authorizationHeaders(this.adminToken) });
    this._removing = undefined;
    if (!result.ok && needsAdminToken(result.problem)) {
      this.#tokenRejected();
      return;
    }
    if (!result.ok && result.status !== 404) {
      this._removeProblem = result.problem;
      return;
    }
    // 404: someone else removed it already; either way it is gone.
    this._announcement = `Removed the allow-list entry for ${entry.pluginId}.`;
    this.dispatchEvent(
      new CustomEvent<AllowListRemovedDetail>('opl-allow-list-removed', { detail: { id: entry.id }, bubbles: true, composed: true }),
    );
    // The button that had focus is gone with its row.
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#allow-list-heading')?.focus();
  }

  /** The page owns the token and asks for it again. */
  #tokenRejected(): void {
    this.dispatchEvent(new CustomEvent('opl-admin-token-rejected', { bubbles: true, composed: true }));
  }

  #note(): TemplateResult {
    if (this.mode === 'hosted') {
      return html`<p data-testid="allow-list-note">
        This engine runs in hosted mode: it loads only plugins that match an entry here (plugin id, the publisher key that
        signed it, and a version range). Changes apply when plugins are reloaded.
      </p>`;
    }
    return html`<p class="note" data-testid="allow-list-note">
      <strong>Enforced only in hosted mode.</strong>
      This engine runs self-hosted, so it loads every plugin signed by a trusted key and ignores this list. Entries you keep
      here take effect if the engine is started in hosted mode.
    </p>`;
  }

  #table(): TemplateResult {
    if (this.entries.length === 0) {
      return html`<p class="empty">
        The allow-list is empty.${this.mode === 'hosted' ? ' In hosted mode that means no plugin is loaded.' : ''}
      </p>`;
    }
    return html`
      <div class="table-scroll" role="region" aria-labelledby="allow-list-heading" tabindex="0">
        <table aria-labelledby="allow-list-heading">
          <thead>
            <tr>
              <th scope="col">Plugin id</th>
              <th scope="col">Key id</th>
              <th scope="col">Versions</th>
              <th scope="col">Added</th>
              <th scope="col"><span class="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            ${this.entries.map(
              (entry) => html`<tr data-entry=${entry.id}>
                <th scope="row"><code>${entry.pluginId}</code></th>
                <td><code>${entry.keyId}</code></td>
                <td><code>${entry.versionRange}</code></td>
                <td>
                  <time datetime=${entry.createdAt}>${formatTimestamp(entry.createdAt)}</time>
                  <span class="secondary">by ${entry.addedBy}</span>
                </td>
                <td class="actions-cell">
                  <button
                    type="button"
                    aria-disabled=${this._removing === entry.id ? 'true' : 'false'}
                    @click=${() => void this.#remove(entry)}
                  >
                    ${this._removing === entry.id ? 'Removing…' : 'Remove'}<span class="visually-hidden"> ${entry.pluginId}</span>
                  </button>
                </td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
    `;
  }

  #field(field: AllowListField, label: string, hint: TemplateResult): TemplateResult {
    const id = INPUT_IDS[field];
    const error = this._errors[field];
    return html`<div class="field">
      <label for=${id}>${label}</label>
      <input
        id=${id}
        name=${field}
        type="text"
        autocomplete="off"
        spellcheck="false"
        required
        .value=${live(this._draft[field])}
        @input=${(event: InputEvent) => this.#onInput(field, event)}
        aria-describedby=${error ? `${id}-hint ${id}-error` : `${id}-hint`}
        aria-invalid=${error ? 'true' : 'false'}
      />
      ${error ? html`<p class="field-error" id=${`${id}-error`}>${error}</p>` : nothing}
      <p class="hint" id=${`${id}-hint`}>${hint}</p>
    </div>`;
  }

  override render(): TemplateResult {
    return html`
      <section aria-labelledby="allow-list-heading">
        <h2 id="allow-list-heading" tabindex="-1">Allow-list</h2>
        ${this.#note()} ${this.#table()}
        ${this._removeProblem
          ? html`<opl-problem-notice .problem=${this._removeProblem}>${accessHint(this._removeProblem)}</opl-problem-notice>`
          : nothing}
        <form novalidate aria-labelledby="allow-add-heading" @submit=${(event: SubmitEvent) => void this.#submit(event)}>
          <h3 id="allow-add-heading">Add an entry</h3>
          <div class="fields">
            ${this.#field('pluginId', 'Plugin id', html`For example <code>com.example.my-provider</code>.`)}
            ${this.#field('keyId', 'Key id', html`The publisher key that must have signed the plugin, as named in the registry.`)}
            ${this.#field('versionRange', 'Version range', html`A semver range, for example <code>^1.2.0</code>.`)}
          </div>
          ${this._problem ? html`<opl-problem-notice .problem=${this._problem}>${accessHint(this._problem)}</opl-problem-notice>` : nothing}
          <div class="actions">
            <button class="primary" type="submit" aria-disabled=${this._adding ? 'true' : 'false'}>
              ${this._adding ? 'Adding…' : 'Add to allow-list'}
            </button>
          </div>
        </form>
        <span class="visually-hidden" role="status">${this._announcement}</span>
      </section>
    `;
  }
}
