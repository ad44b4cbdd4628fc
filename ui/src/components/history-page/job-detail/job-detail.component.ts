import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { apiRequest } from '../../../api/http.ts';
import {
  ENTITY_TYPES,
  entityTypeLabel,
  isFinished,
  ITEM_STATUSES,
  itemsPath,
  itemStatusLabel,
  jobStatsPath,
  NO_FILTER,
  parseItems,
  parseJobStats,
  reportPath,
  type CollectionStats,
  type ItemFilter,
  type MigrationItem,
  type MigrationJob,
} from '../../../api/migrations.ts';
import { toProblem, type Problem } from '../../../api/problem.ts';
import { formStyles } from '../../../theme/form.styles.ts';
import { panelStyles } from '../../../theme/panel.styles.ts';
import { sharedStyles } from '../../../theme/shared.styles.ts';
import { tableStyles } from '../../../theme/table.styles.ts';
import '../../migration-board/index.ts';
import '../../migration-board/status-chart/index.ts';
import '../../problem-notice/index.ts';
import { jobDetailStyles } from './job-detail.styles.ts';
import { migrationItemRow } from '../../migration-board/item-row.template.ts';

const PAGE_SIZE = 100;

type Items = { readonly kind: 'loading' } | { readonly kind: 'loaded'; readonly items: readonly MigrationItem[]; readonly total: number } | { readonly kind: 'failed'; readonly problem: Problem };

/**
 * One migration in History: its statistics per collection (chart with a table equivalent), the
 * ledger rows filtered by the engine (status, type, problems only, title, artist), and report
 * downloads with the same filters. An unfinished job also shows its live progress board.
 */
export class OplJobDetail extends LitElement {
  static override styles = [sharedStyles, panelStyles, formStyles, tableStyles, jobDetailStyles];

  static override properties = {
    job: { attribute: false },
    _filter: { state: true },
    _items: { state: true },
    _collections: { state: true },
    _offset: { state: true },
  };

  declare job: MigrationJob | undefined;
  declare _filter: ItemFilter;
  declare _items: Items;
  declare _collections: readonly CollectionStats[];
  declare _offset: number;
  #generation = 0;

