import { html, nothing, type TemplateResult } from 'lit';
import {
  ACCOUNTS_PATH,
  accountFullName,
  authOutcomeProblem,
  beginBody,
  beginPath,
  describeConnectionFailure,
  hashWithoutQuery,
  HEADER_PASTE_DISABLED,
  parseAccounts,
  parseAuthOutcome,
  parseChallenge,
  parseProviders,
  PROVIDERS_PATH,
  type AccountView,
  type AuthOutcome,
  type BeginRequest,
  type ConnectionFailure,
  type ProviderRow,
} from '../../api/connections.ts';
import { apiRequest } from '../../api/http.ts';
import { unexpectedAnswer, type Problem } from '../../api/problem.ts';
import { factsStyles } from '../../theme/facts.styles.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { panelStyles } from '../../theme/panel.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { FocusTarget, nextStepsList, OplPage } from '../kit/index.ts';
import '../login-form/index.ts';
import { accessHint } from '../problem-notice/access-hint.ts';
import '../problem-notice/index.ts';
import type { OplAccountList } from './account-list/account-list.component.ts';
import { accountListStyles } from './account-list/account-list.styles.ts';
import './account-list/index.ts';
import { takeOutcomeHash } from './auth-outcome.ts';
import { saveAttempt, takeAttempt, type ConnectAttempt } from './connect-attempt.store.ts';
import type { ConnectedDetail, InPageChallenge } from './connect-challenge/connect-challenge.component.ts';
import './connect-challenge/index.ts';
import { connectionsPageStyles } from './connections-page.styles.ts';
import { safeId, sameOrigin, type Origin } from './origin.ts';
import './playlist-browser/index.ts';
import type { ConnectRequest } from './provider-list/provider-list.component.ts';
import './provider-list/index.ts';
import { providerListStyles } from './provider-list/provider-list.styles.ts';
import { loadFailedNotice } from '../problem-notice/load-failed.template.ts';

type Load =
  | { readonly kind: 'loading' }
  | { readonly kind: 'loaded'; readonly providers: readonly ProviderRow[]; readonly accounts: readonly AccountView[] }
  /** 401: the session gate is on and this browser has no owner session. */
  | { readonly kind: 'signed-out' }
  | { readonly kind: 'failed'; readonly problem: Problem };

interface ActiveChallenge {
  readonly origin: Origin;
  readonly attempt: ConnectAttempt;
  readonly challenge: InPageChallenge;
}

/** The account actions (test, rename, disconnect) are the account list's; the page starts sign-ins. */
type Busy = { readonly kind: 'begin'; readonly origin: Origin };

/** The announced outcome of a redirect sign-in, shown until dismissed or replaced. */
type Outcome =
  | { readonly kind: 'connected'; readonly text: string }
  | { readonly kind: 'failed'; readonly problem: Problem; readonly attempt: ConnectAttempt | undefined };

const DEMO_BANNER = 'Demo mode: these are simulated services with made-up music; nothing here touches a real account.';

/**
 * Connections: the services offered by the loaded provider plugins with a Connect button each,
 * the sign-in challenge of the chosen method (redirect, device code or form), the connected
 * accounts grouped by service with their label, status, scopes and expiry, the actions on them
 * (test, reconnect, rename, disconnect) and a browser of an account's playlists.
 */
export class OplConnectionsPage extends OplPage {
  static override styles = [sharedStyles, pageStyles, panelStyles, factsStyles, formStyles, providerListStyles, accountListStyles, connectionsPageStyles];

  static override properties = {
    _load: { state: true },
    _busy: { state: true },
    _challenge: { state: true },
    _connectFailure: { state: true },
    _browsing: { state: true },
    _outcome: { state: true },
  };

  declare _load: Load;
  declare _busy: Busy | undefined;
  declare _challenge: ActiveChallenge | undefined;
  declare _connectFailure: { readonly origin: Origin; readonly attempt: ConnectAttempt; readonly failure: ConnectionFailure } | undefined;
  declare _browsing: string | undefined;
  declare _outcome: Outcome | undefined;
  readonly #focus = new FocusTarget();

  constructor() {
    super();
    this._load = { kind: 'loading' };
    this._busy = undefined;
    this._challenge = undefined;
    this._connectFailure = undefined;
    this._browsing = undefined;
    this._outcome = undefined;
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

  protected override updated(): void {
    this.#focus.apply(this.renderRoot);
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
      this.#focus.set('outcome');
      return;
    }
    if (this._load.kind !== 'loaded') await this.refresh();
    const account = this._load.kind === 'loaded' ? this._load.accounts.find((candidate) => candidate.id === outcome.accountId) : undefined;
    const text = account ? `Connected ${accountFullName(account)}.` : 'Account connected.';
    this._outcome = { kind: 'connected', text };
    this._announcement = text;
    if (account) this.#focus.set(safeId('account', account.id));
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

  #accountList(): OplAccountList | null {
    return this.renderRoot.querySelector('opl-account-list');
  }

