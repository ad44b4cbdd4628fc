import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { apiRequest } from '../../../api/http.ts';
import { libraryPath, parseLibraryPage, type LibraryEntry, type LibraryKind } from '../../../api/library.ts';
import type { Problem } from '../../../api/problem.ts';
import { formStyles } from '../../../theme/form.styles.ts';
import { sharedStyles } from '../../../theme/shared.styles.ts';
import { framedGroupStyles, linkButtonStyles } from '../../../theme/choice-group.styles.ts';
import '../../problem-notice/index.ts';
import { libraryPickerStyles } from './library-picker.styles.ts';

/** A page of a library may take the provider a while (and the engine paces it). */
const READ_TIMEOUT_MS = 60_000;

const NOUNS: Record<LibraryKind, { title: string; plural: string; empty: string }> = {
  albums: { title: 'Saved albums', plural: 'saved albums', empty: 'This account has no saved albums.' },
  artists: { title: 'Followed artists', plural: 'followed artists', empty: 'This account follows no artists.' },
};

type Load = { readonly kind: 'loading' } | { readonly kind: 'loaded' } | { readonly kind: 'failed'; readonly problem: Problem };

/**
 * A checklist of a connected account's saved albums or followed artists, read a page at a time
 * ("Show more" reads the next). Fires `opl-library-change` with the chosen ids.
 */
export class OplLibraryPicker extends LitElement {
  static override styles = [sharedStyles, formStyles, framedGroupStyles, linkButtonStyles, libraryPickerStyles];

  static override properties = {
    accountId: { type: String, attribute: 'account-id' },
    kind: { type: String },
    _entries: { state: true },
    _next: { state: true },
    _load: { state: true },
    _chosen: { state: true },
  };

  declare accountId: string;
  declare kind: LibraryKind;
  declare _entries: readonly LibraryEntry[];
  declare _next: string | null;
  declare _load: Load;
  declare _chosen: ReadonlySet<string>;
  #generation = 0;

  constructor() {
    super();
    this.accountId = '';
    this.kind = 'albums';
    this._entries = [];
    this._next = null;
    this._load = { kind: 'loading' };
    this._chosen = new Set();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('accountId') || changed.has('kind')) {
      this._entries = [];
      this._next = null;
      this._chosen = new Set();
      if (this.accountId) void this.#read(null);
    }
  }

  async #read(cursor: string | null): Promise<void> {
    const generation = ++this.#generation;
    this._load = { kind: 'loading' };
    const result = await apiRequest(libraryPath(this.kind, this.accountId, cursor), { timeoutMs: READ_TIMEOUT_MS });
    if (generation !== this.#generation) return;
    if (!result.ok) {
      this._load = { kind: 'failed', problem: result.problem };
      return;
    }
    const page = parseLibraryPage(this.kind, result.data);
    if (!page) {
      this._load = { kind: 'failed', problem: { title: 'Unexpected answer from the engine', status: result.status, detail: 'The answer did not have the documented fields.' } };
      return;
    }
    const known = new Set(this._entries.map((entry) => entry.id));
    this._entries = [...this._entries, ...page.entries.filter((entry) => !known.has(entry.id))];
    this._next = page.nextCursor;
    this._load = { kind: 'loaded' };
  }

  #set(ids: readonly string[], checked: boolean): void {
    const next = new Set(this._chosen);
    for (const id of ids) {
      if (checked) next.add(id);
      else next.delete(id);
    }
    this._chosen = next;
    // In listing order, so the job keeps the library's order.
    const chosen = this._entries.filter((entry) => next.has(entry.id)).map((entry) => entry.id);
    this.dispatchEvent(new CustomEvent<string[]>('opl-library-change', { detail: chosen, bubbles: true, composed: true }));
  }

  override render(): TemplateResult {
    const noun = NOUNS[this.kind];
    const load = this._load;
    const allChosen = this._entries.length > 0 && this._entries.every((entry) => this._chosen.has(entry.id));
    return html`<fieldset data-testid="library-picker" data-kind=${this.kind}>
      <legend>${noun.title}</legend>
      ${this._entries.length > 0
        ? html`<p class="tools">
              <span class="muted" aria-live="polite">${this._chosen.size} of ${this._entries.length}${this._next ? '+' : ''} chosen</span>
              <button type="button" class="link" @click=${() => this.#set(this._entries.map((entry) => entry.id), !allChosen)}>
                ${allChosen ? 'Clear' : 'Choose all listed'}<span class="visually-hidden"> ${noun.plural}</span>
              </button>
            </p>
            <ul>
              ${this._entries.map(
                (entry) => html`<li>
                  <label
                    ><input type="checkbox" .checked=${this._chosen.has(entry.id)} data-id=${entry.id}
                      @change=${(event: Event) => this.#set([entry.id], (event.currentTarget as HTMLInputElement).checked)} />
                    ${entry.name}${entry.detail ? html` <span class="muted">— ${entry.detail}</span>` : nothing}</label
                  >
                </li>`,
              )}
            </ul>`
        : nothing}
      ${load.kind === 'loading' ? html`<p role="status">Reading the ${noun.plural}…</p>` : nothing}
      ${load.kind === 'failed'
        ? html`<opl-problem-notice .problem=${load.problem}></opl-problem-notice>
            <button type="button" @click=${() => void this.#read(this._next)}>Try again</button>`
        : nothing}
      ${load.kind === 'loaded' && this._entries.length === 0 ? html`<p class="empty">${noun.empty}</p>` : nothing}
      ${load.kind === 'loaded' && this._next ? html`<button type="button" @click=${() => void this.#read(this._next)}>Show more ${noun.plural}</button>` : nothing}
    </fieldset>`;
  }
}
