import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { apiRequest } from '../../api/http.ts';
import { describeDeploymentMode, endSessionUrlOf, needsSignIn, OIDC_SIGN_IN_PATH, parseMe, signInMethodOf, userLabel, type Me, type SignInMethod } from '../../api/me.ts';
import { toProblem, type Problem } from '../../api/problem.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { factsStyles } from '../../theme/facts.styles.ts';
import { panelStyles } from '../../theme/panel.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import '../login-form/index.ts';
import '../problem-notice/index.ts';
import { settingsPageStyles } from './settings-page.styles.ts';
import { OplPage } from '../kit/index.ts';

type Load =
  | { readonly kind: 'loading' }
  | { readonly kind: 'loaded'; readonly me: Me }
  /** The gate is on and there is no session; `me` is there when the engine still described itself. */
  | { readonly kind: 'signed-out'; readonly me: Me | undefined; readonly method: SignInMethod }
  | { readonly kind: 'failed'; readonly problem: Problem };

/** Settings: what `GET /api/me` says about this deployment, plus owner sign-in and sign-out. */
export class OplSettingsPage extends OplPage {
  static override styles = [sharedStyles, pageStyles, panelStyles, factsStyles, settingsPageStyles];

  static override properties = {
    _load: { state: true },
    _signingOut: { state: true },
    _actionProblem: { state: true },
  };

  declare _load: Load;
  declare _signingOut: boolean;
  declare _actionProblem: Problem | undefined;
  /** After signing in or out the form that had focus disappears; focus goes to this heading instead. */
  #focusHeading: string | undefined;

  constructor() {
    super();
    this._load = { kind: 'loading' };
    this._signingOut = false;
    this._actionProblem = undefined;
    this.#focusHeading = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.reload();
  }

  async reload(): Promise<void> {
    if (this._load.kind !== 'loaded') this._load = { kind: 'loading' };
    const result = await apiRequest('/api/me');
    if (result.ok) {
      const me = parseMe(result.data);
      if (!me) {
        const problem = toProblem(result.status, undefined);
        this._load = {
          kind: 'failed',
          problem: { ...problem, title: 'Unexpected answer from the engine', detail: 'GET /api/me did not return the documented fields.' },
        };
      } else if (needsSignIn(me)) {
        this._load = { kind: 'signed-out', me, method: me.session.signIn };
      } else {
        this._load = { kind: 'loaded', me };
      }
      return;
    }
    if (result.status === 401) {
      // Normally `session_required`; its detail is written for API clients, so the page explains in its own words.
      this._load = { kind: 'signed-out', me: undefined, method: signInMethodOf(result.body) };
      return;
    }
    this._load = { kind: 'failed', problem: result.problem };
  }

  protected override updated(_changed: PropertyValues<this>): void {
    if (!this.#focusHeading) return;
    const heading = this.renderRoot.querySelector<HTMLElement>(`#${this.#focusHeading}`);
    if (heading) {
      this.#focusHeading = undefined;
      heading.focus();
    }
  }

  async #signedIn(): Promise<void> {
    await this.reload();
    if (this._load.kind === 'loaded') {
      this._announcement = 'Signed in.';
      this.#focusHeading = 'instance-heading';
    }
  }

