import { html, nothing, type TemplateResult } from 'lit';
import { healthLabel, jobStatusLabel, OVERVIEW_PATH, parseOverview, ruleAttentionLabel, type HomeOverview, type OverviewAccount } from '../../api/home-overview.ts';
import { apiRequest } from '../../api/http.ts';
import { plural } from '../../api/plural.ts';
import type { Problem } from '../../api/problem.ts';
import { formatTimestamp } from '../../api/timestamp.ts';
import { hrefFor } from '../../router/route.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { panelStyles } from '../../theme/panel.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { tagStyles } from '../../theme/tag.styles.ts';
import '../problem-notice/index.ts';
import { homePageStyles } from './home-page.styles.ts';
import { OplPage } from '../kit/index.ts';
import { loadFailedNotice } from '../problem-notice/load-failed.template.ts';

type Load = { readonly state: 'loading' } | { readonly state: 'loaded'; readonly overview: HomeOverview } | { readonly state: 'failed'; readonly problem: Problem };

/**
 * Home: what a listener checks first, from one cheap call (`GET /api/library/overview`) — the
 * connected accounts and their health, running and recent jobs, sync rules needing attention and
 * reviews waiting, each with a link to the area that acts on it. When the engine was opened
 * without a page (`landing`) and nothing is connected yet, it leads on to Connections instead,
 * where the first account (or demo mode's) is connected.
 */
export class OplHomePage extends OplPage {
  static override styles = [sharedStyles, pageStyles, panelStyles, tagStyles, homePageStyles];

  static override properties = {
    landing: { type: Boolean },
    _load: { state: true },
  };

  /** Opened as the engine's first page (no page in the address): an empty engine goes on to Connections. */
  declare landing: boolean;
  declare _load: Load;

  constructor() {
    super();
    this.landing = false;
    this._load = { state: 'loading' };
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#reload();
  }

