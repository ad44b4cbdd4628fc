import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { apiRequest } from '../../api/http.ts';
import { endSessionUrlOf, parseMe, userLabel, type MeUser } from '../../api/me.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { sessionBadgeStyles } from './session-badge.styles.ts';

/**
 * The shell's corner for hosted mode: who is signed in (through the OpenID provider) and a
 * sign-out button. Shows nothing on a self-hosted engine or before anyone signs in: Settings then
 * carries the sign-in.
 */
export class OplSessionBadge extends LitElement {
  static override styles = [sharedStyles, sessionBadgeStyles];

  static override properties = { _user: { state: true }, _signingOut: { state: true } };

  declare _user: MeUser | null;
  declare _signingOut: boolean;

  constructor() {
    super();
    this._user = null;
    this._signingOut = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load();
  }

  async #load(): Promise<void> {
    const result = await apiRequest('/api/me');
    this._user = result.ok ? (parseMe(result.data)?.user ?? null) : null;
  }

  async #signOut(): Promise<void> {
    this._signingOut = true;
    const result = await apiRequest('/api/session', { method: 'DELETE' });
    this._signingOut = false;
    if (result.ok) {
      this._user = null;
      // The OpenID provider ends its session too, then sends the browser back to the start page.
      const endSession = endSessionUrlOf(result.data);
      if (endSession !== undefined) {
        window.location.assign(endSession);
        return;
      }
      // Everything on screen was this user's: start again at the sign-in.
      window.location.assign('/#/settings');
      window.location.reload();
    }
  }

  override render(): TemplateResult | typeof nothing {
    const user = this._user;
    if (!user) return nothing;
    return html`
      <span class="who" data-field="signed-in-user">${userLabel(user)}</span>
      ${user.isAdmin ? html`<span class="role">admin</span>` : nothing}
      <button type="button" @click=${() => void this.#signOut()} ?disabled=${this._signingOut}>${this._signingOut ? 'Signing out…' : 'Sign out'}</button>
    `;
  }
}
