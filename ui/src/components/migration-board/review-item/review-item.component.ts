import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { formatDuration } from '../../../api/imports.ts';
import { formatScore, type MigrationItem } from '../../../api/migrations.ts';
import { sharedStyles } from '../../../theme/shared.styles.ts';
import { reviewItemStyles } from './review-item.styles.ts';

export interface ReviewDecision {
  readonly itemId: string;
  readonly action: 'approve' | 'skip';
  /** Another candidate than the suggested one; null keeps the suggestion. */
  readonly targetUri: string | null;
}

/**
 * One item waiting for review: the source track, the engine's ranked candidates with score and
 * reason (the suggestion preselected), and Approve or Skip. Fires `opl-review` with a ReviewDecision;
 * the engine decides what the decision does.
 */
export class OplReviewItem extends LitElement {
  static override styles = [sharedStyles, reviewItemStyles];

  static override properties = {
    item: { attribute: false },
    busy: { type: Boolean },
    _choice: { state: true },
  };

  declare item: MigrationItem | undefined;
  declare busy: boolean;
  declare _choice: string | null;

  constructor() {
    super();
    this.item = undefined;
    this.busy = false;
    this._choice = null;
  }

  #decide(action: 'approve' | 'skip'): void {
    const item = this.item;
    if (!item || this.busy) return;
    const targetUri = action === 'approve' && this._choice !== null && this._choice !== item.targetUri ? this._choice : null;
    this.dispatchEvent(new CustomEvent<ReviewDecision>('opl-review', { detail: { itemId: item.id, action, targetUri }, bubbles: true, composed: true }));
  }

  override render(): TemplateResult | typeof nothing {
    const item = this.item;
    if (!item) return nothing;
    const chosen = this._choice ?? item.targetUri ?? item.candidates[0]?.uri ?? null;
    const name = `candidate-${item.id}`;
    return html`<fieldset data-testid="review-item" data-item-id=${item.id}>
      <legend>${item.title} — ${item.artist}${item.sourcePlaylistName ? html` <span class="muted">in ${item.sourcePlaylistName}</span>` : nothing}</legend>
      ${item.reason ? html`<p class="reason">${item.reason}</p>` : nothing}
      <ul>
        ${item.candidates.map(
          (candidate, index) => html`<li>
            <label
              ><input type="radio" name=${name} .checked=${candidate.uri !== null && candidate.uri === chosen} ?disabled=${candidate.uri === null}
                @change=${() => (this._choice = candidate.uri)} />
              <span
                >${index + 1}. ${candidate.title} — ${candidate.artist}${candidate.album ? html`, ${candidate.album}` : nothing}
                ${candidate.durationS !== null ? html`(${formatDuration(candidate.durationS)})` : nothing}
                <span class="muted">match ${formatScore(candidate.score)}${candidate.reason ? html`: ${candidate.reason}` : nothing}</span></span
              ></label
            >
          </li>`,
        )}
      </ul>
      <div class="actions">
        <button type="button" class="primary" aria-disabled=${this.busy || chosen === null ? 'true' : 'false'} @click=${() => this.#decide('approve')}>
          Approve<span class="visually-hidden"> ${item.title}</span>
        </button>
        <button type="button" aria-disabled=${this.busy ? 'true' : 'false'} @click=${() => this.#decide('skip')}>Skip<span class="visually-hidden"> ${item.title}</span></button>
      </div>
    </fieldset>`;
  }
}
