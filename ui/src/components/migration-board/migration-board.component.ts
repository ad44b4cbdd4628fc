import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { apiRequest } from '../../api/http.ts';
import {
  batchReviewPath,
  cancelPath,
  eventsPath,
  isFinished,
  ITEM_STATUSES,
  itemStatusLabel,
  jobStatusLabel,
  migrationPath,
  outcomeLabel,
  parseItem,
  parseItems,
  parseJob,
  pauseExplanation,
  resumePath,
  reviewPath,
  type MigrationItem,
  type MigrationJob,
} from '../../api/migrations.ts';
import type { Problem } from '../../api/problem.ts';
import { hrefFor } from '../../router/route.ts';
import { panelStyles } from '../../theme/panel.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { tableStyles } from '../../theme/table.styles.ts';
import '../problem-notice/index.ts';
import { migrationBoardStyles } from './migration-board.styles.ts';
import './review-item/index.ts';
import type { ReviewDecision } from './review-item/review-item.component.ts';
import './status-chart/index.ts';
import { migrationItemRow } from './item-row.template.ts';

/** A long list is cut here; History filters the whole ledger. */
const MAX_ROWS = 300;

type View = 'all' | 'problems';

/**
 * The progress board of one migration: the job's status and counts, live from
 * `GET /api/migrations/{id}/events` (EventSource reconnects with Last-Event-ID by itself), the
 * items with their status and reason, the review queue with candidates, batch approve/skip,
 * Resume for a paused job and Cancel. Every status and count is the engine's.
 */
export class OplMigrationBoard extends LitElement {
  static override styles = [sharedStyles, panelStyles, tableStyles, migrationBoardStyles];

  static override properties = {
    jobId: { type: String },
    _job: { state: true },
    _items: { state: true },
    _problem: { state: true },
    _busy: { state: true },
    _view: { state: true },
    _confirmCancel: { state: true },
    _live: { state: true },
    _announcement: { state: true },
  };

  declare jobId: string;
  declare _job: MigrationJob | undefined;
  declare _items: ReadonlyMap<string, MigrationItem>;
  declare _problem: Problem | undefined;
  declare _busy: boolean;
  declare _view: View;
  declare _confirmCancel: boolean;
  declare _live: boolean;
  declare _announcement: string;
  #events: EventSource | undefined;
  #pendingItems = new Map<string, MigrationItem>();
  #flushScheduled = false;

  constructor() {
    super();
    this.jobId = '';
    this._job = undefined;
    this._items = new Map();
    this._problem = undefined;
    this._busy = false;
    this._view = 'all';
    this._confirmCancel = false;
    this._live = false;
    this._announcement = '';
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#close();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Reattached to the page (History switching back): follow the job again.
    if (this.jobId && !this.#events && this.hasUpdated) this.#follow();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('jobId') && this.jobId) {
      this._job = undefined;
      this._items = new Map();
      this._problem = undefined;
      this.#follow();
    }
  }

