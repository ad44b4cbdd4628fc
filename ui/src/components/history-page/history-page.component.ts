import { html, nothing, type TemplateResult } from 'lit';
import { apiRequest } from '../../api/http.ts';
import {
  AGGREGATE_STATS_PATH,
  ITEM_STATUSES,
  itemStatusLabel,
  jobStatusLabel,
  migrationsListPath,
  outcomeLabel,
  parseAggregateStats,
  parseJobs,
  type AggregateStats,
  type MigrationJob,
} from '../../api/migrations.ts';
import type { Problem } from '../../api/problem.ts';
import { formatTimestamp } from '../../api/timestamp.ts';
import { canStartRule, KEEP_IN_SYNC_KEY } from '../../api/syncs.ts';
import { hrefFor } from '../../router/route.ts';
import { panelStyles } from '../../theme/panel.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { tableStyles } from '../../theme/table.styles.ts';
import '../history-export/index.ts';
import '../migration-board/status-chart/index.ts';
import { accessHint } from '../problem-notice/access-hint.ts';
import '../problem-notice/index.ts';
import { historyPageStyles } from './history-page.styles.ts';
import './job-detail/index.ts';
import { OplPage } from '../kit/index.ts';

type Load = { readonly kind: 'loading' } | { readonly kind: 'loaded'; readonly jobs: readonly MigrationJob[] } | { readonly kind: 'failed'; readonly problem: Problem };

/**
 * History: every migration, newest first, with its status and outcome; totals over all of them
 * as charts with text equivalents; and the chosen migration's items, statistics and reports.
 */
export class OplHistoryPage extends OplPage {
  static override styles = [sharedStyles, panelStyles, tableStyles, historyPageStyles];

  static override properties = {
    _load: { state: true },
    _stats: { state: true },
    _selected: { state: true },
  };

  declare _load: Load;
  declare _stats: AggregateStats | undefined;
  declare _selected: string | undefined;

  constructor() {
    super();
    this._load = { kind: 'loading' };
    this._stats = undefined;
    this._selected = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#refresh();
  }

  async #refresh(): Promise<void> {
    const [list, stats] = await Promise.all([apiRequest(migrationsListPath(100)), apiRequest(AGGREGATE_STATS_PATH)]);
    if (!list.ok) {
      this._load = { kind: 'failed', problem: list.problem };
      return;
    }
    const jobs = parseJobs(list.data);
    this._load = jobs ? { kind: 'loaded', jobs } : { kind: 'failed', problem: { title: 'Unexpected answer from the engine', status: list.status } };
    this._stats = stats.ok ? parseAggregateStats(stats.data) : undefined;
  }

  async #open(job: MigrationJob): Promise<void> {
    this._selected = job.id;
    await this.updateComplete;
    const detail = this.renderRoot.querySelector('opl-job-detail');
    await detail?.updateComplete;
    detail?.renderRoot.querySelector<HTMLElement>('h2')?.focus();
  }

  #stats(): TemplateResult | typeof nothing {
    const stats = this._stats;
    if (!stats || stats.totalMigrations === 0) return nothing;
    const outcomes = Object.entries(stats.outcomes).map(([outcome, value]) => ({ key: outcome, label: outcomeLabel(outcome), value }));
    const items = ITEM_STATUSES.map((status) => ({ key: status, label: itemStatusLabel(status), value: stats.counts[status] }));
    return html`<section aria-labelledby="stats-heading" data-testid="aggregate-stats">
      <h2 id="stats-heading">Totals</h2>
      <p>${stats.totalMigrations} ${stats.totalMigrations === 1 ? 'migration' : 'migrations'} with ${stats.counts.total} items.</p>
      <div class="charts">
        <opl-status-chart heading="Migrations by outcome" .bars=${outcomes}></opl-status-chart>
        <opl-status-chart heading="Items by status" .bars=${items}></opl-status-chart>
      </div>
    </section>`;
  }

  /** Hands the finished migration to the Sync page, which makes a rule of it. */
  #keepInSync(job: MigrationJob): void {
    sessionStorage.setItem(KEEP_IN_SYNC_KEY, job.id);
    window.location.hash = hrefFor('sync');
  }

  #list(jobs: readonly MigrationJob[]): TemplateResult {
    if (jobs.length === 0) return html`<p class="empty">No migrations yet. Start one on <a href=${hrefFor('migrate')}>Migrate</a>.</p>`;
    return html`<div class="table-scroll" tabindex="0" role="region" aria-label="Migrations">
      <table data-testid="migrations-table">
        <thead>
          <tr><th scope="col">Migration</th><th scope="col">Started</th><th scope="col">Status</th><th scope="col">Outcome</th><th scope="col">Done</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>
        </thead>
        <tbody>
          ${jobs.map(
            (job) => html`<tr data-job-id=${job.id} data-status=${job.status} aria-current=${this._selected === job.id ? 'true' : nothing}>
              <th scope="row">${job.label}</th>
              <td>${formatTimestamp(job.createdAt)}</td>
              <td>${jobStatusLabel(job.status)}</td>
              <td>${outcomeLabel(job.outcome)}</td>
              <td>${job.done} of ${job.total}</td>
              <td>
                <button type="button" @click=${() => void this.#open(job)}>Open<span class="visually-hidden"> ${job.label}</span></button>
                ${canStartRule(job)
                  ? html`<button type="button" data-action="keep-in-sync" @click=${() => this.#keepInSync(job)}>Keep in sync<span class="visually-hidden"> ${job.label}</span></button>`
                  : nothing}
              </td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  override render(): TemplateResult {
    const load = this._load;
    const selected = load.kind === 'loaded' ? load.jobs.find((job) => job.id === this._selected) : undefined;
    return html`<p class="summary">${this.summary}</p>
      ${load.kind === 'loading' ? html`<p role="status">Loading migrations…</p>` : nothing}
      ${load.kind === 'failed' ? html`<opl-problem-notice .problem=${load.problem}>${accessHint(load.problem)}</opl-problem-notice>` : nothing}
      ${load.kind === 'loaded'
        ? html`<section aria-labelledby="list-heading">
              <div class="heading-row">
                <h2 id="list-heading">Migrations</h2>
                <button type="button" @click=${() => void this.#refresh()}>Refresh</button>
              </div>
              ${this.#list(load.jobs)}
            </section>
            ${this.#stats()} ${selected ? html`<opl-job-detail .job=${selected}></opl-job-detail>` : nothing}
            ${selected ? html`<opl-history-export .job=${selected}></opl-history-export>` : nothing}`
        : nothing}`;
  }
}