  async #reload(): Promise<void> {
    // Read before waiting: the shell re-renders with landing false once it has settled.
    const landing = this.landing;
    this._load = { state: 'loading' };
    const result = await apiRequest(OVERVIEW_PATH);
    if (!result.ok) {
      this._load = { state: 'failed', problem: result.problem };
      return;
    }
    const overview = parseOverview(result.data);
    if (!overview) {
      this._load = { state: 'failed', problem: { title: 'Unexpected answer from the engine', status: result.status } };
      return;
    }
    if (overview.accounts.length === 0 && landing && this.isConnected) {
      // The first visit to an empty engine: connecting an account is the only thing to do.
      window.location.replace(hrefFor('connections'));
      return;
    }
    this._load = { state: 'loaded', overview };
  }

  #account(account: OverviewAccount): TemplateResult {
    return html`<li data-testid="home-account" data-account-id=${account.accountId} data-health=${account.health}>
      <span><span class="provider">${account.providerName}</span> ${account.displayName ?? account.accountId}${account.demo ? html` <span class="secondary">(demo)</span>` : nothing}</span>
      <span class=${account.health === 'reconnect' ? 'attention' : 'secondary'}>${healthLabel(account)}</span>
      ${account.health === 'reconnect' ? html`<a href=${hrefFor('connections')}>Reconnect on Connections</a>` : nothing}
    </li>`;
  }

  #cards(overview: HomeOverview): TemplateResult {
    const notRead = overview.accounts.filter((account) => account.health === 'not_read').length;
    return html`<div class="cards">
      <section aria-labelledby="home-accounts" data-testid="home-accounts">
        <h2 id="home-accounts">Accounts</h2>
        <ul class="items">
          ${overview.accounts.map((account) => this.#account(account))}
        </ul>
        <p>
          ${notRead > 0 ? html`${plural(notRead, 'account')} not read yet: ` : nothing}<a href=${hrefFor('library')}>See your playlists in the Library</a> ·
          <a href=${hrefFor('connections')}>Connections</a>
        </p>
      </section>
      <section aria-labelledby="home-jobs" data-testid="home-jobs">
        <h2 id="home-jobs">Migrations</h2>
        <p data-testid="active-jobs">${overview.activeJobs === 0 ? 'Nothing running.' : `${plural(overview.activeJobs, 'migration')} running or waiting.`}</p>
        ${overview.recentJobs.length === 0
          ? html`<p class="secondary">No migration yet. <a href=${hrefFor('migrate')}>Migrate a playlist</a></p>`
          : html`<ul class="items">
              ${overview.recentJobs.map(
                (job) => html`<li data-testid="home-job" data-job-id=${job.id} data-status=${job.status}>
                  <span>${job.name ?? 'Migration'} <span class="secondary">${job.sourceProvider} → ${job.targetProvider}${job.origin === 'sync' ? ' (sync run)' : ''}</span></span>
                  <span class="secondary">${jobStatusLabel(job.status)} · ${formatTimestamp(job.createdAt)}</span>
                </li>`,
              )}
            </ul>`}
        <p><a href=${hrefFor('history')}>All migrations in History</a></p>
      </section>
      <section aria-labelledby="home-reviews" data-testid="home-reviews">
        <h2 id="home-reviews">Reviews waiting</h2>
        ${overview.reviews.length === 0
          ? html`<p data-testid="review-total">No song waits for your review.</p>`
          : html`<p data-testid="review-total" class="attention">${plural(overview.reviewItems, 'song')} ${overview.reviewItems === 1 ? 'waits' : 'wait'} for your review.</p>
              <ul class="items">
                ${overview.reviews.map(
                  (review) => html`<li data-testid="home-review" data-job-id=${review.jobId}>
                    <span>${review.name ?? 'Migration'} <span class="secondary">${review.sourceProvider} → ${review.targetProvider}</span></span>
                    <span class="secondary">${plural(review.items, 'song')} to review</span>
                  </li>`,
                )}
              </ul>
              <p><a href=${hrefFor('history')}>Review them in History</a></p>`}
      </section>
      <section aria-labelledby="home-syncs" data-testid="home-syncs">
        <h2 id="home-syncs">Sync rules</h2>
        ${overview.rulesNeedingAttention.length === 0
          ? html`<p data-testid="rules-ok">${overview.ruleCount === 0 ? 'No sync rule yet.' : overview.ruleCount === 1 ? 'The sync rule is running as planned.' : `All ${plural(overview.ruleCount, 'sync rule')} are running as planned.`}</p>`
          : html`<p class="attention">${plural(overview.rulesNeedingAttention.length, 'sync rule')} of ${overview.ruleCount} ${overview.rulesNeedingAttention.length === 1 ? 'needs' : 'need'} attention.</p>
              <ul class="items">
                ${overview.rulesNeedingAttention.map(
                  (rule) => html`<li data-testid="home-rule" data-rule-id=${rule.id} data-status=${rule.status}>
                    <span>${rule.name || 'Sync rule'} <span class="secondary">${rule.sourceProvider} → ${rule.targetProvider}</span></span>
                    <span class="secondary">${ruleAttentionLabel(rule)}</span>
                  </li>`,
                )}
              </ul>`}
        <p><a href=${hrefFor('sync')}>Sync rules</a></p>
      </section>
    </div>`;
  }

  #body(): TemplateResult {
    const load = this._load;
    if (load.state === 'loading') return html`<p role="status">Loading your overview…</p>`;
    if (load.state === 'failed') {
      return loadFailedNotice(load.problem, () => void this.#reload());
    }
    if (load.overview.accounts.length === 0) {
      return html`<p class="empty" data-testid="no-accounts">No account is connected yet. <a href=${hrefFor('connections')}>Connect one on Connections</a> — or try demo mode's accounts there.</p>`;
    }
    return this.#cards(load.overview);
  }

  override render(): TemplateResult {
    return html`${this.summary ? html`<p class="summary">${this.summary}</p>` : nothing}${this.#body()}`;
  }
}
