import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { ACCOUNTS_PATH, accountFullName, parseAccounts, type AccountView } from '../../api/connections.ts';
import { apiRequest } from '../../api/http.ts';
import type { MeRecipient } from '../../api/me.ts';
import { migrationBody, MIGRATIONS_PATH } from '../../api/migrations.ts';
import type { Problem } from '../../api/problem.ts';
import { joinSharePath, parseJoined, parseSharePreview, publicSharePath, SHARE_SESSION_PATH, type RecipientCopy, type SharePreview } from '../../api/share-recipient.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { emit, OplPage } from '../kit/index.ts';
import '../connections-page/index.ts';
import '../migration-board/index.ts';
import '../problem-notice/index.ts';
import { shareCopyPageStyles } from './share-copy-page.styles.ts';

/** What this tab copied: kept across the provider's sign-in redirect (a full page load). */
const COPY_KEY = 'opl.share-copy';

interface StoredCopy extends RecipientCopy {
  readonly token: string;
  readonly jobId: string | null;
}

function readStored(): StoredCopy | undefined {
  try {
    const value = JSON.parse(sessionStorage.getItem(COPY_KEY) ?? 'null') as unknown;
    if (typeof value !== 'object' || value === null) return undefined;
    const record = value as Record<string, unknown>;
    if (typeof record['token'] !== 'string' || typeof record['importId'] !== 'string' || typeof record['collectionId'] !== 'string') return undefined;
    return { token: record['token'], importId: record['importId'], collectionId: record['collectionId'], jobId: typeof record['jobId'] === 'string' ? record['jobId'] : null };
  } catch {
    return undefined;
  }
}

/**
 * The recipient's side of a share (spec Authentication 9), opened from the public share page:
 * "Copy to my account" makes this browser a recipient of the share (a share session, never the
 * owner's), then the recipient connects their own account, copies the playlist into it and follows
 * the job. Fires `opl-recipient-changed` when the browser joins or leaves, so the shell re-reads who it is.
 */
export class OplShareCopyPage extends OplPage {
  static override styles = [sharedStyles, pageStyles, shareCopyPageStyles];

  static override properties = {
    token: {},
    recipient: { attribute: false },
    _preview: { state: true },
    _copy: { state: true },
    _accounts: { state: true },
    _target: { state: true },
    _busy: { state: true },
    _problem: { state: true },
  };

  /** The share token of `#/copy/{token}`; empty when the page is shown for a recipient session alone. */
  declare token: string;
  declare recipient: MeRecipient | null;
  declare _preview: SharePreview | undefined;
  declare _copy: StoredCopy | undefined;
  declare _accounts: readonly AccountView[];
  declare _target: string;
  declare _busy: boolean;
  declare _problem: Problem | undefined;

  constructor() {
    super();
    this.token = '';
    this.recipient = null;
    this._preview = undefined;
    this._copy = readStored();
    this._accounts = [];
    this._target = '';
    this._busy = false;
    this._problem = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load();
  }

  protected override updated(changed: PropertyValues<this>): void {
    // Joining turns this browser into a recipient: their own accounts can be read from then on.
    if (changed.has('recipient') && changed.get('recipient') === null && this.recipient) void this.#loadAccounts();
  }

