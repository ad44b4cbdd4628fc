import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import {
  ACCOUNTS_PATH,
  accountFullName,
  accountName,
  accountPath,
  accountStatusLabel,
  accountTestPath,
  authKindLabel,
  authOutcomeProblem,
  beginBody,
  beginPath,
  describeConnectionFailure,
  formatExpiry,
  groupAccounts,
  hashWithoutQuery,
  HEADER_PASTE_DISABLED,
  needsReconnect,
  normaliseLabel,
  parseAccount,
  parseAccounts,
  parseAuthOutcome,
  parseChallenge,
  parseConnectionTest,
  parseProviders,
  PROVIDERS_PATH,
  type AccountView,
  type AuthOutcome,
  type BeginRequest,
  type ConnectionFailure,
  type ConnectionTest,
  type ProviderRow,
} from '../../api/connections.ts';
import { apiRequest } from '../../api/http.ts';
import type { Problem } from '../../api/problem.ts';
import { formatTimestamp } from '../../api/timestamp.ts';
import { hrefFor } from '../../router/route.ts';
import { factsStyles } from '../../theme/facts.styles.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { panelStyles } from '../../theme/panel.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import '../login-form/index.ts';
import { accessHint } from '../problem-notice/access-hint.ts';
import '../problem-notice/index.ts';
import { takeOutcomeHash } from './auth-outcome.ts';
import { saveAttempt, takeAttempt, type ConnectAttempt } from './connect-attempt.store.ts';
import type { ConnectedDetail, InPageChallenge } from './connect-challenge/connect-challenge.component.ts';
import './connect-challenge/index.ts';
import { connectionsPageStyles } from './connections-page.styles.ts';
import './playlist-browser/index.ts';

type Load =
  | { readonly kind: 'loading' }
  | { readonly kind: 'loaded'; readonly providers: readonly ProviderRow[]; readonly accounts: readonly AccountView[] }
  /** 401: the session gate is on and this browser has no owner session. */
  | { readonly kind: 'signed-out' }
  | { readonly kind: 'failed'; readonly problem: Problem };

/** Where a sign-in started, and so where its challenge and problems are shown: a provider card or an account card. */
type Origin = { readonly kind: 'provider'; readonly provider: string } | { readonly kind: 'account'; readonly accountId: string };

interface ActiveChallenge {
  readonly origin: Origin;
  readonly attempt: ConnectAttempt;
  readonly challenge: InPageChallenge;
}

/** What an account card shows under its facts after an action. */
type AccountNote = { readonly kind: 'test'; readonly test: ConnectionTest } | { readonly kind: 'failure'; readonly failure: ConnectionFailure };

type Busy =
  | { readonly kind: 'begin'; readonly origin: Origin }
  | { readonly kind: 'test' | 'label' | 'disconnect'; readonly accountId: string };

/** The announced outcome of a redirect sign-in, shown until dismissed or replaced. */
type Outcome =
  | { readonly kind: 'connected'; readonly text: string }
  | { readonly kind: 'failed'; readonly problem: Problem; readonly attempt: ConnectAttempt | undefined };

const DEMO_BANNER = 'Demo mode: these are simulated services with made-up music; nothing here touches a real account.';

function unexpectedAnswer(status: number, request: string): Problem {
  return { title: 'Unexpected answer from the engine', status, detail: `${request} did not return the documented fields.` };
}

function sameOrigin(a: Origin | undefined, b: Origin): boolean {
  if (!a) return false;
  if (a.kind === 'provider' && b.kind === 'provider') return a.provider === b.provider;
  if (a.kind === 'account' && b.kind === 'account') return a.accountId === b.accountId;
  return false;
}

/** Element ids from provider names and account ids, which may hold any character. */
function safeId(prefix: string, value: string): string {
  return `${prefix}-${value.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)}`;
}

/**
 * Connections: the services offered by the loaded provider plugins with a Connect button each,
 * the sign-in challenge of the chosen method (redirect, device code or form), the connected
 * accounts grouped by service with their label, status, scopes and expiry, the actions on them
 * (test, reconnect, rename, disconnect) and a browser of an account's playlists.
 */
export class OplConnectionsPage extends LitElement {
  static override styles = [sharedStyles, pageStyles, panelStyles, factsStyles, formStyles, connectionsPageStyles];

