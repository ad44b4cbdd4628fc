import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { accountFullName, type AccountView } from '../../api/connections.ts';
import type { MigrationSource } from '../../api/migrations.ts';
import { hrefFor } from '../../router/route.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { sourcePickerStyles } from './source-picker.styles.ts';

export const IMPORT_CHOICE = 'import';

/**
 * Where playlists come from: one of the connected accounts, or an import record named by its id
 * (the Import page makes them, and can hand one over). A radio group plus the import id form;
 * fires `opl-source-change` with the chosen MigrationSource, or undefined while it is incomplete.
 */
export class OplSourcePicker extends LitElement {
  static override styles = [sharedStyles, formStyles, sourcePickerStyles];

  static override properties = {
    accounts: { attribute: false },
    legend: { type: String },
    importId: { type: String, attribute: 'import-id' },
    _choice: { state: true },
    _importId: { state: true },
  };

  /** Connected accounts only: an account that needs reconnecting cannot be read. */
  declare accounts: readonly AccountView[];
  declare legend: string;
  /** An import id handed over by another page: preselects the import choice and uses it at once. */
  declare importId: string;
  declare _choice: string | undefined;
  declare _importId: string;

  constructor() {
    super();
    this.accounts = [];
    this.legend = 'Source';
    this.importId = '';
    this._choice = undefined;
    this._importId = '';
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('importId') && this.importId) {
      this._choice = IMPORT_CHOICE;
      this._importId = this.importId;
      this.#emit({ kind: 'import', importId: this.importId });
    }
  }

  #emit(source: MigrationSource | undefined): void {
    this.dispatchEvent(new CustomEvent<MigrationSource | undefined>('opl-source-change', { detail: source, bubbles: true, composed: true }));
  }

  #choose(choice: string): void {
    this._choice = choice;
    if (choice === IMPORT_CHOICE) {
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
    this.#emit(id ? { kind: 'import', importId: id } : undefined);
  }

  override render(): TemplateResult {
    return html`<fieldset>
        <legend>${this.legend}</legend>
        ${this.accounts.length === 0 ? html`<p class="hint">No account is connected. Connect one on <a href=${hrefFor('connections')}>Connections</a>, or use an import.</p>` : nothing}
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
      ${this._choice === IMPORT_CHOICE
        ? html`<form class="inline" @submit=${(event: SubmitEvent) => this.#useImport(event)}>
            <label for="import-id">Import id</label>
            <input id="import-id" .value=${this._importId} @input=${(event: Event) => (this._importId = (event.currentTarget as HTMLInputElement).value)} />
            <button type="submit">Use this import</button>
            <p class="hint">Imports are made on the <a href=${hrefFor('import')}>Import</a> page.</p>
          </form>`
        : nothing}`;
  }
}