  get #token(): string {
    return this.token || this._copy?.token || '';
  }

  async #load(): Promise<void> {
    const token = this.#token;
    if (token) {
      const preview = await apiRequest(publicSharePath(token));
      this._preview = preview.ok ? parseSharePreview(preview.data) : undefined;
      if (!preview.ok) this._problem = preview.problem;
    }
    if (this.recipient) await this.#loadAccounts();
  }

  async #loadAccounts(): Promise<void> {
    const result = await apiRequest(ACCOUNTS_PATH);
    const accounts = result.ok ? parseAccounts(result.data) : undefined;
    this._accounts = accounts ?? [];
    if (!this._target && accounts?.[0]) this._target = accounts[0].id;
  }

  #store(copy: StoredCopy): void {
    this._copy = copy;
    sessionStorage.setItem(COPY_KEY, JSON.stringify(copy));
  }

  async #join(): Promise<void> {
    this._busy = true;
    this._problem = undefined;
    const token = this.#token;
    const result = await apiRequest(joinSharePath(token), { method: 'POST', json: {} });
    this._busy = false;
    const copy = result.ok ? parseJoined(result.data) : undefined;
    if (!result.ok || !copy) {
      this._problem = result.ok ? { title: 'Unexpected answer from the engine', status: result.status, detail: 'The share session did not name the copy.' } : result.problem;
      return;
    }
    this.#store({ ...copy, token, jobId: null });
    emit(this, 'opl-recipient-changed', null);
  }

  async #start(): Promise<void> {
    const copy = this._copy;
    const target = this._accounts.find((account) => account.id === this._target);
    if (!copy || !target) return;
    this._busy = true;
    this._problem = undefined;
    const body = migrationBody({ kind: 'import', importId: copy.importId }, { provider: target.provider, accountId: target.id }, { collectionIds: [copy.collectionId], tracks: {}, savedAlbumIds: [], followedArtistIds: [] }, true);
    const result = await apiRequest(MIGRATIONS_PATH, { method: 'POST', json: body, timeoutMs: 60_000 });
    this._busy = false;
    const jobId = result.ok && typeof (result.data as { id?: unknown } | undefined)?.id === 'string' ? (result.data as { id: string }).id : undefined;
    if (!jobId) {
      this._problem = result.ok ? { title: 'Unexpected answer from the engine', status: result.status, detail: 'The migration answer named no job.' } : result.problem;
      return;
    }
    this.#store({ ...copy, jobId });
  }

  async #leave(): Promise<void> {
    await apiRequest(SHARE_SESSION_PATH, { method: 'DELETE' });
    sessionStorage.removeItem(COPY_KEY);
    this._copy = undefined;
    this._accounts = [];
    emit(this, 'opl-recipient-changed', null);
  }

  #shareLine(): TemplateResult {
    const name = this._preview?.name ?? this.recipient?.shareName;
    if (!name) return html``;
    return html`<p>Shared playlist: <span class="share-name" data-field="share-name">${name}</span>${this._preview ? html` · ${this._preview.trackCount} tracks` : nothing}</p>`;
  }

  #body(): TemplateResult {
    if (this.recipient?.status === 'ended') {
      return html`<p class="ended" data-field="share-ended" role="status">This share was revoked or has expired, so nothing more can be copied from it. Ask the person who shared it for a new link.</p>
        <button type="button" @click=${() => void this.#leave()}>Leave this share</button>`;
    }
    const copy = this.recipient && this._copy && (!this.token || this._copy.token === this.token) ? this._copy : undefined;
    if (!copy) {
      return html`<p>Copying makes a copy of this playlist that only you can see, and lets you connect your own music account to put it in. You never see the account of the person who shared it, and they never see yours.</p>
        <button type="button" class="primary" ?disabled=${this._busy || !this.#token} @click=${() => void this.#join()}>Copy to my account</button>`;
    }
    return html`
      <section aria-labelledby="connect-heading">
        <h2 id="connect-heading">1. Connect your account</h2>
        <opl-connections-page .summary=${'Connect the music service account the playlist should go to. It belongs to this share session only.'}></opl-connections-page>
      </section>
      <section aria-labelledby="copy-heading">
        <h2 id="copy-heading">2. Copy the playlist into it</h2>
        ${this._accounts.length === 0
          ? html`<p data-field="no-account">Connect an account first.</p>`
          : html`<div class="target">
              <label
                >Your account
                <select data-field="target" .value=${this._target} @change=${(event: Event) => (this._target = (event.target as HTMLSelectElement).value)}>
                  ${this._accounts.map((account) => html`<option value=${account.id} ?selected=${account.id === this._target}>${accountFullName(account)}</option>`)}
                </select></label
              >
              <button type="button" class="primary" ?disabled=${this._busy} @click=${() => void this.#start()}>Copy into this account</button>
            </div>`}
      </section>
      ${copy.jobId ? html`<section aria-labelledby="job-heading"><h2 id="job-heading">3. Progress</h2><opl-migration-board .jobId=${copy.jobId}></opl-migration-board></section>` : nothing}
      <p><button type="button" @click=${() => void this.#leave()}>Leave this share</button></p>
    `;
  }

  override render(): TemplateResult {
    return html`<p class="summary">${this.summary}</p>
      ${this.#shareLine()} ${this._problem ? html`<opl-problem-notice .problem=${this._problem} data-testid="copy-problem"></opl-problem-notice>` : nothing} ${this.#body()}`;
  }
}
