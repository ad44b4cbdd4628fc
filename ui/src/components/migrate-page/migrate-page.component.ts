import { html, nothing, type TemplateResult } from 'lit';
import { accountFullName, ACCOUNTS_PATH, parseAccounts, parseProviders, PROVIDERS_PATH, type AccountView, type ProviderRow } from '../../api/connections.ts';
import { apiRequest } from '../../api/http.ts';
import {
  describeStartFailure,
  EMPTY_SELECTION,
  IMPORT_HANDOVER_KEY,
  MIGRATIONS_PATH,
  migrationBody,
  parseJob,
  parsePreflight,
  PREFLIGHT_PATH,
  selectionIsEmpty,
  warningTitle,
  type MigrationSource,
  type Preflight,
  type SelectionDraft,
  type StartFailure,
  type Warning,
} from '../../api/migrations.ts';
import { LIBRARY_HANDOVER_KEY, parseHandover, type LibraryHandover } from '../../api/library-workspace.ts';
import type { Problem } from '../../api/problem.ts';
import { hrefFor } from '../../router/route.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { panelStyles } from '../../theme/panel.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { choiceListStyles } from '../../theme/choice-group.styles.ts';
import '../migration-board/index.ts';
import { accessHint } from '../problem-notice/access-hint.ts';
import '../problem-notice/index.ts';
import { migratePageStyles } from './migrate-page.styles.ts';
import '../source-picker/index.ts';
import { OplSourceSelectionPage } from '../source-picker/source-selection-page.ts';
import './selection-step/index.ts';

/** Preflight reads the source (and target playlists) through the providers. */
const PREFLIGHT_TIMEOUT_MS = 120_000;

type Accounts = { readonly kind: 'loading' } | { readonly kind: 'loaded'; readonly accounts: readonly AccountView[]; readonly providers: readonly ProviderRow[] } | { readonly kind: 'failed'; readonly problem: Problem };

/** The preflight's answer: ready (maybe with warnings to acknowledge), refused, or failed. */
type Check = { readonly kind: 'checking' } | { readonly kind: 'checked'; readonly preflight: Preflight } | { readonly kind: 'refused'; readonly failure: StartFailure };

/**
 * Migrate: a wizard from a source (a connected account, or an import the Import page handed over)
 * through the selection and the target account to the server's preflight, whose warnings must be
 * acknowledged before the start. Once started, the job's progress board takes the page over.
 */
export class OplMigratePage extends OplSourceSelectionPage {
  static override styles = [sharedStyles, pageStyles, panelStyles, formStyles, choiceListStyles, migratePageStyles];

  static override properties = {
    _accounts: { state: true },
    _targetId: { state: true },
    _check: { state: true },
    _acknowledged: { state: true },
    _starting: { state: true },
    _startFailure: { state: true },
    _jobId: { state: true },
    _handover: { state: true },
  };

  declare _accounts: Accounts;
  declare _targetId: string | undefined;
  declare _check: Check | undefined;
  declare _acknowledged: boolean;
  declare _starting: boolean;
  declare _startFailure: StartFailure | undefined;
  declare _jobId: string | undefined;
  /** Songs the Library page handed over (one playlist's missing songs into one account): steps 1 and 2 are filled in. */
  declare _handover: LibraryHandover | undefined;

  constructor() {
    super();
    this._accounts = { kind: 'loading' };
    this._targetId = undefined;
    this._check = undefined;
    this._acknowledged = false;
    this._starting = false;
    this._startFailure = undefined;
    this._jobId = undefined;
    this._handover = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const handed = sessionStorage.getItem(IMPORT_HANDOVER_KEY);
    if (handed) {
      sessionStorage.removeItem(IMPORT_HANDOVER_KEY);
      this._handedImportId = handed;
      this._source = { kind: 'import', importId: handed };
    }
    const fromLibrary = parseHandover(sessionStorage.getItem(LIBRARY_HANDOVER_KEY));
    sessionStorage.removeItem(LIBRARY_HANDOVER_KEY);
    if (fromLibrary && fromLibrary.trackKeys.length > 0) {
      this._handover = fromLibrary;
      this._source = { kind: 'account', accountId: fromLibrary.sourceAccountId, provider: fromLibrary.sourceProvider };
      this._selection = { ...EMPTY_SELECTION, tracks: { [fromLibrary.playlistId]: fromLibrary.trackKeys } };
      this._targetId = fromLibrary.targetAccountId;
    }
    void this.#loadAccounts();
  }

