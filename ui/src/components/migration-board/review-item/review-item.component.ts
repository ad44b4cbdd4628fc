import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { formatDuration } from '../../../api/imports.ts';
import { apiRequest } from '../../../api/http.ts';
import { formatScore, itemSearchPath, parseSearchResults, type Candidate, type MigrationItem } from '../../../api/migrations.ts';
import type { Problem } from '../../../api/problem.ts';
import '../../problem-notice/index.ts';
import { sharedStyles } from '../../../theme/shared.styles.ts';
import { framedGroupStyles } from '../../../theme/choice-group.styles.ts';
import { reviewItemStyles } from './review-item.styles.ts';

export interface ReviewDecision {
  readonly itemId: string;
  readonly action: 'approve' | 'skip';
  /** Another candidate than the suggested one; null keeps the suggestion. */
  readonly targetUri: string | null;
}

/**
 * One item waiting for review: the source track, the engine's ranked candidates with score and
 * reason (the suggestion preselected), a search of the target when none of them is right, and
 * Approve or Skip. Fires `opl-review` with a ReviewDecision; the engine decides what the decision
 * does (a searched song is validated on the target again).
 */
export class OplReviewItem extends LitElement {
  static override styles = [sharedStyles, framedGroupStyles, reviewItemStyles];

  static override properties = {
    item: { attribute: false },
    jobId: { type: String, attribute: 'job-id' },
    busy: { type: Boolean },
    _choice: { state: true },
    _found: { state: true },
    _searching: { state: true },
    _searchProblem: { state: true },
  };

  declare item: MigrationItem | undefined;
  /** The item's migration (for searching its target). */
  declare jobId: string;
  declare busy: boolean;
  declare _choice: string | null;
  /** What the reviewer's last search found; null before any search. */
  declare _found: readonly Candidate[] | null;
  declare _searching: boolean;
  declare _searchProblem: Problem | undefined;

  constructor() {
    super();
    this.item = undefined;
    this.jobId = '';
    this.busy = false;
    this._choice = null;
    this._found = null;
    this._searching = false;
    this._searchProblem = undefined;
  }

  async #search(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const item = this.item;
    const value = new FormData(event.currentTarget as HTMLFormElement).get('q');
    const query = typeof value === 'string' ? value.trim() : '';
    if (!item || !this.jobId || query === '' || this._searching) return;
    this._searching = true;
    this._searchProblem = undefined;
    const result = await apiRequest(itemSearchPath(this.jobId, item.id, query), { timeoutMs: 30_000 });
    this._searching = false;
    if (!result.ok) {
      this._searchProblem = result.problem;
      return;
    }
    this._found = parseSearchResults(result.data) ?? [];
  }

  #option(candidate: Candidate, label: string, chosen: string | null, name: string): TemplateResult {
    return html`<li>
      <label
        ><input type="radio" name=${name} .checked=${candidate.uri !== null && candidate.uri === chosen} ?disabled=${candidate.uri === null} @change=${() => (this._choice = candidate.uri)} />
        <span
          >${label} ${candidate.title} — ${candidate.artist}${candidate.album ? html`, ${candidate.album}` : nothing}
          ${candidate.durationS !== null ? html`(${formatDuration(candidate.durationS)})` : nothing}
          <span class="muted">${candidate.score !== null ? html`match ${formatScore(candidate.score)}${candidate.reason ? html`: ${candidate.reason}` : nothing}` : candidate.reason}</span></span
        ></label
      >
    </li>`;
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
        ${item.candidates.map((candidate, index) => this.#option(candidate, `${index + 1}.`, chosen, name))}
      </ul>
      ${this.jobId
        ? html`<form class="search" role="search" aria-label=${`Search the target for ${item.title}`} @submit=${(event: SubmitEvent) => void this.#search(event)}>
            <label>None of these? Search the target <input name="q" type="search" .value=${`${item.title} ${item.artist}`} /></label>
            <button type="submit" aria-disabled=${this._searching ? 'true' : 'false'}>${this._searching ? 'Searching…' : 'Search'}</button>
          </form>`
        : nothing}
      ${this._searchProblem ? html`<opl-problem-notice .problem=${this._searchProblem}></opl-problem-notice>` : nothing}
      ${this._found !== null
        ? html`<div role="status">${this._found.length === 0 ? html`<p class="muted">Nothing found; try other words, or skip this one.</p>` : html`<p class="muted">${this._found.length} found by your search:</p>`}</div>
            <ul data-testid="search-results">
              ${this._found.map((candidate) => this.#option(candidate, '•', chosen, name))}
            </ul>`
        : nothing}
      <div class="actions">
        <button type="button" class="primary" aria-disabled=${this.busy || chosen === null ? 'true' : 'false'} @click=${() => this.#decide('approve')}>
          Approve<span class="visually-hidden"> ${item.title}</span>
        </button>
        <button type="button" aria-disabled=${this.busy ? 'true' : 'false'} @click=${() => this.#decide('skip')}>Skip<span class="visually-hidden"> ${item.title}</span></button>
      </div>
    </fieldset>`;
  }
}
