import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import {
  AUTH_ATTEMPT_EXPIRED,
  completePath,
  describeConnectionFailure,
  parseCompletion,
  type AccountView,
  type AuthChallenge,
  type ConnectionFailure,
} from '../../../api/connections.ts';
import { apiRequest } from '../../../api/http.ts';
import { formatTimestamp } from '../../../api/timestamp.ts';
import { formStyles } from '../../../theme/form.styles.ts';
import { sharedStyles } from '../../../theme/shared.styles.ts';
import { spinnerStyles } from '../../../theme/loading.styles.ts';
import { accessHint } from '../../problem-notice/access-hint.ts';
import '../../problem-notice/index.ts';
import { connectChallengeStyles } from './connect-challenge.styles.ts';
import { announce, FocusTarget, nextStepsList } from '../../kit/index.ts';

type DeviceChallenge = Extract<AuthChallenge, { shape: 'device_code' }>;
type FormChallenge = Extract<AuthChallenge, { shape: 'form' }>;

/** The user's part of a sign-in that stays on this page: a device code to enter elsewhere, or a form. */
export type InPageChallenge = DeviceChallenge | FormChallenge;

export interface ConnectedDetail {
  readonly account: AccountView;
}

/** Polling never hammers the engine, whatever interval a challenge names. */
const MIN_POLL_S = 1;

/**
 * Shows a device-code or form challenge of `POST /api/auth/{provider}/begin` and completes it with
 * `POST …/complete`: polling for a device code until the user approved it elsewhere, or submitting
 * the form. Fires `opl-connected` (with the account), `opl-challenge-cancelled`,
 * `opl-challenge-restart` (start a new attempt) and `opl-announce` (text for the page's live region).
 */
export class OplConnectChallenge extends LitElement {
  static override styles = [sharedStyles, formStyles, spinnerStyles, connectChallengeStyles];

  static override properties = {
    challenge: { attribute: false },
    providerName: {},
    _polling: { state: true },
    _submitting: { state: true },
    _failure: { state: true },
    _expired: { state: true },
    _revealed: { state: true },
    _fieldErrors: { state: true },
    _copied: { state: true },
  };

  declare challenge: InPageChallenge | undefined;
  /** The service's display name, for headings and announcements. */
  declare providerName: string;
  declare _polling: boolean;
  declare _submitting: boolean;
  declare _failure: ConnectionFailure | undefined;
  /** The attempt is over (410): only starting again helps. */
  declare _expired: boolean;
  /** Names of secret fields shown in clear text. */
  declare _revealed: ReadonlySet<string>;
  declare _fieldErrors: Readonly<Record<string, string>>;
  declare _copied: boolean;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped on every start and stop, so an answer that arrives after Cancel is ignored. */
  #generation = 0;
  readonly #focus = new FocusTarget();

