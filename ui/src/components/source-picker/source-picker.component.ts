import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { accountFullName, type AccountView } from '../../api/connections.ts';
import { apiRequest } from '../../api/http.ts';
import { IMPORTS_LIST_PATH, parseImportSources, type ImportSource } from '../../api/library.ts';
import type { MigrationSource } from '../../api/migrations.ts';
import { formatTimestamp } from '../../api/timestamp.ts';
import { hrefFor } from '../../router/route.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { choiceListStyles } from '../../theme/choice-group.styles.ts';
import { sourcePickerStyles } from './source-picker.styles.ts';

export const IMPORT_CHOICE = 'import';

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}

/**
 * Where playlists come from: one of the connected accounts, or an import record — chosen from the
 * owner's imports, or named by its id (the Import page makes them, and can hand one over). A radio
 * group, the imports list and the import id form;
 * fires `opl-source-change` with the chosen MigrationSource, or undefined while it is incomplete.
 */
export class OplSourcePicker extends LitElement {
  static override styles = [sharedStyles, formStyles, choiceListStyles, sourcePickerStyles];

  static override properties = {
    accounts: { attribute: false },
    legend: { type: String },
    importId: { type: String, attribute: 'import-id' },
    accountsUnavailable: { type: Boolean, attribute: 'accounts-unavailable' },
    _choice: { state: true },
    _idError: { state: true },
    _importId: { state: true },
    _imports: { state: true },
  };

  /** Connected accounts only: an account that needs reconnecting cannot be read. */
  declare accounts: readonly AccountView[];
  declare legend: string;
  /** An import id handed over by another page: preselects the import choice and uses it at once. */
  declare importId: string;
  /** The accounts could not be read (the page says why): then only an import can be chosen. */
  declare accountsUnavailable: boolean;
  /** Why "Use this import" did nothing: no id was entered. */
  declare _idError: string;
  declare _choice: string | undefined;
  declare _importId: string;
  /** The owner's usable imports (GET /api/imports), read when the import choice is made; null until then or when unreadable. */
  declare _imports: readonly ImportSource[] | null;

  constructor() {
    super();
    this.accounts = [];
    this.legend = 'Source';
    this.importId = '';
    this.accountsUnavailable = false;
    this._choice = undefined;
    this._idError = '';
    this._importId = '';
    this._imports = null;
  }

  async #loadImports(): Promise<void> {
    const result = await apiRequest(IMPORTS_LIST_PATH);
    // Unreadable: the id form below still works.
    this._imports = result.ok ? (parseImportSources(result.data) ?? null) : null;
  }

  #pickImport(id: string): void {
    this._importId = id;
    this._idError = '';
    this.#emit({ kind: 'import', importId: id });
  }

  #importList(): TemplateResult | typeof nothing {
    if (this._imports === null || this._imports.length === 0) return nothing;
    return html`<fieldset data-testid="import-sources">
      <legend>Your imports</legend>
      ${this._imports.map(
        (entry) => html`<label class="choice"
          ><input type="radio" name="import" .checked=${this._importId === entry.id} @change=${() => this.#pickImport(entry.id)} />
          <span class="import-text"
            ><bdi class="import-name">${entry.name}</bdi>
            <span class="hint">${plural(entry.playlistCount, 'playlist')}, ${plural(entry.trackCount, 'track')} · kept until ${formatTimestamp(entry.expiresAt)}</span></span
          ></label
        >`,
      )}
    </fieldset>`;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('importId') && this.importId) {
      this._choice = IMPORT_CHOICE;
      this._importId = this.importId;
      void this.#loadImports();
      this.#emit({ kind: 'import', importId: this.importId });
    }
  }

  #emit(source: MigrationSource | undefined): void {
    this.dispatchEvent(new CustomEvent<MigrationSource | undefined>('opl-source-change', { detail: source, bubbles: true, composed: true }));
  }

  #choose(choice: string): void {
    this._choice = choice;
    if (choice === IMPORT_CHOICE) {
      void this.#loadImports();
      const id = this._importId.trim();
      this.#emit(id ? { kind: 'import', importId: id } : undefined);
      return;
    }
    const account = this.accounts.find((candidate) => candidate.id === choice);
    this.#emit(account ? { kind: 'account', accountId: account.id, provider: account.provider } : undefined);
  }

  #useImport(event: SubmitEvent): void {
    event.preventDefault();
    const id = this._importId.trim();
    if (!id) {
      this._idError = this._imports && this._imports.length > 0 ? 'Enter the id of an import, or choose one of your imports above.' : 'Enter the id of an import: the Import page shows it.';
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('#import-id')?.focus());
    } else {
      this._idError = '';
    }
    this.#emit(id ? { kind: 'import', importId: id } : undefined);
  }

  override render(): TemplateResult {
    return html`<fieldset>
        <legend>${this.legend}</legend>
        ${this.accountsUnavailable
          ? html`<p class="hint">Your accounts could not be read just now; an import can still be used.</p>`
          : this.accounts.length === 0
            ? html`<p class="hint">No account is connected. Connect one on <a href=${hrefFor('connections')}>Connections</a>, or use an import.</p>`
            : nothing}
        ${this.accounts.map(
          (account) => html`<label class="choice"
            ><input type="radio" name="source" .value=${account.id} .checked=${this._choice === account.id} @change=${() => this.#choose(account.id)} />
            ${accountFullName(account)}</label
          >`,
        )}
        <label class="choice"
          ><input type="radio" name="source" value=${IMPORT_CHOICE} .checked=${this._choice === IMPORT_CHOICE} @change=${() => this.#choose(IMPORT_CHOICE)} />
          An imported file or link</label
        >
      </fieldset>
      ${this._choice === IMPORT_CHOICE ? this.#importList() : nothing}
      ${this._choice === IMPORT_CHOICE
        ? html`<form class="inline" @submit=${(event: SubmitEvent) => this.#useImport(event)}>
            <label for="import-id">Import id</label>
            <input
              id="import-id"
              .value=${this._importId}
              autocomplete="off"
              spellcheck="false"
              aria-invalid=${this._idError ? 'true' : 'false'}
              aria-describedby=${this._idError ? 'import-id-error' : nothing}
              @input=${(event: Event) => (this._importId = (event.currentTarget as HTMLInputElement).value)}
            />
            <button type="submit">Use this import</button>
            ${this._idError ? html`<p class="field-error" id="import-id-error">${this._idError}</p>` : nothing}
            <p class="hint">Imports are made on the <a href=${hrefFor('import')}>Import</a> page.</p>
          </form>`
        : nothing}`;
  }
}