  #close(): void {
    this.#events?.close();
    this.#events = undefined;
    this._live = false;
  }

  #follow(): void {
    this.#close();
    const jobId = this.jobId;
    void this.#loadJob(jobId);
    // Every change since the start arrives as an event: the items need no separate read.
    const events = new EventSource(eventsPath(jobId));
    this.#events = events;
    events.addEventListener('open', () => (this._live = true));
    events.addEventListener('error', () => (this._live = false));
    events.addEventListener('job', (event: MessageEvent<string>) => {
      if (jobId !== this.jobId) return;
      const job = parseJob(JSON.parse(event.data) as unknown);
      if (job) this.#setJob(job);
    });
    events.addEventListener('item', (event: MessageEvent<string>) => {
      if (jobId !== this.jobId) return;
      const item = parseItem(JSON.parse(event.data) as unknown);
      if (item) this.#queueItem(item);
    });
  }

  async #loadJob(jobId: string): Promise<void> {
    const result = await apiRequest(migrationPath(jobId));
    if (jobId !== this.jobId) return;
    if (!result.ok) {
      this._problem = result.problem;
      return;
    }
    const job = parseJob(result.data);
    if (job && !this._job) this.#setJob(job);
  }

  #setJob(job: MigrationJob): void {
    const previous = this._job?.status;
    this._job = job;
    if (previous !== job.status) this._announcement = `Migration ${jobStatusLabel(job.status).toLowerCase()}.`;
    if (isFinished(job.status)) {
      this.#flush();
      this.#close();
    }
  }

  /** Item events come in bursts; one render per animation frame is enough. */
  #queueItem(item: MigrationItem): void {
    this.#pendingItems.set(item.id, item);
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    requestAnimationFrame(() => this.#flush());
  }

  #flush(): void {
    this.#flushScheduled = false;
    if (this.#pendingItems.size === 0) return;
    const next = new Map(this._items);
    for (const [id, item] of this.#pendingItems) next.set(id, item);
    this.#pendingItems.clear();
    this._items = next;
  }

  #mergeItems(items: readonly MigrationItem[]): void {
    const next = new Map(this._items);
    for (const item of items) next.set(item.id, item);
    this._items = next;
  }

  async #post(path: string, json: unknown, done: (data: unknown) => void): Promise<void> {
    if (this._busy) return;
    this._busy = true;
    this._problem = undefined;
    const result = await apiRequest(path, { method: 'POST', json });
    this._busy = false;
    if (!result.ok) {
      this._problem = result.problem;
      return;
    }
    done(result.data);
  }

  #review(decision: ReviewDecision): void {
    const body = decision.targetUri ? { action: decision.action, target_uri: decision.targetUri } : { action: decision.action };
    void this.#post(reviewPath(this.jobId, decision.itemId), body, (data) => {
      const item = parseItem(data);
      if (item) this.#mergeItems([item]);
      this._announcement = decision.action === 'approve' ? 'Match approved.' : 'Item skipped.';
    });
  }

  #reviewAll(action: 'approve' | 'skip'): void {
    void this.#post(batchReviewPath(this.jobId), { action, item_ids: [] }, (data) => {
      const items = parseItems(data) ?? [];
      this.#mergeItems(items);
      this._announcement = `${items.length} ${items.length === 1 ? 'item' : 'items'} ${action === 'approve' ? 'approved' : 'skipped'}.`;
    });
  }

  #jobAction(path: string, words: string): void {
    void this.#post(path, {}, (data) => {
      const job = parseJob(data);
      if (job) this.#setJob(job);
      this._confirmCancel = false;
      this._announcement = words;
      // A resumed job runs again: follow its events again.
      if (job && !isFinished(job.status) && !this.#events) this.#follow();
    });
  }

  #counts(job: MigrationJob): TemplateResult {
    const bars = ITEM_STATUSES.map((status) => ({ key: status, label: itemStatusLabel(status), value: job.counts[status] }));
    return html`<dl class="counts" data-testid="status-counts">
        ${bars.map((bar) => html`<div data-status=${bar.key}><dt>${bar.label}</dt><dd>${bar.value}</dd></div>`)}
      </dl>
      <opl-status-chart heading="Items by status" .bars=${bars}></opl-status-chart>`;
  }

  #paused(job: MigrationJob): TemplateResult | typeof nothing {
    if (job.status !== 'paused') return nothing;
    return html`<div class="paused" role="status" data-testid="paused">
      <p>${pauseExplanation(job)}</p>
      ${job.errorCode === 'auth_expired' ? html`<p><a href=${hrefFor('connections')}>Reconnect on Connections</a></p>` : nothing}
      <button type="button" class="primary" aria-disabled=${this._busy ? 'true' : 'false'} @click=${() => this.#jobAction(resumePath(this.jobId), 'Migration resumed.')}>Resume</button>
    </div>`;
  }

  #cancel(job: MigrationJob): TemplateResult | typeof nothing {
    if (isFinished(job.status)) return nothing;
    if (!this._confirmCancel) return html`<button type="button" @click=${() => (this._confirmCancel = true)}>Cancel migration…</button>`;
    return html`<div class="confirm" role="group" aria-label="Confirm cancelling">
      <p>Cancel this migration? What was already written to the target stays there.</p>
      <button type="button" class="danger" aria-disabled=${this._busy ? 'true' : 'false'} @click=${() => this.#jobAction(cancelPath(this.jobId), 'Migration cancelled.')}>Yes, cancel it</button>
      <button type="button" @click=${() => (this._confirmCancel = false)}>Keep going</button>
    </div>`;
  }

  #reviewQueue(): TemplateResult | typeof nothing {
    const waiting = [...this._items.values()].filter((item) => item.status === 'needs_review');
    if (waiting.length === 0) return nothing;
    return html`<section aria-labelledby="review-heading" data-testid="review-queue">
      <h3 id="review-heading">Waiting for your review (${waiting.length})</h3>
      <p>The engine was not sure about these matches. Nothing is written to the target until each is approved or skipped.</p>
      <div class="actions">
        <button type="button" aria-disabled=${this._busy ? 'true' : 'false'} @click=${() => this.#reviewAll('approve')}>Approve all suggestions</button>
        <button type="button" aria-disabled=${this._busy ? 'true' : 'false'} @click=${() => this.#reviewAll('skip')}>Skip all</button>
      </div>
      ${waiting.slice(0, 50).map((item) => html`<opl-review-item .item=${item} job-id=${this.jobId} ?busy=${this._busy} @opl-review=${(event: CustomEvent<ReviewDecision>) => this.#review(event.detail)}></opl-review-item>`)}
    </section>`;
  }

  #itemTable(): TemplateResult {
    const all = [...this._items.values()];
    const shown = this._view === 'problems' ? all.filter((item) => item.status === 'needs_review' || item.status === 'skipped' || item.status === 'failed') : all;
    return html`<section aria-labelledby="items-heading">
      <h3 id="items-heading">Items</h3>
      <label
        >Show
        <select @change=${(event: Event) => (this._view = (event.currentTarget as HTMLSelectElement).value as View)}>
          <option value="all" ?selected=${this._view === 'all'}>All items</option>
          <option value="problems" ?selected=${this._view === 'problems'}>Only problems</option>
        </select></label
      >
      ${shown.length === 0
        ? html`<p class="empty">No items yet.</p>`
        : html`<div class="table-scroll" tabindex="0" role="region" aria-label="Items">
            <table data-testid="items-table">
              <thead>
                <tr><th scope="col">Item</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Reason</th></tr>
              </thead>
              <tbody>
                ${shown.slice(0, MAX_ROWS).map((item) => migrationItemRow(item, false))}
              </tbody>
            </table>
          </div>
          ${shown.length > MAX_ROWS ? html`<p class="hint">Showing the first ${MAX_ROWS} of ${shown.length}; filter all of them in History.</p>` : nothing}`}
    </section>`;
  }

  override render(): TemplateResult {
    const job = this._job;
    return html`<section class="board" aria-labelledby="board-heading" data-testid="migration-board" data-status=${job?.status ?? 'loading'}>
      <h2 id="board-heading">${job?.label ?? 'Migration'}</h2>
      <p class="visually-hidden" role="status" aria-live="polite">${this._announcement}</p>
      ${this._problem ? html`<opl-problem-notice .problem=${this._problem}></opl-problem-notice>` : nothing}
      ${job
        ? html`<p class="state">
              <strong data-testid="job-status">${jobStatusLabel(job.status)}</strong> · ${outcomeLabel(job.outcome)} · ${job.done} of ${job.total} done
              ${!isFinished(job.status) ? html`<span class="secondary">${this._live ? '(live)' : '(reconnecting…)'}</span>` : nothing}
            </p>
            <progress max=${Math.max(1, job.total)} .value=${job.done} aria-label="Items done"></progress>
            ${job.error && job.status !== 'paused' ? html`<p class="error">${job.error}</p>` : nothing} ${this.#paused(job)} ${this.#counts(job)} ${this.#cancel(job)} ${this.#reviewQueue()}
            ${this.#itemTable()}`
        : html`<p role="status">Loading the migration…</p>`}
    </section>`;
  }
}
