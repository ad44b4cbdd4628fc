import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import {
  accountFullName,
  accountName,
  accountPath,
  accountStatusLabel,
  accountTestPath,
  authKindLabel,
  describeConnectionFailure,
  formatExpiry,
  groupAccounts,
  needsReconnect,
  normaliseLabel,
  parseAccount,
  parseConnectionTest,
  type AccountView,
  type ConnectionFailure,
  type ConnectionTest,
  type ProviderRow,
} from '../../../api/connections.ts';
import { apiRequest } from '../../../api/http.ts';
import { unexpectedAnswer } from '../../../api/problem.ts';
import { formatTimestamp } from '../../../api/timestamp.ts';
import { emit, FocusTarget, nextStepsList, OplLightElement } from '../../kit/index.ts';
import { accessHint } from '../../problem-notice/access-hint.ts';
import '../../problem-notice/index.ts';
import { badges, safeId, sameOrigin, type Origin, type OriginExtras } from '../origin.ts';

/** What an account card shows under its facts after an action. */
type AccountNote = { readonly kind: 'test'; readonly test: ConnectionTest } | { readonly kind: 'failure'; readonly failure: ConnectionFailure };

type Busy = { readonly kind: 'test' | 'label' | 'disconnect'; readonly accountId: string };

/**
 * The connected accounts, grouped by service: each card's facts (label, name, status, scopes,
 * expiry) and its actions — test, rename and disconnect are done here; reconnect and browse are
 * asked of the page (`opl-account-reconnect`, `opl-account-browse`, with the account). A changed or
 * removed account is reported with `opl-account-updated` / `opl-account-removed`.
 */
export class OplAccountList extends OplLightElement {
  static override properties = {
    providers: { attribute: false },
    accounts: { attribute: false },
    connecting: { attribute: false },
    browsing: { attribute: false },
    extras: { attribute: false },
    _busy: { state: true },
    _notes: { state: true },
    _editing: { state: true },
    _labelError: { state: true },
    _confirming: { state: true },
  };

  declare providers: readonly ProviderRow[];
  declare accounts: readonly AccountView[];
  /** The sign-in the page is starting, if any: no other action starts meanwhile. */
  declare connecting: Origin | undefined;
  /** The account whose playlists are open. */
  declare browsing: string | undefined;
  declare extras: OriginExtras;
  declare _busy: Busy | undefined;
  declare _notes: ReadonlyMap<string, AccountNote>;
  /** The account whose label is being edited. */
  declare _editing: string | undefined;
  declare _labelError: string;
  /** The account the disconnect dialog asks about. */
  declare _confirming: AccountView | undefined;
  readonly #focus = new FocusTarget();

  constructor() {
    super();
    this.providers = [];
    this.accounts = [];
    this.connecting = undefined;
    this.browsing = undefined;
    this.extras = () => html``;
    this._busy = undefined;
    this._notes = new Map();
    this._editing = undefined;
    this._labelError = '';
    this._confirming = undefined;
  }

  /** An account test, rename or disconnect is waiting for the engine. */
  get busy(): boolean {
    return this._busy !== undefined;
  }

  /** Forgets what a card said after an action (the account was connected again). */
  clearNote(accountId: string): void {
    this.#setNote(accountId, undefined);
  }

  protected override updated(changed: PropertyValues<this>): void {
    // Opened once per request: a dialog that was just closed must not open again before it is removed.
    if (changed.has('_confirming') && this._confirming) this.querySelector<HTMLDialogElement>('dialog')?.showModal();
    this.#focus.apply(this);
  }