  async #signOut(): Promise<void> {
    this._signingOut = true;
    this._actionProblem = undefined;
    const result = await apiRequest('/api/session', { method: 'DELETE' });
    this._signingOut = false;
    if (!result.ok) {
      this._actionProblem = result.problem;
      return;
    }
    // The OpenID provider ends its session too, then sends the browser back to the start page.
    const endSession = endSessionUrlOf(result.data);
    if (endSession !== undefined) {
      window.location.assign(endSession);
      return;
    }
    await this.reload();
    this._announcement = 'Signed out.';
    this.#focusHeading = 'sign-in-heading';
  }

  #details(me: Me): TemplateResult {
    const gate = me.session.required;
    return html`
      <section aria-labelledby="instance-heading">
        <h2 id="instance-heading" tabindex="-1">This engine</h2>
        <dl>
          <dt>Deployment mode</dt>
          <dd data-field="deployment-mode">
            <code>${me.deploymentMode}</code>
            <span class="explain">${describeDeploymentMode(me.deploymentMode)}.</span>
          </dd>
          ${me.user
            ? html`<dt>Signed in as</dt>
                <dd data-field="user">
                  ${userLabel(me.user)}${me.user.email && me.user.displayName ? html`<span class="explain">${me.user.email}</span>` : nothing}
                  ${me.user.isAdmin ? html`<span class="explain">Admin of this instance.</span>` : nothing}
                </dd>`
            : html`<dt>Owner</dt>
                <dd data-field="owner">
                  ${me.ownerId === null
                    ? html`None<span class="explain">${me.deploymentMode === 'hosted' ? 'This hosted instance has no user sign-in configured, so it cannot migrate for anyone.' : 'No owner is signed in to this engine.'}</span>`
                    : html`<code>${me.ownerId}</code>`}
                </dd>`}
          <dt>${me.session.signIn === 'oidc' ? 'User sign-in' : 'Owner session gate'}</dt>
          <dd data-field="session-gate">
            ${me.session.signIn === 'oidc'
              ? html`On<span class="explain">Every user signs in through this instance's identity provider.</span>`
              : gate
                ? html`On<span class="explain">A public base URL is configured, so every private request needs the owner secret.</span>`
                : html`Off<span class="explain">No public base URL is configured, so no sign-in is needed.</span>`}
          </dd>
          ${gate && !me.user
            ? html`<dt>This browser</dt>
                <dd data-field="session">${me.session.authenticated ? 'Signed in as the owner' : 'Not signed in'}</dd>`
            : nothing}
        </dl>
        ${gate && me.session.authenticated
          ? html`<div class="actions">
              <button type="button" @click=${() => void this.#signOut()} ?disabled=${this._signingOut}>
                ${this._signingOut ? 'Signing out…' : 'Sign out'}
              </button>
            </div>`
          : nothing}
        ${this._actionProblem ? html`<opl-problem-notice .problem=${this._actionProblem}></opl-problem-notice>` : nothing}
      </section>
    `;
  }

  #signIn(method: SignInMethod): TemplateResult {
    if (method === 'oidc') {
      return html`
        <section aria-labelledby="sign-in-heading">
          <h2 id="sign-in-heading" tabindex="-1">Sign in</h2>
          <p>This instance serves many listeners. Sign in with your account at its identity provider; you come back here afterwards.</p>
          <div class="actions">
            <a class="button primary" href=${OIDC_SIGN_IN_PATH} data-action="oidc-sign-in">Sign in with your account</a>
          </div>
        </section>
      `;
    }
    return html`
      <section aria-labelledby="sign-in-heading">
        <h2 id="sign-in-heading" tabindex="-1">Sign in</h2>
        <p>This engine is protected by the owner secret. Sign in to see its settings and use it from this browser.</p>
        <opl-login-form @opl-signed-in=${() => void this.#signedIn()}></opl-login-form>
      </section>
    `;
  }

  #body(): TemplateResult {
    const load = this._load;
    switch (load.kind) {
      case 'loading':
        return html`<p role="status">Loading settings…</p>`;
      case 'failed':
        return html`<opl-problem-notice .problem=${load.problem}>
          <button type="button" @click=${() => void this.reload()}>Try again</button>
        </opl-problem-notice>`;
      case 'signed-out':
        return html`${this.#signIn(load.method)}${load.me ? this.#details(load.me) : nothing}`;
      case 'loaded':
        return this.#details(load.me);
    }
  }

  override render(): TemplateResult {
    return html`
      ${this.summary ? html`<p class="summary">${this.summary}</p>` : nothing}${this.#body()}
      <span class="visually-hidden" role="status">${this._announcement}</span>
    `;
  }
}