  static override properties = {
    summary: {},
    _load: { state: true },
    _busy: { state: true },
    _challenge: { state: true },
    _connectFailure: { state: true },
    _notes: { state: true },
    _editing: { state: true },
    _labelError: { state: true },
    _confirming: { state: true },
    _browsing: { state: true },
    _outcome: { state: true },
    _announcement: { state: true },
  };

  declare summary: string;
  declare _load: Load;
  declare _busy: Busy | undefined;
  declare _challenge: ActiveChallenge | undefined;
  declare _connectFailure: { readonly origin: Origin; readonly attempt: ConnectAttempt; readonly failure: ConnectionFailure } | undefined;
  declare _notes: ReadonlyMap<string, AccountNote>;
  /** The account whose label is being edited. */
  declare _editing: string | undefined;
  declare _labelError: string;
  /** The account the disconnect dialog asks about. */
  declare _confirming: AccountView | undefined;
  declare _browsing: string | undefined;
  declare _outcome: Outcome | undefined;
  declare _announcement: string;
  #focusTarget: string | undefined;

  constructor() {
    super();
    this.summary = '';
    this._load = { kind: 'loading' };
    this._busy = undefined;
    this._challenge = undefined;
    this._connectFailure = undefined;
    this._notes = new Map();
    this._editing = undefined;
    this._labelError = '';
    this._confirming = undefined;
    this._browsing = undefined;
    this._outcome = undefined;
    this._announcement = '';
    this.#focusTarget = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('hashchange', this.#onHashChange);
    void this.#start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('hashchange', this.#onHashChange);
  }

  protected override updated(changed: PropertyValues<this>): void {
    // Opened once per request: a dialog that was just closed must not open again before it is removed.
    if (changed.has('_confirming') && this._confirming) this.renderRoot.querySelector<HTMLDialogElement>('dialog')?.showModal();
    if (!this.#focusTarget) return;
    const target = this.renderRoot.querySelector<HTMLElement>(`[id="${this.#focusTarget}"]`);
    if (target) {
      this.#focusTarget = undefined;
      target.focus();
    }
  }

  /** A sign-in outcome can also arrive while the page is open (a link to `#/connections?connected=…`). */
  readonly #onHashChange = (): void => {
    const hash = takeOutcomeHash();
    if (hash) void this.#applyOutcome(hash);
  };