  #announce(text: string): void {
    emit(this, 'opl-announce', text);
  }

  #setNote(accountId: string, note: AccountNote | undefined): void {
    const next = new Map(this._notes);
    if (note) next.set(accountId, note);
    else next.delete(accountId);
    this._notes = next;
  }

  #blocked(): boolean {
    return this._busy !== undefined || this.connecting !== undefined;
  }

  async #test(account: AccountView): Promise<void> {
    if (this.#blocked()) return;
    this._busy = { kind: 'test', accountId: account.id };
    this.#setNote(account.id, undefined);
    this.#announce(`Testing ${accountName(account)}…`);
    const result = await apiRequest(accountTestPath(account.id), { method: 'POST', timeoutMs: 60_000 });
    this._busy = undefined;
    if (!result.ok) {
      this.#setNote(account.id, { kind: 'failure', failure: describeConnectionFailure(result.status, result.problem, result.body) });
      this.#announce(`Test failed: ${result.problem.title}.`);
      return;
    }
    const test = parseConnectionTest(result.data);
    if (!test) {
      this.#setNote(account.id, { kind: 'failure', failure: describeConnectionFailure(result.status, unexpectedAnswer(result.status, 'POST …/test'), undefined) });
      return;
    }
    this.#setNote(account.id, { kind: 'test', test });
    if (test.status !== account.status) emit(this, 'opl-account-updated', { ...account, status: test.status });
    this.#announce(test.ok ? `The connection to ${accountFullName(account)} works.` : `The connection to ${accountFullName(account)} does not work.`);
  }

  #editLabel(account: AccountView): void {
    this._editing = account.id;
    this._labelError = '';
    this.#focus.set(safeId('label-input', account.id));
  }

  #cancelLabel(account: AccountView): void {
    this._editing = undefined;
    this._labelError = '';
    this.#focus.set(safeId('rename', account.id));
  }

  async #saveLabel(event: SubmitEvent, account: AccountView): Promise<void> {
    event.preventDefault();
    if (this.#blocked()) return;
    const input = (event.currentTarget as HTMLFormElement).elements.namedItem('label') as HTMLInputElement;
    const label = normaliseLabel(input.value);
    if (label !== null && label.length > 100) {
      this._labelError = 'Use at most 100 characters.';
      this.#focus.set(safeId('label-input', account.id));
      return;
    }
    this._busy = { kind: 'label', accountId: account.id };
    const result = await apiRequest(accountPath(account.id), { method: 'PATCH', json: { account_label: label } });
    this._busy = undefined;
    if (!result.ok) {
      this._labelError = result.problem.detail ?? result.problem.title;
      this.#focus.set(safeId('label-input', account.id));
      return;
    }
    emit(this, 'opl-account-updated', parseAccount(result.data) ?? { ...account, accountLabel: label });
    this._editing = undefined;
    this._labelError = '';
    this.#announce(label === null ? 'Label removed.' : `Label saved: ${label}.`);
    this.#focus.set(safeId('rename', account.id));
  }

  #closeDialog(): void {
    this.querySelector<HTMLDialogElement>('dialog')?.close();
    this._confirming = undefined;
  }

  /** The dialog closed (Cancel, Escape, or after disconnecting): forget it; the browser returns focus to the opener. */
  readonly #onDialogClose = (): void => {
    this._confirming = undefined;
  };

  async #disconnect(account: AccountView): Promise<void> {
    if (this.#blocked()) return;
    this._busy = { kind: 'disconnect', accountId: account.id };
    const result = await apiRequest(accountPath(account.id), { method: 'DELETE', timeoutMs: 30_000 });
    this._busy = undefined;
    // 404: it is already gone, which is what was asked.
    if (!result.ok && result.status !== 404) {
      this.#closeDialog();
      this.#setNote(account.id, { kind: 'failure', failure: describeConnectionFailure(result.status, result.problem, result.body) });
      this.#announce(`Not disconnected: ${result.problem.title}.`);
      return;
    }
    this.#closeDialog();
    emit(this, 'opl-account-removed', account);
    this.#setNote(account.id, undefined);
    this.#announce(`Disconnected ${accountFullName(account)}.`);
    this.#focus.set('accounts-heading');
  }

  #reconnect(account: AccountView): void {
    emit(this, 'opl-account-reconnect', account);
  }

  #accountNote(account: AccountView): TemplateResult | typeof nothing {
    const note = this._notes.get(account.id);
    if (!note) return nothing;
    if (note.kind === 'failure') {
      const { failure } = note;
      return html`<opl-problem-notice .problem=${failure.problem} data-testid="account-problem">
        <div class="failure-more">
          ${nextStepsList(failure.nextSteps)} ${accessHint(failure.problem)}
          ${failure.reconnect ? html`<button type="button" class="primary" @click=${() => this.#reconnect(account)}>Reconnect</button>` : nothing}
        </div>
      </opl-problem-notice>`;
    }
    const { test } = note;
    return html`<p class=${test.ok ? 'test-result ok' : 'test-result failed'} data-testid="test-result" data-ok=${test.ok ? 'true' : 'false'}>
      ${test.ok
        ? html`<strong>The connection works.</strong> ${test.displayName ? `Signed in as ${test.displayName}.` : ''}`
        : html`<strong>The connection does not work.</strong> ${test.problem ? html`${test.problem.detail} <code>${test.problem.code}</code>` : ''}`}
      <span class="hint">Checked <time datetime=${test.checkedAt}>${formatTimestamp(test.checkedAt)}</time>.</span>
    </p>`;
  }

  #labelEditor(account: AccountView): TemplateResult {
    const inputId = safeId('label-input', account.id);
    const saving = this._busy?.kind === 'label' && this._busy.accountId === account.id;
    return html`<form
      class="label-form"
      novalidate
      @submit=${(event: SubmitEvent) => void this.#saveLabel(event, account)}
      @keydown=${(event: KeyboardEvent) => {
        if (event.key === 'Escape') this.#cancelLabel(account);
      }}
    >
      <label for=${inputId}>Label for ${account.displayName ?? accountName(account)}</label>
      <input
        id=${inputId}
        name="label"
        type="text"
        maxlength="100"
        autocomplete="off"
        .value=${account.accountLabel ?? ''}
        aria-describedby=${this._labelError ? `${inputId}-error ${inputId}-hint` : `${inputId}-hint`}
        aria-invalid=${this._labelError ? 'true' : 'false'}
      />
      <p class="hint" id=${`${inputId}-hint`}>Leave empty to remove the label.</p>
      ${this._labelError ? html`<p class="field-error" id=${`${inputId}-error`}>${this._labelError}</p>` : nothing}
      <div class="row">
        <button type="submit" class="primary" aria-disabled=${saving ? 'true' : 'false'}>${saving ? 'Saving…' : 'Save label'}</button>
        <button type="button" @click=${() => this.#cancelLabel(account)}>Cancel</button>
      </div>
    </form>`;
  }

  #facts(account: AccountView, reconnect: boolean): TemplateResult {
    return html`<dl>
      <dt>Label</dt>
      <dd data-field="label">${account.accountLabel ?? html`<span class="empty">None</span>`}</dd>
      <dt>Name on ${account.providerDisplayName}</dt>
      <dd data-field="display-name">${account.displayName ?? html`<span class="empty">Not reported</span>`}</dd>
      <dt>User id</dt>
      <dd data-field="provider-user-id">${account.providerUserId ? html`<code>${account.providerUserId}</code>` : html`<span class="empty">Not reported</span>`}</dd>
      <dt>Status</dt>
      <dd data-field="status"><span class=${reconnect ? 'status status-expired' : 'status status-ok'}>${accountStatusLabel(account.status)}</span></dd>
      <dt>Access</dt>
      <dd data-field="scopes">
        ${account.scopes.length === 0
          ? html`<span class="empty">No scopes reported</span>`
          : html`<ul class="scopes">
              ${account.scopes.map((scope) => html`<li><code>${scope}</code></li>`)}
            </ul>`}
        <span class="explain">${authKindLabel(account.authKind)}</span>
      </dd>
      <dt>Access token</dt>
      <dd data-field="expires">
        ${account.expiresAt ? html`<time datetime=${account.expiresAt} title=${formatTimestamp(account.expiresAt)}>${formatExpiry(account.expiresAt)}</time>` : formatExpiry(null)}
        ${account.expiresAt && !reconnect ? html`<span class="explain">Renewed by the engine before it expires.</span>` : nothing}
      </dd>
      <dt>Connected</dt>
      <dd data-field="connected-at"><time datetime=${account.connectedAt}>${formatTimestamp(account.connectedAt)}</time></dd>
    </dl>`;
  }

  #accountCard(account: AccountView): TemplateResult {
    const headingId = safeId('account', account.id);
    const origin: Origin = { kind: 'account', accountId: account.id };
    const reconnect = needsReconnect(account);
    const testing = this._busy?.kind === 'test' && this._busy.accountId === account.id;
    const reconnecting = sameOrigin(this.connecting, origin);
    const name = accountName(account);
    return html`<li class=${reconnect ? 'account needs-reconnect' : 'account'} data-testid="account-card" data-account-id=${account.id} data-status=${account.status}>
      <h4 id=${headingId} tabindex="-1">${name} ${badges(account)}</h4>
      ${reconnect
        ? html`<div class="reconnect-note" data-testid="reconnect-note">
            <p><strong>Sign-in expired.</strong> The engine can no longer read or write this account until you sign in again.</p>
            <button type="button" class="primary" aria-disabled=${reconnecting ? 'true' : 'false'} @click=${() => this.#reconnect(account)}>
              ${reconnecting ? 'Reconnecting…' : 'Reconnect'}<span class="visually-hidden"> ${name}</span>
            </button>
          </div>`
        : nothing}
      ${this._editing === account.id ? this.#labelEditor(account) : nothing} ${this.#facts(account, reconnect)}
      <div class="actions">
        <button
          type="button"
          id=${safeId('browse', account.id)}
          aria-expanded=${this.browsing === account.id ? 'true' : 'false'}
          @click=${() => emit(this, 'opl-account-browse', account)}
        >
          Browse playlists<span class="visually-hidden"> of ${name}</span>
        </button>
        <button type="button" aria-disabled=${testing ? 'true' : 'false'} @click=${() => void this.#test(account)}>
          ${testing ? 'Testing…' : 'Test connection'}<span class="visually-hidden"> ${name}</span>
        </button>
        ${reconnect
          ? nothing
          : html`<button type="button" aria-disabled=${reconnecting ? 'true' : 'false'} @click=${() => this.#reconnect(account)}>
              ${reconnecting ? 'Reconnecting…' : 'Reconnect'}<span class="visually-hidden"> ${name}</span>
            </button>`}
        <button type="button" id=${safeId('rename', account.id)} @click=${() => this.#editLabel(account)}>
          Edit label<span class="visually-hidden"> of ${name}</span>
        </button>
        <button type="button" class="danger" @click=${() => (this._confirming = account)}>Disconnect<span class="visually-hidden"> ${name}</span></button>
      </div>
      ${this.#accountNote(account)} ${this.extras(origin)}
    </li>`;
  }

  #dialog(): TemplateResult | typeof nothing {
    const account = this._confirming;
    if (!account) return nothing;
    const disconnecting = this._busy?.kind === 'disconnect' && this._busy.accountId === account.id;
    return html`<dialog aria-labelledby="disconnect-title" aria-describedby="disconnect-text" data-testid="disconnect-dialog" @close=${this.#onDialogClose}>
      <h2 id="disconnect-title">Disconnect ${accountFullName(account)}?</h2>
      <p id="disconnect-text">
        The engine signs out of this account at ${account.providerDisplayName} where it can and deletes its stored sign-in. Nothing on
        ${account.providerDisplayName} is changed or deleted. You can connect it again later.
      </p>
      <div class="row">
        <button type="button" class="danger-solid" aria-disabled=${disconnecting ? 'true' : 'false'} @click=${() => void this.#disconnect(account)}>
          ${disconnecting ? 'Disconnecting…' : 'Disconnect'}
        </button>
        <button type="button" autofocus @click=${() => this.#closeDialog()}>Cancel</button>
      </div>
    </dialog>`;
  }

  override render(): TemplateResult {
    const { providers, accounts } = this;
    const groups = groupAccounts(accounts, providers);
    return html`<section aria-labelledby="accounts-heading">
        <h2 id="accounts-heading" tabindex="-1">Connected accounts <span class="count">(${accounts.length})</span></h2>
        ${groups.length === 0
          ? html`<p class="empty" data-testid="accounts-empty">
              No accounts are connected yet.${providers.length > 0 ? ' Connect a service above to read and write its playlists.' : ''}
            </p>`
          : groups.map(
              (group) => html`<div class="account-group" data-testid="account-group" data-provider=${group.provider}>
                <h3 id=${safeId('group', group.provider)}>${group.displayName} ${group.demo ? html`<span class="badge badge-demo">Demo</span>` : nothing}</h3>
                <ul class="accounts" aria-labelledby=${safeId('group', group.provider)}>
                  ${group.accounts.map((account) => this.#accountCard(account))}
                </ul>
              </div>`,
            )}
      </section>
      ${this.#dialog()}`;
  }
}