  constructor() {
    super();
    this.job = undefined;
    this._filter = NO_FILTER;
    this._items = { kind: 'loading' };
    this._collections = [];
    this._offset = 0;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('job') && this.job && changed.get('job')?.id !== this.job.id) {
      this._filter = NO_FILTER;
      this._offset = 0;
      void this.#loadItems();
      void this.#loadStats();
    }
  }

  async #loadStats(): Promise<void> {
    const job = this.job;
    if (!job) return;
    const result = await apiRequest(jobStatsPath(job.id));
    if (!result.ok || job.id !== this.job?.id) return;
    this._collections = parseJobStats(result.data)?.collections ?? [];
  }

  async #loadItems(): Promise<void> {
    const job = this.job;
    if (!job) return;
    if (!job.detailAvailable) {
      this._items = { kind: 'failed', problem: { title: 'The item detail of this migration has expired', status: 410, detail: 'Its summary and counts remain.' } };
      return;
    }
    const generation = ++this.#generation;
    this._items = { kind: 'loading' };
    const response = await fetch(itemsPath(job.id, this._filter, PAGE_SIZE, this._offset), { credentials: 'same-origin', headers: { accept: 'application/json' } }).catch(() => undefined);
    if (generation !== this.#generation) return;
    if (!response) {
      this._items = { kind: 'failed', problem: { title: 'Cannot reach the engine', status: 0 } };
      return;
    }
    // The total comes in a header, so this read uses fetch directly rather than apiRequest.
    if (!response.ok) {
      this._items = { kind: 'failed', problem: toProblem(response.status, (await response.json().catch(() => undefined)) as unknown) };
      return;
    }
    const items = parseItems((await response.json()) as unknown);
    const total = Number(response.headers.get('x-total-count') ?? items?.length ?? 0);
    this._items = items ? { kind: 'loaded', items, total } : { kind: 'failed', problem: { title: 'Unexpected answer from the engine', status: response.status } };
  }

  #applyFilter(event: SubmitEvent): void {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const text = (name: string): string => {
      const value = data.get(name);
      return typeof value === 'string' ? value : '';
    };
    this._filter = {
      statuses: data.getAll('status').filter((value): value is string => typeof value === 'string'),
      entityType: text('entity_type') || null,
      problemOnly: data.get('problem_only') === 'on',
      title: text('title'),
      artist: text('artist'),
    };
    this._offset = 0;
    void this.#loadItems();
  }

  #page(delta: number): void {
    this._offset = Math.max(0, this._offset + delta * PAGE_SIZE);
    void this.#loadItems();
  }

  #filters(): TemplateResult {
    return html`<form class="filters" aria-label="Filter items" @submit=${(event: SubmitEvent) => this.#applyFilter(event)}>
      <fieldset>
        <legend>Status</legend>
        ${ITEM_STATUSES.map((status) => html`<label class="check"><input type="checkbox" name="status" value=${status} /> ${itemStatusLabel(status)}</label>`)}
      </fieldset>
      <label
        >Type
        <select name="entity_type">
          <option value="">Any</option>
          ${ENTITY_TYPES.map((type) => html`<option value=${type}>${entityTypeLabel(type)}</option>`)}
        </select></label
      >
      <label class="check"><input type="checkbox" name="problem_only" /> Only problems</label>
      <label>Title contains <input name="title" type="search" /></label>
      <label>Artist contains <input name="artist" type="search" /></label>
      <button type="submit">Apply filters</button>
    </form>`;
  }

  #reports(job: MigrationJob): TemplateResult | typeof nothing {
    if (!job.detailAvailable) return nothing;
    return html`<p class="reports">
      Download the report${this._filter === NO_FILTER ? '' : ' (with these filters)'}:
      <a href=${reportPath(job.id, 'csv', this._filter)} download data-testid="report-csv">CSV</a> ·
      <a href=${reportPath(job.id, 'json', this._filter)} download data-testid="report-json">JSON</a>
    </p>`;
  }

  #itemTable(): TemplateResult {
    const load = this._items;
    if (load.kind === 'loading') return html`<p role="status">Loading items…</p>`;
    if (load.kind === 'failed') return html`<opl-problem-notice .problem=${load.problem}></opl-problem-notice>`;
    if (load.items.length === 0) return html`<p class="empty" role="status">No items match.</p>`;
    const last = Math.min(load.total, this._offset + load.items.length);
    return html`<p role="status">Items ${this._offset + 1}–${last} of ${load.total}</p>
      <div class="table-scroll" tabindex="0" role="region" aria-label="Migration items">
        <table data-testid="history-items">
          <thead>
            <tr><th scope="col">Item</th><th scope="col">Collection</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Reason</th></tr>
          </thead>
          <tbody>
            ${load.items.map((item) => migrationItemRow(item, true))}
          </tbody>
        </table>
      </div>
      <div class="pager">
        ${this._offset > 0 ? html`<button type="button" @click=${() => this.#page(-1)}>Previous</button>` : nothing}
        ${last < load.total ? html`<button type="button" @click=${() => this.#page(1)}>Next</button>` : nothing}
      </div>`;
  }

  #collectionCharts(): TemplateResult[] {
    return this._collections.map(
      (collection) =>
        html`<opl-status-chart
          heading=${`${collection.name}: items by status`}
          .bars=${ITEM_STATUSES.filter((status) => (collection.counts[status] ?? 0) > 0).map((status) => ({ key: status, label: itemStatusLabel(status), value: collection.counts[status] ?? 0 }))}
        ></opl-status-chart>`,
    );
  }

  override render(): TemplateResult | typeof nothing {
    const job = this.job;
    if (!job) return nothing;
    return html`<section aria-labelledby="detail-heading" data-testid="job-detail" data-job-id=${job.id}>
      <h2 id="detail-heading" tabindex="-1">${job.label}</h2>
      ${isFinished(job.status) ? nothing : html`<opl-migration-board .jobId=${job.id}></opl-migration-board>`} ${this.#collectionCharts()} ${this.#reports(job)}
      <h3>Items</h3>
      ${this.#filters()} ${this.#itemTable()}
    </section>`;
  }
}