  async #loadAccounts(): Promise<void> {
    const [accounts, providers] = await Promise.all([apiRequest(ACCOUNTS_PATH), apiRequest(PROVIDERS_PATH)]);
    if (!accounts.ok) {
      this._accounts = { kind: 'failed', problem: accounts.problem };
      return;
    }
    const parsed = parseAccounts(accounts.data);
    const rows = providers.ok ? (parseProviders(providers.data) ?? []) : [];
    this._accounts = parsed ? { kind: 'loaded', accounts: parsed, providers: rows } : { kind: 'failed', problem: { title: 'Unexpected answer from the engine', status: accounts.status } };
  }

  #connected(): readonly AccountView[] {
    return this._accounts.kind === 'loaded' ? this._accounts.accounts.filter((account) => account.status === 'connected') : [];
  }

  /** Any change before the preflight makes its answer stale. */
  #resetCheck(): void {
    this._check = undefined;
    this._acknowledged = false;
    this._startFailure = undefined;
  }

  protected override chooseSource(source: MigrationSource | undefined): void {
    super.chooseSource(source);
    this.#resetCheck();
    // The source account cannot also be the target.
    if (source?.kind === 'account' && this._targetId === source.accountId) this._targetId = undefined;
  }

  #libraryKinds(): string[] {
    const source = this._source;
    if (source?.kind !== 'account' || this._accounts.kind !== 'loaded') return [];
    const provider = this._accounts.providers.find((row) => row.name === source.provider);
    const kinds: string[] = [];
    if (provider?.capabilities.includes('READ_SAVED_ALBUMS')) kinds.push('albums');
    if (provider?.capabilities.includes('READ_FOLLOWED_ARTISTS')) kinds.push('artists');
    return kinds;
  }

  #target(): AccountView | undefined {
    return this.#connected().find((account) => account.id === this._targetId);
  }

  #body(acknowledge: boolean): Record<string, unknown> | undefined {
    const target = this.#target();
    if (!this._source || !target || selectionIsEmpty(this._selection)) return undefined;
    return migrationBody(this._source, { provider: target.provider, accountId: target.id }, this._selection, acknowledge);
  }

  async #preflight(): Promise<void> {
    const body = this.#body(false);
    if (!body) return;
    this.#resetCheck();
    this._check = { kind: 'checking' };
    const result = await apiRequest(PREFLIGHT_PATH, { method: 'POST', json: body, timeoutMs: PREFLIGHT_TIMEOUT_MS });
    if (!result.ok) {
      this._check = { kind: 'refused', failure: describeStartFailure(result.problem, result.body) };
      return;
    }
    const preflight = parsePreflight(result.data);
    this._check = preflight ? { kind: 'checked', preflight } : { kind: 'refused', failure: { kind: 'problem', problem: { title: 'Unexpected answer from the engine', status: result.status } } };
  }

  async #start(warnings: readonly Warning[]): Promise<void> {
    if (this._starting) return;
    if (warnings.length > 0 && !this._acknowledged) return;
    const body = this.#body(warnings.length > 0 && this._acknowledged);
    if (!body) return;
    this._starting = true;
    this._startFailure = undefined;
    const result = await apiRequest(MIGRATIONS_PATH, { method: 'POST', json: body, timeoutMs: PREFLIGHT_TIMEOUT_MS });
    this._starting = false;
    if (!result.ok) {
      const failure = describeStartFailure(result.problem, result.body);
      // New warnings since the check (another job started meanwhile): show them to acknowledge.
      if (failure.kind === 'warnings' && this._check?.kind === 'checked') {
        this._check = { kind: 'checked', preflight: { ...this._check.preflight, ready: false, warnings: failure.warnings } };
        this._acknowledged = false;
      }
      this._startFailure = failure;
      return;
    }
    const job = parseJob(result.data);
    if (job) this._jobId = job.id;
  }

  #handoverStep(handover: LibraryHandover): TemplateResult {
    const count = handover.trackKeys.length;
    return html`<section aria-labelledby="step-source" data-testid="library-handover">
      <h2 id="step-source">1–2. From the Library</h2>
      <p>${count} ${count === 1 ? 'song' : 'songs'} of “${handover.playlistName}” missing in ${handover.targetName}. The engine adds them to the playlist it wrote there before, or to a same-name playlist with songs in common; otherwise it creates one.</p>
      <button type="button" @click=${() => ((this._handover = undefined), this.chooseSource(undefined))}>Choose something else</button>
    </section>`;
  }

  #sourceStep(): TemplateResult {
    if (this._handover) return this.#handoverStep(this._handover);
    return html`<section aria-labelledby="step-source">
      <h2 id="step-source">1. Source</h2>
      <opl-source-picker
        legend="Migrate from"
        .accounts=${this.#connected()}
        import-id=${this._handedImportId}
        @opl-source-change=${(event: CustomEvent<MigrationSource | undefined>) => this.chooseSource(event.detail)}
      ></opl-source-picker>
    </section>`;
  }

  #selectionStep(): TemplateResult | typeof nothing {
    if (!this._source || this._handover) return nothing;
    return html`<section aria-labelledby="step-selection">
      <h2 id="step-selection">2. What to migrate</h2>
      <opl-selection-step
        .source=${this._source}
        .libraryKinds=${this.#libraryKinds()}
        @opl-selection-change=${(event: CustomEvent<SelectionDraft>) => {
          this._selection = event.detail;
          this.#resetCheck();
        }}
      ></opl-selection-step>
    </section>`;
  }

  #targetStep(): TemplateResult | typeof nothing {
    if (!this._source || selectionIsEmpty(this._selection)) return nothing;
    const sourceId = this._source.kind === 'account' ? this._source.accountId : undefined;
    const targets = this.#connected().filter((account) => account.id !== sourceId);
    return html`<section aria-labelledby="step-target">
      <h2 id="step-target">3. Target</h2>
      ${targets.length === 0
        ? html`<p class="empty">Connect another account on <a href=${hrefFor('connections')}>Connections</a> to migrate into it.</p>`
        : html`<fieldset>
            <legend>Migrate to</legend>
            ${targets.map(
              (account) => html`<label class="choice"
                ><input type="radio" name="target" .checked=${this._targetId === account.id}
                  @change=${() => {
                    this._targetId = account.id;
                    this.#resetCheck();
                  }} />
                ${accountFullName(account)}</label
              >`,
            )}
          </fieldset>`}
    </section>`;
  }

  #refusal(failure: StartFailure): TemplateResult {
    if (failure.kind === 'unsupported') {
      return html`<div class="refusal" role="alert" data-testid="refusal" data-code="unsupported_target_type">
        <p><strong>The target cannot receive part of this selection.</strong></p>
        <ul>
          ${(failure.refusals.length > 0 ? failure.refusals : [{ entity: '', message: failure.problem.detail ?? failure.problem.title }]).map((refusal) => html`<li>${refusal.message}</li>`)}
        </ul>
        <p>Change the selection or choose another target.</p>
      </div>`;
    }
    if (failure.kind === 'warnings') return html`<p role="alert">The engine found new things to check; read them above and acknowledge again.</p>`;
    return html`<opl-problem-notice .problem=${failure.problem}>${accessHint(failure.problem)}</opl-problem-notice>`;
  }

  #checked(preflight: Preflight): TemplateResult {
    const { summary, warnings } = preflight;
    const blocked = warnings.length > 0 && !this._acknowledged;
    return html`<div data-testid="preflight" data-ready=${preflight.ready ? 'true' : 'false'}>
      <p>
        ${summary.playlists} ${summary.playlists === 1 ? 'collection' : 'collections'} with ${summary.tracks} tracks${summary.savedAlbums ? html`, ${summary.savedAlbums} saved albums` : nothing}${summary.followedArtists
          ? html`, ${summary.followedArtists} followed artists`
          : nothing}.
        ${summary.unsupported > 0 ? html`${summary.unsupported} entries cannot be migrated (episodes, videos or local files) and will be reported.` : nothing}
      </p>
      ${warnings.length > 0
        ? html`<div class="warnings" data-testid="warnings">
            <h3>Please check before starting</h3>
            <ul>
              ${warnings.map((warning) => html`<li data-code=${warning.code}><strong>${warningTitle(warning.code)}.</strong> ${warning.message}</li>`)}
            </ul>
            <label class="choice"
              ><input type="checkbox" required .checked=${this._acknowledged} @change=${(event: Event) => (this._acknowledged = (event.currentTarget as HTMLInputElement).checked)} />
              I have read these warnings and want to start anyway</label
            >
          </div>`
        : html`<p>Ready to start.</p>`}
      <button type="button" class="primary" aria-disabled=${blocked || this._starting ? 'true' : 'false'} @click=${() => void this.#start(warnings)}>
        ${this._starting ? 'Starting…' : 'Start migration'}
      </button>
      ${blocked ? html`<p class="hint">Acknowledge the warnings to start.</p>` : nothing} ${this._startFailure ? this.#refusal(this._startFailure) : nothing}
    </div>`;
  }

  #checkStep(): TemplateResult | typeof nothing {
    if (!this._source || selectionIsEmpty(this._selection) || !this.#target()) return nothing;
    const check = this._check;
    return html`<section aria-labelledby="step-check">
      <h2 id="step-check">4. Check and start</h2>
      <p>The engine checks the selection against the target and its safe limits. Nothing is written yet.</p>
      <button type="button" aria-disabled=${check?.kind === 'checking' ? 'true' : 'false'} @click=${() => void this.#preflight()}>Check migration</button>
      <div aria-live="polite">
        ${check?.kind === 'checking' ? html`<p role="status">Checking…</p>` : nothing} ${check?.kind === 'refused' ? this.#refusal(check.failure) : nothing}
        ${check?.kind === 'checked' ? this.#checked(check.preflight) : nothing}
      </div>
    </section>`;
  }

  override render(): TemplateResult {
    if (this._jobId) {
      return html`<p class="summary">The migration has started. You can leave this page; it continues in the engine and stays in <a href=${hrefFor('history')}>History</a>.</p>
        <opl-migration-board .jobId=${this._jobId}></opl-migration-board>
        <button type="button" @click=${() => ((this._jobId = undefined), this.#resetCheck())}>Start another migration</button>`;
    }
    const accounts = this._accounts;
    return html`<p class="summary">${this.summary}</p>
      ${accounts.kind === 'loading' ? html`<p role="status">Loading your accounts…</p>` : nothing}
      ${accounts.kind === 'failed' ? html`<opl-problem-notice .problem=${accounts.problem}>${accessHint(accounts.problem)}</opl-problem-notice>` : nothing}
      ${accounts.kind === 'loaded' ? html`${this.#sourceStep()}${this.#selectionStep()}${this.#targetStep()}${this.#checkStep()}` : nothing}`;
  }
}
