import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { apiRequest } from '../../api/http.ts';
import { HEALTH_LABELS, interpretReadiness, type HealthSnapshot } from '../../api/readiness.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { healthIndicatorStyles } from './health-indicator.styles.ts';

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/**
 * Engine readiness in the header: polls `GET /readyz`, shows Ready / Degraded / Offline in words,
 * colour and shape, and discloses each check on demand.
 */
export class OplHealthIndicator extends LitElement {
  static override styles = [sharedStyles, healthIndicatorStyles];

  static override properties = {
    interval: { type: Number },
    _snapshot: { state: true },
    _checkedAt: { state: true },
    _busy: { state: true },
    _announcement: { state: true },
  };

  /** Milliseconds between polls. */
  declare interval: number;
  declare _snapshot: HealthSnapshot;
  declare _checkedAt: Date | undefined;
  declare _busy: boolean;
  /** Spoken by screen readers when the state changes after the first answer; silent otherwise. */
  declare _announcement: string;

  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.interval = 10_000;
    this._snapshot = { state: 'checking', checks: [] };
    this._checkedAt = undefined;
    this._busy = false;
    this._announcement = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('visibilitychange', this.#onVisibility);
    void this.check();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('visibilitychange', this.#onVisibility);
    document.removeEventListener('pointerdown', this.#onOutsidePointer);
    this.#clearTimer();
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('interval') && changed.get('interval') !== undefined) this.#schedule();
  }

  /** Asks the engine now and restarts the polling interval. */
  async check(): Promise<void> {
    if (this._busy) return;
    this.#clearTimer();
    this._busy = true;
    const result = await apiRequest('/readyz', { signal: AbortSignal.timeout(5_000) });
    const previous = this._snapshot.state;
    this._snapshot = result.ok ? interpretReadiness(result.status, result.data) : interpretReadiness(result.status, result.body);
    if (previous !== 'checking' && previous !== this._snapshot.state) {
      this._announcement = `Engine status changed to ${HEALTH_LABELS[this._snapshot.state]}.`;
    }
    this._checkedAt = new Date();
    this._busy = false;
    this.#schedule();
  }

  #schedule(): void {
    this.#clearTimer();
    if (!this.isConnected) return;
    this.#timer = setTimeout(() => {
      // A hidden tab skips polls; becoming visible checks at once.
      if (document.visibilityState === 'hidden') this.#schedule();
      else void this.check();
    }, this.interval);
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  readonly #onVisibility = (): void => {
    if (document.visibilityState === 'visible') void this.check();
  };

  readonly #onToggle = (event: Event): void => {
    const open = (event.currentTarget as HTMLDetailsElement).open;
    if (open) document.addEventListener('pointerdown', this.#onOutsidePointer);
    else document.removeEventListener('pointerdown', this.#onOutsidePointer);
  };

  /** A click anywhere else closes the panel, as with any other popup. */
  readonly #onOutsidePointer = (event: PointerEvent): void => {
    if (event.composedPath().includes(this)) return;
    const details = this.renderRoot.querySelector('details');
    if (details) details.open = false;
  };

  readonly #onKeydown = (event: KeyboardEvent): void => {
    const details = event.currentTarget as HTMLDetailsElement;
    if (event.key === 'Escape' && details.open) {
      details.open = false;
      details.querySelector('summary')?.focus();
    }
  };

  override render(): TemplateResult {
    const { state, checks, reason } = this._snapshot;
    const label = HEALTH_LABELS[state];
    return html`
      <details @keydown=${this.#onKeydown} @toggle=${this.#onToggle}>
        <summary class=${state} aria-label=${`Engine status: ${label}. Show details`}>
          <span class="dot" aria-hidden="true"></span>
          <span class="label" aria-hidden="true">Engine</span>
          <span class="state" data-state=${state}>${label}</span>
        </summary>
        <div class="panel">
          <h2>Engine status: <span class=${state}>${label}</span></h2>
          ${reason ? html`<p>${reason}</p>` : nothing}
          ${checks.length > 0
            ? html`<ul aria-label="Readiness checks">
                ${checks.map(
                  (check) => html`<li>
                    <span>${check.label}</span>
                    <span class=${check.up ? 'up' : 'down'}>${check.up ? 'Up' : 'Down'}</span>
                    ${check.detail ? html`<span class="detail">${check.detail}</span>` : nothing}
                  </li>`,
                )}
              </ul>`
            : nothing}
          <p class="muted">
            ${this._checkedAt ? html`Last checked at ${timeFormat.format(this._checkedAt)}.` : 'Not checked yet.'}
            Checks every ${Math.round(this.interval / 1000)} seconds.
          </p>
          <button type="button" @click=${() => void this.check()} ?disabled=${this._busy}>
            ${this._busy ? 'Checking…' : 'Check now'}
          </button>
        </div>
      </details>
      <span class="visually-hidden" role="status">${this._announcement}</span>
    `;
  }
}
