import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { apiRequest } from '../../api/http.ts';
import type { Problem } from '../../api/problem.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import '../problem-notice/index.ts';
import { loginFormStyles } from './login-form.styles.ts';
import { secretField } from '../kit/index.ts';

/**
 * Owner sign-in for the session gate: posts the owner secret to `POST /api/session`. The engine
 * answers with an HttpOnly cookie, so the secret never stays in the page. Fires `opl-signed-in`.
 */
export class OplLoginForm extends LitElement {
  static override styles = [sharedStyles, formStyles, loginFormStyles];

  static override properties = {
    _pending: { state: true },
    _problem: { state: true },
    _fieldError: { state: true },
  };

  declare _pending: boolean;
  declare _problem: Problem | undefined;
  declare _fieldError: string;

  constructor() {
    super();
    this._pending = false;
    this._problem = undefined;
    this._fieldError = '';
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const input = form.elements.namedItem('secret') as HTMLInputElement;
    const secret = input.value;
    this._problem = undefined;
    if (secret.trim() === '') {
      this._fieldError = 'Enter the owner secret.';
      input.focus();
      return;
    }
    this._fieldError = '';
    this._pending = true;
    const result = await apiRequest('/api/session', { method: 'POST', json: { secret } });
    this._pending = false;
    if (result.ok) {
      input.value = '';
      this.dispatchEvent(new CustomEvent('opl-signed-in', { bubbles: true, composed: true }));
      return;
    }
    this._problem = result.problem;
    input.select();
  }

  override render(): TemplateResult {
    return html`
      <form novalidate @submit=${(event: SubmitEvent) => void this.#submit(event)}>
        <!-- Lets password managers file the secret under one fixed account name. -->
        <input type="text" name="username" autocomplete="username" value="owner" hidden />
        ${secretField({
          id: 'secret',
          label: 'Owner secret',
          hint: html`The secret set in <code>OPL_OWNER_SECRET</code> when the engine was started.`,
          autocomplete: 'current-password',
          error: this._fieldError,
        })}
        ${this._problem ? html`<opl-problem-notice .problem=${this._problem}></opl-problem-notice>` : nothing}
        <div class="actions">
          <button class="primary" type="submit" ?disabled=${this._pending}>${this._pending ? 'Signing in…' : 'Sign in'}</button>
        </div>
      </form>
    `;
  }
}
