import { html, nothing, type TemplateResult } from 'lit';
import { apiRequest } from '../../api/http.ts';
import type { Problem } from '../../api/problem.ts';
import { parseShareList, sharePath, SHARES_PATH, sourceProviderLabel, statusLabel, type Share } from '../../api/shares.ts';
import { formatTimestamp } from '../../api/timestamp.ts';
import { hrefFor } from '../../router/route.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { tableStyles } from '../../theme/table.styles.ts';
import { OplPage, scrollingTable } from '../kit/index.ts';
import '../problem-notice/index.ts';
import { sharesPageStyles } from './shares-page.styles.ts';
import { loadFailedNotice } from '../problem-notice/load-failed.template.ts';

type Load = { readonly state: 'loading' } | { readonly state: 'loaded'; readonly shares: readonly Share[] } | { readonly state: 'failed'; readonly problem: Problem };

/**
 * Shares: the owner's public playlist links, newest first, with their state and a way to revoke
 * each. Links themselves are shown only when a share is created (the engine keeps no copy of the
 * token), so this page manages shares rather than re-issuing links.
 */
export class OplSharesPage extends OplPage {
  static override styles = [sharedStyles, pageStyles, tableStyles, sharesPageStyles];

  static override properties = {
    _load: { state: true },
    _revoking: { state: true },
    _problem: { state: true },
  };

  declare _load: Load;
  /** The share being revoked, if any. */
  declare _revoking: string | undefined;
  declare _problem: Problem | undefined;

  constructor() {
    super();
    this._load = { state: 'loading' };
    this._revoking = undefined;
    this._problem = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#reload();
  }

  async #reload(): Promise<void> {
    const result = await apiRequest(SHARES_PATH);
    if (!result.ok) {
      this._load = { state: 'failed', problem: result.problem };
      return;
    }
    const shares = parseShareList(result.data);
    this._load = shares
      ? { state: 'loaded', shares }
      : { state: 'failed', problem: { title: 'Unexpected answer from the engine', status: result.status, detail: `GET ${SHARES_PATH} did not return the documented fields.` } };
  }

  async #revoke(share: Share): Promise<void> {
    if (this._revoking) return;
    this._revoking = share.id;
    this._problem = undefined;
    const result = await apiRequest(sharePath(share.id), { method: 'DELETE' });
    this._revoking = undefined;
    if (!result.ok && result.status !== 404) {
      this._problem = result.problem;
      this._announcement = `Not revoked: ${result.problem.title}.`;
      return;
    }
    // The list is read again first, so the announcement never runs ahead of the row it describes.
    await this.#reload();
    this._announcement = `Revoked the share of “${share.name}”: its link no longer works.`;
  }

  #row(share: Share): TemplateResult {
    const revoking = this._revoking === share.id;
    return html`<tr data-testid="share-row" data-share-id=${share.id} data-status=${share.status}>
      <th scope="row">${share.name || 'Untitled playlist'}</th>
      <td class="number">${share.trackCount.toLocaleString('en')}</td>
      <td>${sourceProviderLabel(share.sourceProvider)}</td>
      <td><time datetime=${share.createdAt}>${formatTimestamp(share.createdAt)}</time></td>
      <td>${share.expiresAt ? html`<time datetime=${share.expiresAt}>${formatTimestamp(share.expiresAt)}</time>` : 'Until revoked'}</td>
      <td><span class="status" data-status=${share.status}>${statusLabel(share.status)}</span></td>
      <td class="actions">
        ${share.status === 'active'
          ? html`<button type="button" data-action="revoke" aria-label=${`Revoke the share of ${share.name || 'Untitled playlist'}`} aria-disabled=${revoking ? 'true' : 'false'} @click=${() => void this.#revoke(share)}>
              ${revoking ? 'Revoking…' : 'Revoke'}
            </button>`
          : nothing}
      </td>
    </tr>`;
  }

  #body(): TemplateResult {
    const load = this._load;
    if (load.state === 'loading') return html`<p class="loading" role="status">Loading your shares…</p>`;
    if (load.state === 'failed') {
      return loadFailedNotice(load.problem, () => void this.#reload());
    }
    if (load.shares.length === 0) {
      return html`<p class="empty" data-testid="no-shares">
        You have not shared any playlist yet. Preview a playlist on the <a href=${hrefFor('import')}>Import</a> page and choose “Share…”.
      </p>`;
    }
    return scrollingTable({
      headingId: 'shares-heading',
      testId: 'shares-table',
      columns: [{ label: 'Playlist' }, { label: 'Tracks', numeric: true }, { label: 'From' }, { label: 'Shared' }, { label: 'Link works' }, { label: 'State' }, { label: 'Actions', hidden: true }],
      rows: load.shares.map((share) => this.#row(share)),
    });
  }

  override render(): TemplateResult {
    return html`
      ${this.summary ? html`<p class="summary">${this.summary}</p>` : nothing}
      <section aria-labelledby="shares-heading">
        <h2 id="shares-heading">Your shares</h2>
        <p>A share is a read-only copy of one playlist taken when you shared it. Revoking it makes its link stop working at once.</p>
        ${this._problem ? html`<opl-problem-notice .problem=${this._problem} data-testid="revoke-problem"></opl-problem-notice>` : nothing} ${this.#body()}
      </section>
      <span class="visually-hidden" role="status" aria-live="polite" data-testid="announcement">${this._announcement}</span>
    `;
  }
}