  async #start(): Promise<void> {
    await this.refresh();
    const hash = takeOutcomeHash() ?? (parseAuthOutcome(window.location.hash) ? window.location.hash : undefined);
    if (hash) await this.#applyOutcome(hash);
  }

  /** Reads providers and accounts together; the page shows nothing half-loaded. */
  async refresh(): Promise<void> {
    if (this._load.kind !== 'loaded') this._load = { kind: 'loading' };
    const [providers, accounts] = await Promise.all([apiRequest(PROVIDERS_PATH), apiRequest(ACCOUNTS_PATH)]);
    for (const result of [providers, accounts]) {
      if (!result.ok) {
        this._load = result.status === 401 ? { kind: 'signed-out' } : { kind: 'failed', problem: result.problem };
        return;
      }
    }
    const providerRows = providers.ok ? parseProviders(providers.data) : undefined;
    const accountRows = accounts.ok ? parseAccounts(accounts.data) : undefined;
    if (!providerRows) this._load = { kind: 'failed', problem: unexpectedAnswer(providers.status, `GET ${PROVIDERS_PATH}`) };
    else if (!accountRows) this._load = { kind: 'failed', problem: unexpectedAnswer(accounts.status, `GET ${ACCOUNTS_PATH}`) };
    else this._load = { kind: 'loaded', providers: providerRows, accounts: accountRows };
  }

  /**
   * Announces the outcome of a redirect sign-in, then cleans the address bar so a reload does not
   * announce it again (the router usually dropped the query already; this covers the rest).
   */
  async #applyOutcome(hash: string): Promise<void> {
    const outcome: AuthOutcome | undefined = parseAuthOutcome(hash);
    if (window.location.hash.includes('?')) window.history.replaceState(window.history.state, '', hashWithoutQuery(window.location.hash));
    if (!outcome) return;
    const attempt = takeAttempt();
    if (outcome.kind === 'failed') {
      // The hash names the provider when the engine knows it; the stored attempt adds the label and method.
      const retry = outcome.provider && attempt?.provider !== outcome.provider ? { provider: outcome.provider, accountLabel: null } : attempt;
      this._outcome = { kind: 'failed', problem: authOutcomeProblem(outcome), attempt: retry };
      this._announcement = '';
      this.#focusTarget = 'outcome';
      return;
    }
    if (this._load.kind !== 'loaded') await this.refresh();
    const account = this._load.kind === 'loaded' ? this._load.accounts.find((candidate) => candidate.id === outcome.accountId) : undefined;
    const text = account ? `Connected ${accountFullName(account)}.` : 'Account connected.';
    this._outcome = { kind: 'connected', text };
    this._announcement = text;
    if (account) this.#focusTarget = safeId('account', account.id);
  }

  #providers(): readonly ProviderRow[] {
    return this._load.kind === 'loaded' ? this._load.providers : [];
  }

  #accounts(): readonly AccountView[] {
    return this._load.kind === 'loaded' ? this._load.accounts : [];
  }

  #providerName(provider: string): string {
    return this.#providers().find((row) => row.name === provider)?.displayName ?? provider;
  }

  #replaceAccount(account: AccountView): void {
    if (this._load.kind !== 'loaded') return;
    const rest = this._load.accounts.filter((existing) => existing.id !== account.id);
    this._load = { ...this._load, accounts: [...rest, account] };
  }

  #setNote(accountId: string, note: AccountNote | undefined): void {
    const next = new Map(this._notes);
    if (note) next.set(accountId, note);
    else next.delete(accountId);
    this._notes = next;
  }

  /** Starts a sign-in: a redirect leaves the page; a device code or form is shown where it started. */
  async #begin(origin: Origin, attempt: ConnectAttempt): Promise<void> {
    if (this._busy) return;
    this._busy = { kind: 'begin', origin };
    this._connectFailure = undefined;
    this._challenge = undefined;
    this._outcome = undefined;
    const name = this.#providerName(attempt.provider);
    this._announcement = `Starting to connect ${name}…`;
    const request: BeginRequest = { accountLabel: attempt.accountLabel, authKind: attempt.authKind, reconnectAccountId: attempt.reconnectAccountId };
    const result = await apiRequest(beginPath(attempt.provider), { method: 'POST', json: beginBody(request) });
    this._busy = undefined;
    if (!result.ok) {
      this._connectFailure = { origin, attempt, failure: describeConnectionFailure(result.status, result.problem, result.body) };
      this._announcement = `Not connected: ${result.problem.title}.`;
      return;
    }
    const challenge = parseChallenge(result.data);
    if (!challenge) {
      const problem = unexpectedAnswer(result.status, `POST ${beginPath(attempt.provider)}`);
      this._connectFailure = { origin, attempt, failure: describeConnectionFailure(result.status, problem, undefined) };
      this._announcement = `Not connected: ${problem.title}.`;
      return;
    }
    if (challenge.shape === 'redirect') {
      saveAttempt(attempt);
      this._announcement = `Opening the ${name} sign-in…`;
      window.location.assign(challenge.redirectUrl);
      return;
    }
    this._challenge = { origin, attempt, challenge };
    this._announcement = challenge.shape === 'device_code' ? `Enter the code ${challenge.userCode} on ${name}.` : `Sign in to ${name}: fill in the form.`;
  }

  #connectProvider(event: SubmitEvent, provider: ProviderRow): void {
    event.preventDefault();
    if (!provider.connectable) return;
    const form = event.currentTarget as HTMLFormElement;
    const label = normaliseLabel((form.elements.namedItem('account-label') as HTMLInputElement | null)?.value ?? '');
    const method = form.querySelector<HTMLInputElement>('input[name="auth-kind"]:checked')?.value;
    const attempt: ConnectAttempt = method ? { provider: provider.name, accountLabel: label, authKind: method } : { provider: provider.name, accountLabel: label };
    void this.#begin({ kind: 'provider', provider: provider.name }, attempt);
  }

  #reconnect(account: AccountView): void {
    const attempt: ConnectAttempt = { provider: account.provider, accountLabel: account.accountLabel, reconnectAccountId: account.id };
    // The same method as before; without a record of it the engine picks the provider's first.
    void this.#begin({ kind: 'account', accountId: account.id }, account.authKind === null ? attempt : { ...attempt, authKind: account.authKind });
  }

  #retryAttempt(attempt: ConnectAttempt | undefined): void {
    this._outcome = undefined;
    if (!attempt) {
      this.#focusTarget = 'providers-heading';
      return;
    }
    const origin: Origin = attempt.reconnectAccountId ? { kind: 'account', accountId: attempt.reconnectAccountId } : { kind: 'provider', provider: attempt.provider };
    void this.#begin(origin, attempt);
  }

  readonly #onConnected = async (event: CustomEvent<ConnectedDetail>): Promise<void> => {
    const { account } = event.detail;
    this._challenge = undefined;
    this.#replaceAccount(account);
    this.#setNote(account.id, undefined);
    this._announcement = `Connected ${accountFullName(account)}.`;
    this.#focusTarget = safeId('account', account.id);
    // The list may hold more than this answer (a reconnect replaces an expired account's status).
    await this.refresh();
  };

  readonly #onAnnounce = (event: CustomEvent<string>): void => {
    event.stopPropagation();
    // Cleared first, so the same words twice are announced twice.
    this._announcement = '';
    void this.updateComplete.then(() => {
      this._announcement = event.detail;
    });
  };

  #challengeCancelled(): void {
    const origin = this._challenge?.origin;
    this._challenge = undefined;
    if (origin?.kind === 'provider') this.#focusTarget = safeId('connect', origin.provider);
    else if (origin?.kind === 'account') this.#focusTarget = safeId('account', origin.accountId);
  }

  #challengeRestart(): void {
    const active = this._challenge;
    if (!active) return;
    this._challenge = undefined;
    void this.#begin(active.origin, active.attempt);
  }

  async #test(account: AccountView): Promise<void> {
    if (this._busy) return;
    this._busy = { kind: 'test', accountId: account.id };
    this.#setNote(account.id, undefined);
    this._announcement = `Testing ${accountName(account)}…`;
    const result = await apiRequest(accountTestPath(account.id), { method: 'POST', timeoutMs: 60_000 });
    this._busy = undefined;
    if (!result.ok) {
      this.#setNote(account.id, { kind: 'failure', failure: describeConnectionFailure(result.status, result.problem, result.body) });
      this._announcement = `Test failed: ${result.problem.title}.`;
      return;
    }
    const test = parseConnectionTest(result.data);
    if (!test) {
      this.#setNote(account.id, { kind: 'failure', failure: describeConnectionFailure(result.status, unexpectedAnswer(result.status, 'POST …/test'), undefined) });
      return;
    }
    this.#setNote(account.id, { kind: 'test', test });
    if (test.status !== account.status) this.#replaceAccount({ ...account, status: test.status });
    this._announcement = test.ok ? `The connection to ${accountFullName(account)} works.` : `The connection to ${accountFullName(account)} does not work.`;
  }

  #editLabel(account: AccountView): void {
    this._editing = account.id;
    this._labelError = '';
    this.#focusTarget = safeId('label-input', account.id);
  }

  #cancelLabel(account: AccountView): void {
    this._editing = undefined;
    this._labelError = '';
    this.#focusTarget = safeId('rename', account.id);
  }

  async #saveLabel(event: SubmitEvent, account: AccountView): Promise<void> {
    event.preventDefault();
    if (this._busy) return;
    const input = (event.currentTarget as HTMLFormElement).elements.namedItem('label') as HTMLInputElement;
    const label = normaliseLabel(input.value);
    if (label !== null && label.length > 100) {
      this._labelError = 'Use at most 100 characters.';
      this.#focusTarget = safeId('label-input', account.id);
      return;
    }
    this._busy = { kind: 'label', accountId: account.id };
    const result = await apiRequest(accountPath(account.id), { method: 'PATCH', json: { account_label: label } });
    this._busy = undefined;
    if (!result.ok) {
      this._labelError = result.problem.detail ?? result.problem.title;
      this.#focusTarget = safeId('label-input', account.id);
      return;
    }
    const updated = parseAccount(result.data) ?? { ...account, accountLabel: label };
    this.#replaceAccount(updated);
    this._editing = undefined;
    this._labelError = '';
    this._announcement = label === null ? 'Label removed.' : `Label saved: ${label}.`;
    this.#focusTarget = safeId('rename', account.id);
  }

  #askDisconnect(account: AccountView): void {
    this._confirming = account;
  }

  #closeDialog(): void {
    this.renderRoot.querySelector<HTMLDialogElement>('dialog')?.close();
    this._confirming = undefined;
  }

  /** The dialog closed (Cancel, Escape, or after disconnecting): forget it; the browser returns focus to the opener. */
  readonly #onDialogClose = (): void => {
    this._confirming = undefined;
  };

  async #disconnect(account: AccountView): Promise<void> {
    if (this._busy) return;
    this._busy = { kind: 'disconnect', accountId: account.id };
    const result = await apiRequest(accountPath(account.id), { method: 'DELETE', timeoutMs: 30_000 });
    this._busy = undefined;
    // 404: it is already gone, which is what was asked.
    if (!result.ok && result.status !== 404) {
      this.#closeDialog();
      this.#setNote(account.id, { kind: 'failure', failure: describeConnectionFailure(result.status, result.problem, result.body) });
      this._announcement = `Not disconnected: ${result.problem.title}.`;
      return;
    }
    this.#closeDialog();
    if (this._load.kind === 'loaded') this._load = { ...this._load, accounts: this._load.accounts.filter((existing) => existing.id !== account.id) };
    if (this._browsing === account.id) this._browsing = undefined;
    this.#setNote(account.id, undefined);
    this._announcement = `Disconnected ${accountFullName(account)}.`;
    this.#focusTarget = 'accounts-heading';
  }

  #browse(account: AccountView): void {
    this._browsing = account.id;
  }

  readonly #onBrowserReconnect = (event: CustomEvent<{ accountId: string }>): void => {
    const account = this.#accounts().find((candidate) => candidate.id === event.detail.accountId);
    if (account) this.#reconnect(account);
  };

  #browserClosed(): void {
    const id = this._browsing;
    this._browsing = undefined;
    if (id) this.#focusTarget = safeId('browse', id);
  }

  #badges(item: { readonly demo: boolean }, provider?: ProviderRow): TemplateResult {
    return html`${item.demo ? html`<span class="badge badge-demo">Demo</span>` : nothing}
    ${provider && !provider.official ? html`<span class="badge">Unofficial</span>` : nothing}
    ${provider && provider.stability !== 'stable' ? html`<span class="badge">${provider.stability}</span>` : nothing}`;
  }

  #failureNotice(origin: Origin): TemplateResult | typeof nothing {
    const shown = this._connectFailure;
    if (!shown || !sameOrigin(shown.origin, origin)) return nothing;
    const { failure, attempt } = shown;
    return html`<opl-problem-notice .problem=${failure.problem} data-testid="connect-problem">
      <div class="failure-more">
        ${failure.nextSteps.length > 0
          ? html`<ul class="next-steps" aria-label="What to do next">
              ${failure.nextSteps.map((step) => html`<li>${step}</li>`)}
            </ul>`
          : nothing}
        ${failure.problem.code === HEADER_PASTE_DISABLED ? nothing : accessHint(failure.problem)}
        ${failure.retry ? html`<button type="button" @click=${() => void this.#begin(origin, attempt)}>Try again</button>` : nothing}
      </div>
    </opl-problem-notice>`;
  }

  #challengeFor(origin: Origin): TemplateResult | typeof nothing {
    const active = this._challenge;
    if (!active || !sameOrigin(active.origin, origin)) return nothing;
    return html`<opl-connect-challenge
      .challenge=${active.challenge}
      .providerName=${this.#providerName(active.challenge.provider)}
      @opl-connected=${(event: CustomEvent<ConnectedDetail>) => void this.#onConnected(event)}
      @opl-challenge-cancelled=${() => this.#challengeCancelled()}
      @opl-challenge-restart=${() => this.#challengeRestart()}
    ></opl-connect-challenge>`;
  }

  #providerCard(provider: ProviderRow): TemplateResult {
    const origin: Origin = { kind: 'provider', provider: provider.name };
    const headingId = safeId('provider', provider.name);
    const reasonId = safeId('unavailable', provider.name);
    const labelId = safeId('label', provider.name);
    const busy = this._busy?.kind === 'begin' && sameOrigin(this._busy.origin, origin);
    const count = this.#accounts().filter((account) => account.provider === provider.name).length;
    return html`<li class="provider" data-provider=${provider.name} data-connectable=${provider.connectable ? 'true' : 'false'}>
      <h3 id=${headingId}>${provider.displayName} ${this.#badges(provider, provider)}</h3>
      ${count > 0 ? html`<p class="hint">${count === 1 ? '1 account connected' : `${count} accounts connected`}.</p>` : nothing}
      ${provider.warning ? html`<p class="provider-warning">${provider.warning}</p>` : nothing}
      <form class="connect-form" novalidate aria-labelledby=${headingId} @submit=${(event: SubmitEvent) => this.#connectProvider(event, provider)}>
        <div class="field">
          <label for=${labelId}>Label <span class="optional">(optional)</span></label>
          <input id=${labelId} name="account-label" type="text" maxlength="100" autocomplete="off" aria-describedby=${`${labelId}-hint`} />
          <p class="hint" id=${`${labelId}-hint`}>Tells several ${provider.displayName} accounts apart, e.g. “Work”.</p>
        </div>
        ${provider.authKinds.length > 1
          ? html`<fieldset>
              <legend>Sign-in method</legend>
              ${provider.authKinds.map(
                (kind, index) => html`<label class="choice">
                  <input type="radio" name="auth-kind" value=${kind} ?checked=${index === 0} />
                  ${authKindLabel(kind)}
                </label>`,
              )}
            </fieldset>`
          : nothing}
        <div class="row">
          <button
            type="submit"
            class=${provider.connectable ? 'primary' : 'unavailable'}
            id=${safeId('connect', provider.name)}
            aria-disabled=${!provider.connectable || busy ? 'true' : 'false'}
            aria-describedby=${provider.connectable ? nothing : reasonId}
          >
            ${busy ? 'Connecting…' : `Connect ${provider.displayName}`}
          </button>
        </div>
        ${provider.connectable
          ? nothing
          : html`<p class="unavailable" id=${reasonId} data-testid="connect-unavailable">
              ${provider.connectUnavailableReason ?? 'This engine cannot connect this service.'}
            </p>`}
      </form>
      ${this.#failureNotice(origin)} ${this.#challengeFor(origin)}
    </li>`;
  }

  #providersSection(providers: readonly ProviderRow[]): TemplateResult {
    return html`<section aria-labelledby="providers-heading">
      <h2 id="providers-heading" tabindex="-1">Connect a service</h2>
      ${providers.length === 0
        ? html`<p class="empty" data-testid="providers-empty">
            No provider plugins are loaded, so there is nothing to connect yet. Services come from signed provider plugins: see
            <a href=${hrefFor('plugins')}>Plugins</a>, or run <code>opl plugin setup</code> on the server.
          </p>`
        : html`<p>Sign-in happens with the service itself; the engine keeps the tokens and this page never sees them.</p>
            <ul class="providers" data-testid="provider-list">
              ${providers.map((provider) => this.#providerCard(provider))}
            </ul>`}
    </section>`;
  }

  #accountNote(account: AccountView): TemplateResult | typeof nothing {
    const note = this._notes.get(account.id);
    if (!note) return nothing;
    if (note.kind === 'failure') {
      const { failure } = note;
      return html`<opl-problem-notice .problem=${failure.problem} data-testid="account-problem">
        <div class="failure-more">
          ${failure.nextSteps.length > 0
            ? html`<ul class="next-steps" aria-label="What to do next">
                ${failure.nextSteps.map((step) => html`<li>${step}</li>`)}
              </ul>`
            : nothing}
          ${accessHint(failure.problem)}
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

  #accountCard(account: AccountView): TemplateResult {
    const headingId = safeId('account', account.id);
    const origin: Origin = { kind: 'account', accountId: account.id };
    const reconnect = needsReconnect(account);
    const testing = this._busy?.kind === 'test' && this._busy.accountId === account.id;
    const reconnecting = this._busy?.kind === 'begin' && sameOrigin(this._busy.origin, origin);
    const name = accountName(account);
    return html`<li class=${reconnect ? 'account needs-reconnect' : 'account'} data-testid="account-card" data-account-id=${account.id} data-status=${account.status}>
      <h4 id=${headingId} tabindex="-1">${name} ${this.#badges(account)}</h4>
      ${reconnect
        ? html`<div class="reconnect-note" data-testid="reconnect-note">
            <p><strong>Sign-in expired.</strong> The engine can no longer read or write this account until you sign in again.</p>
            <button type="button" class="primary" aria-disabled=${reconnecting ? 'true' : 'false'} @click=${() => this.#reconnect(account)}>
              ${reconnecting ? 'Reconnecting…' : 'Reconnect'}<span class="visually-hidden"> ${name}</span>
            </button>
          </div>`
        : nothing}
      ${this._editing === account.id ? this.#labelEditor(account) : nothing}
      <dl>
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
      </dl>
      <div class="actions">
        <button type="button" id=${safeId('browse', account.id)} aria-expanded=${this._browsing === account.id ? 'true' : 'false'} @click=${() => this.#browse(account)}>
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
        <button type="button" class="danger" @click=${() => this.#askDisconnect(account)}>Disconnect<span class="visually-hidden"> ${name}</span></button>
      </div>
      ${this.#accountNote(account)} ${this.#failureNotice(origin)} ${this.#challengeFor(origin)}
    </li>`;
  }

  #accountsSection(providers: readonly ProviderRow[], accounts: readonly AccountView[]): TemplateResult {
    const groups = groupAccounts(accounts, providers);
    return html`<section aria-labelledby="accounts-heading">
      <h2 id="accounts-heading" tabindex="-1">Connected accounts <span class="count">(${accounts.length})</span></h2>
      ${groups.length === 0
        ? html`<p class="empty" data-testid="accounts-empty">No accounts are connected yet.${providers.length > 0 ? ' Connect a service above to read and write its playlists.' : ''}</p>`
        : groups.map(
            (group) => html`<div class="account-group" data-testid="account-group" data-provider=${group.provider}>
              <h3 id=${safeId('group', group.provider)}>${group.displayName} ${group.demo ? html`<span class="badge badge-demo">Demo</span>` : nothing}</h3>
              <ul class="accounts" aria-labelledby=${safeId('group', group.provider)}>
                ${group.accounts.map((account) => this.#accountCard(account))}
              </ul>
            </div>`,
          )}
    </section>`;
  }

  #outcomeNotice(): TemplateResult | typeof nothing {
    const outcome = this._outcome;
    if (!outcome) return nothing;
    if (outcome.kind === 'connected') {
      return html`<p class="outcome-ok" id="outcome" tabindex="-1" data-testid="auth-outcome" data-outcome="connected">${outcome.text}</p>`;
    }
    const name = outcome.attempt ? this.#providerName(outcome.attempt.provider) : undefined;
    return html`<div id="outcome" tabindex="-1" data-testid="auth-outcome" data-outcome="failed">
      <opl-problem-notice .problem=${outcome.problem}>
        <div class="failure-more">
          <button type="button" class="primary" @click=${() => this.#retryAttempt(outcome.attempt)}>
            Try again${name ? html`<span class="visually-hidden"> to connect ${name}</span>` : nothing}
          </button>
          <button type="button" @click=${() => (this._outcome = undefined)}>Dismiss</button>
        </div>
      </opl-problem-notice>
    </div>`;
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

  #body(): TemplateResult {
    const load = this._load;
    switch (load.kind) {
      case 'loading':
        return html`<p role="status" class="loading">Loading connections…</p>`;
      case 'signed-out':
        return html`<section aria-labelledby="sign-in-heading">
          <h2 id="sign-in-heading" tabindex="-1">Sign in</h2>
          <p>This engine is protected by the owner secret. Sign in to connect and manage accounts from this browser.</p>
          <opl-login-form @opl-signed-in=${() => void this.refresh()}></opl-login-form>
        </section>`;
      case 'failed':
        return html`<opl-problem-notice .problem=${load.problem}>
          ${accessHint(load.problem)}
          <button type="button" @click=${() => void this.refresh()}>Try again</button>
        </opl-problem-notice>`;
      case 'loaded': {
        const { providers, accounts } = load;
        const demo = providers.some((provider) => provider.demo) || accounts.some((account) => account.demo);
        const browsing = accounts.find((account) => account.id === this._browsing);
        return html`
          ${demo ? html`<p class="demo-banner" data-testid="demo-banner"><strong>Demo</strong> ${DEMO_BANNER}</p>` : nothing}
          ${this.#outcomeNotice()} ${this.#providersSection(providers)} ${this.#accountsSection(providers, accounts)}
          ${browsing
            ? html`<opl-playlist-browser
                .account=${browsing}
                @opl-reconnect=${this.#onBrowserReconnect}
                @opl-browser-closed=${() => this.#browserClosed()}
              ></opl-playlist-browser>`
            : nothing}
          ${this.#dialog()}
        `;
      }
    }
  }

  override render(): TemplateResult {
    return html`
      <div @opl-announce=${this.#onAnnounce}>${this.summary ? html`<p class="summary">${this.summary}</p>` : nothing}${this.#body()}</div>
      <span class="visually-hidden" role="status" aria-live="polite" data-testid="announcement">${this._announcement}</span>
    `;
  }
}