  constructor() {
    super();
    this.challenge = undefined;
    this.providerName = '';
    this._polling = false;
    this._submitting = false;
    this._failure = undefined;
    this._expired = false;
    this._revealed = new Set();
    this._fieldErrors = {};
    this._copied = false;
    this.#timer = undefined;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stopPolling();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('challenge')) return;
    this.#stopPolling();
    this._failure = undefined;
    this._expired = false;
    this._revealed = new Set();
    this._fieldErrors = {};
    this._copied = false;
    if (this.challenge?.shape === 'device_code') this.#startPolling(this.challenge);
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('challenge') && this.challenge) {
      // A new challenge takes focus so keyboard users land on what they have to do next.
      this.#focus.set(this.challenge.shape === 'form' ? `field-${this.challenge.fields[0]?.name ?? ''}` : 'challenge-heading');
    }
    this.#focus.apply(this.renderRoot);
  }

  #announce(text: string): void {
    announce(this, text);
  }

  #connected(account: AccountView): void {
    this.#stopPolling();
    this.dispatchEvent(new CustomEvent<ConnectedDetail>('opl-connected', { detail: { account }, bubbles: true, composed: true }));
  }

  #stopPolling(): void {
    this.#generation += 1;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this._polling = false;
  }

  #startPolling(challenge: DeviceChallenge, delayS = challenge.pollIntervalS): void {
    this.#stopPolling();
    this._polling = true;
    const generation = this.#generation;
    this.#timer = setTimeout(() => void this.#poll(challenge, generation), Math.max(MIN_POLL_S, delayS) * 1000);
  }

  async #poll(challenge: DeviceChallenge, generation: number): Promise<void> {
    const result = await apiRequest(completePath(challenge.provider), { method: 'POST', json: { state: challenge.state } });
    if (generation !== this.#generation || challenge !== this.challenge) return;
    this.#timer = undefined;
    if (result.ok) {
      const completion = parseCompletion(result.status, result.data);
      if (completion?.status === 'connected') {
        this.#connected(completion.account);
        return;
      }
      if (completion?.status === 'pending') {
        this.#startPolling(challenge, completion.retryAfterS ?? challenge.pollIntervalS);
        return;
      }
      this.#fail(result.status, { title: 'Unexpected answer from the engine', status: result.status, detail: `POST ${completePath(challenge.provider)} did not return the documented fields.` }, undefined);
      return;
    }
    this.#fail(result.status, result.problem, result.body);
  }

  #fail(status: number, problem: ConnectionFailure['problem'], body: unknown): void {
    this.#stopPolling();
    this._failure = describeConnectionFailure(status, problem, body);
    this._expired = status === 410 || problem.code === AUTH_ATTEMPT_EXPIRED;
    this.#announce(`Not connected: ${problem.title}.`);
  }

  #cancel(): void {
    this.#stopPolling();
    this.#announce(`Connecting ${this.providerName} cancelled.`);
    this.dispatchEvent(new CustomEvent('opl-challenge-cancelled', { bubbles: true, composed: true }));
  }

  #restart(): void {
    this.#stopPolling();
    this.dispatchEvent(new CustomEvent('opl-challenge-restart', { bubbles: true, composed: true }));
  }

  #checkAgain(challenge: DeviceChallenge): void {
    this._failure = undefined;
    this.#startPolling(challenge, 0);
    this.#announce('Checking again…');
  }

  async #copy(code: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(code);
      this._copied = true;
      this.#announce('Code copied.');
    } catch {
      // No clipboard access (permissions, insecure context): select the code so Ctrl+C copies it.
      const element = this.renderRoot.querySelector('.user-code');
      const selection = window.getSelection();
      if (element && selection) {
        selection.selectAllChildren(element);
        this.#announce('Code selected: press Ctrl+C to copy it.');
      }
    }
  }

  async #submit(event: SubmitEvent, challenge: FormChallenge): Promise<void> {
    event.preventDefault();
    if (this._submitting || this._expired) return;
    const form = event.currentTarget as HTMLFormElement;
    const values: Record<string, string> = {};
    const errors: Record<string, string> = {};
    for (const field of challenge.fields) {
      const input = form.elements.namedItem(field.name) as HTMLInputElement | null;
      const value = input?.value ?? '';
      if (value.trim() === '') errors[field.name] = `Enter ${field.label.toLowerCase()}.`;
      values[field.name] = field.secret ? value : value.trim();
    }
    this._fieldErrors = errors;
    const firstError = challenge.fields.find((field) => errors[field.name]);
    if (firstError) {
      this.#focus.set(`field-${firstError.name}`);
      return;
    }
    this._submitting = true;
    this._failure = undefined;
    this.#announce(`Connecting ${this.providerName}…`);
    const result = await apiRequest(completePath(challenge.provider), { method: 'POST', json: { state: challenge.state, values } });
    this._submitting = false;
    if (challenge !== this.challenge) return;
    if (result.ok) {
      const completion = parseCompletion(result.status, result.data);
      if (completion?.status === 'connected') {
        this.#connected(completion.account);
        return;
      }
      this.#fail(result.status, { title: 'Unexpected answer from the engine', status: result.status, detail: 'The engine did not confirm the connection.' }, undefined);
      return;
    }
    this.#fail(result.status, result.problem, result.body);
  }

  #toggleReveal(name: string): void {
    const next = new Set(this._revealed);
    if (next.has(name)) next.delete(name);
    else next.add(name);
    this._revealed = next;
  }

  #failureNotice(): TemplateResult | typeof nothing {
    const failure = this._failure;
    const challenge = this.challenge;
    if (!failure || !challenge) return nothing;
    return html`<opl-problem-notice .problem=${failure.problem} data-testid="challenge-problem">
      <div class="failure-more">
        ${nextStepsList(failure.nextSteps)}
        ${accessHint(failure.problem)}
        <div class="row">
          ${challenge.shape === 'device_code' && !this._expired
            ? html`<button type="button" @click=${() => this.#checkAgain(challenge)}>Check again</button>`
            : nothing}
          <button type="button" class=${this._expired ? 'primary' : ''} @click=${() => this.#restart()}>Start again</button>
        </div>
      </div>
    </opl-problem-notice>`;
  }

  #device(challenge: DeviceChallenge): TemplateResult {
    return html`
      <p>
        Open <a href=${challenge.verificationUrl} target="_blank" rel="noopener noreferrer" data-testid="verification-link">${challenge.verificationUrl}</a>
        on any device, sign in to ${this.providerName} there and enter this code:
      </p>
      <div class="code-row">
        <span class="user-code" data-testid="user-code">${challenge.userCode}</span>
        <button type="button" @click=${() => void this.#copy(challenge.userCode)}>${this._copied ? 'Copied' : 'Copy code'}</button>
      </div>
      ${this._polling
        ? html`<p class="waiting" data-testid="polling"><span class="spinner" aria-hidden="true"></span>Waiting for you to approve on ${this.providerName}…</p>`
        : nothing}
    `;
  }

  #form(challenge: FormChallenge): TemplateResult {
    return html`<form novalidate @submit=${(event: SubmitEvent) => void this.#submit(event, challenge)}>
      ${challenge.fields.map((field) => {
        const id = `field-${field.name}`;
        const error = this._fieldErrors[field.name];
        const revealed = this._revealed.has(field.name);
        const describedBy = [field.help ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
        return html`<div class="field">
          <label for=${id}>${field.label}</label>
          <div class="input-row">
            <input
              id=${id}
              name=${field.name}
              type=${field.secret && !revealed ? 'password' : 'text'}
              autocomplete="off"
              spellcheck="false"
              aria-describedby=${describedBy || nothing}
              aria-invalid=${error ? 'true' : 'false'}
            />
            ${field.secret
              ? html`<button type="button" class="reveal" aria-pressed=${revealed ? 'true' : 'false'} @click=${() => this.#toggleReveal(field.name)}>
                  ${revealed ? 'Hide' : 'Show'}<span class="visually-hidden"> ${field.label}</span>
                </button>`
              : nothing}
          </div>
          ${field.help ? html`<p class="hint" id=${`${id}-help`}>${field.help}</p>` : nothing}
          ${error ? html`<p class="field-error" id=${`${id}-error`}>${error}</p>` : nothing}
        </div>`;
      })}
      <div class="row">
        <button type="submit" class="primary" aria-disabled=${this._submitting || this._expired ? 'true' : 'false'}>
          ${this._submitting ? 'Connecting…' : challenge.submitLabel}
        </button>
        <button type="button" @click=${() => this.#cancel()}>Cancel</button>
      </div>
    </form>`;
  }

  override render(): TemplateResult | typeof nothing {
    const challenge = this.challenge;
    if (!challenge) return nothing;
    return html`<div class="challenge" role="group" aria-labelledby="challenge-heading" data-testid="challenge" data-shape=${challenge.shape}>
      <h4 id="challenge-heading" tabindex="-1">
        ${challenge.shape === 'device_code' ? `Approve on ${this.providerName}` : `Sign in to ${this.providerName}`}
        ${challenge.demo ? html`<span class="badge-demo">Demo</span>` : nothing}
      </h4>
      ${challenge.instructions ? html`<p class="instructions">${challenge.instructions}</p>` : nothing}
      ${challenge.shape === 'device_code' ? this.#device(challenge) : this.#form(challenge)}
      <p class="hint">This attempt is valid until <time datetime=${challenge.expiresAt}>${formatTimestamp(challenge.expiresAt)}</time>.</p>
      ${this.#failureNotice()}
      ${challenge.shape === 'device_code' ? html`<div class="row"><button type="button" @click=${() => this.#cancel()}>Cancel</button></div>` : nothing}
    </div>`;
  }
}