  /** Starts a sign-in: a redirect leaves the page; a device code or form is shown where it started. */
  async #begin(origin: Origin, attempt: ConnectAttempt): Promise<void> {
    if (this._busy || this.#accountList()?.busy) return;
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

  #reconnect(account: AccountView): void {
    const attempt: ConnectAttempt = { provider: account.provider, accountLabel: account.accountLabel, reconnectAccountId: account.id };
    // The same method as before; without a record of it the engine picks the provider's first.
    void this.#begin({ kind: 'account', accountId: account.id }, account.authKind === null ? attempt : { ...attempt, authKind: account.authKind });
  }

  #retryAttempt(attempt: ConnectAttempt | undefined): void {
    this._outcome = undefined;
    if (!attempt) {
      this.#focus.set('providers-heading');
      return;
    }
    const origin: Origin = attempt.reconnectAccountId ? { kind: 'account', accountId: attempt.reconnectAccountId } : { kind: 'provider', provider: attempt.provider };
    void this.#begin(origin, attempt);
  }

  readonly #onConnected = async (event: CustomEvent<ConnectedDetail>): Promise<void> => {
    const { account } = event.detail;
    this._challenge = undefined;
    this.#replaceAccount(account);
    this.#accountList()?.clearNote(account.id);
    this._announcement = `Connected ${accountFullName(account)}.`;
    this.#focus.set(safeId('account', account.id));
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
    if (origin?.kind === 'provider') this.#focus.set(safeId('connect', origin.provider));
    else if (origin?.kind === 'account') this.#focus.set(safeId('account', origin.accountId));
  }

  #challengeRestart(): void {
    const active = this._challenge;
    if (!active) return;
    this._challenge = undefined;
    void this.#begin(active.origin, active.attempt);
  }

  /** What a card shows for a sign-in started there: its problem and its challenge. */
  #extras(origin: Origin): TemplateResult {
    return html`${this.#failureNotice(origin)} ${this.#challengeFor(origin)}`;
  }

  readonly #onConnect = (event: CustomEvent<ConnectRequest>): void => {
    void this.#begin(event.detail.origin, event.detail.attempt);
  };

  readonly #onAccountRemoved = (event: CustomEvent<AccountView>): void => {
    const account = event.detail;
    if (this._load.kind === 'loaded') this._load = { ...this._load, accounts: this._load.accounts.filter((existing) => existing.id !== account.id) };
    if (this._browsing === account.id) this._browsing = undefined;
  };

  readonly #onBrowserReconnect = (event: CustomEvent<{ accountId: string }>): void => {
    const account = this.#accounts().find((candidate) => candidate.id === event.detail.accountId);
    if (account) this.#reconnect(account);
  };

  #browserClosed(): void {
    const id = this._browsing;
    this._browsing = undefined;
    if (id) this.#focus.set(safeId('browse', id));
  }

  #failureNotice(origin: Origin): TemplateResult | typeof nothing {
    const shown = this._connectFailure;
    if (!shown || !sameOrigin(shown.origin, origin)) return nothing;
    const { failure, attempt } = shown;
    return html`<opl-problem-notice .problem=${failure.problem} data-testid="connect-problem">
      <div class="failure-more">
        ${nextStepsList(failure.nextSteps)} ${failure.problem.code === HEADER_PASTE_DISABLED ? nothing : accessHint(failure.problem)}
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
        return loadFailedNotice(load.problem, () => void this.refresh());
      case 'loaded': {
        const { providers, accounts } = load;
        const demo = providers.some((provider) => provider.demo) || accounts.some((account) => account.demo);
        const browsing = accounts.find((account) => account.id === this._browsing);
        return html`
          ${demo ? html`<p class="demo-banner" data-testid="demo-banner"><strong>Demo</strong> ${DEMO_BANNER}</p>` : nothing}
          ${this.#outcomeNotice()}
          <opl-provider-list
            .providers=${providers}
            .accounts=${accounts}
            .connecting=${this._busy?.origin}
            .extras=${(origin: Origin) => this.#extras(origin)}
            @opl-connect=${this.#onConnect}
          ></opl-provider-list>
          <opl-account-list
            .providers=${providers}
            .accounts=${accounts}
            .connecting=${this._busy?.origin}
            .browsing=${this._browsing}
            .extras=${(origin: Origin) => this.#extras(origin)}
            @opl-account-reconnect=${(event: CustomEvent<AccountView>) => this.#reconnect(event.detail)}
            @opl-account-browse=${(event: CustomEvent<AccountView>) => (this._browsing = event.detail.id)}
            @opl-account-updated=${(event: CustomEvent<AccountView>) => this.#replaceAccount(event.detail)}
            @opl-account-removed=${this.#onAccountRemoved}
          ></opl-account-list>
          ${browsing
            ? html`<opl-playlist-browser
                .account=${browsing}
                @opl-reconnect=${this.#onBrowserReconnect}
                @opl-browser-closed=${() => this.#browserClosed()}
              ></opl-playlist-browser>`
            : nothing}
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
