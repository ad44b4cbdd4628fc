import { html, nothing, type TemplateResult } from 'lit';
import { accountFullName, ACCOUNTS_PATH, needsReconnect, parseAccounts, type AccountView } from '../../api/connections.ts';
import {
  describeExportFailure,
  EXPORT_FORMATS,
  EXPORT_HANDOVER_KEY,
  exportBody,
  exportFormatOption,
  EXPORTS_PATH,
  FORMAT_UNAVAILABLE_TEXT,
  type ExportFailure,
} from '../../api/exports.ts';
import { apiRequest, downloadRequest } from '../../api/http.ts';
import { copyLabel, EXPORT_GROUP_KEY, takeGroupHandover, type GroupCopy, type GroupHandover } from '../../api/library-group-actions.ts';
import { EMPTY_SELECTION, type MigrationSource, type SelectionDraft } from '../../api/migrations.ts';
import { DOWNLOAD_CANCELLED_CODE, type Problem } from '../../api/problem.ts';
import { hrefFor } from '../../router/route.ts';
import { exportOutcomeStyles } from '../../theme/export-outcome.styles.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { panelStyles } from '../../theme/panel.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import '../migrate-page/selection-step/index.ts';
import { accessHint } from '../problem-notice/access-hint.ts';
import '../problem-notice/index.ts';
import '../source-picker/index.ts';
import { OplSourceSelectionPage } from '../source-picker/source-selection-page.ts';
import { exportFailureNotice } from './export-failure.template.ts';
import { exportPageStyles } from './export-page.styles.ts';
import { ExportFileController } from './export-file.controller.ts';
import { readExportResult, type ExportResult } from './export-result.ts';
import './export-result/index.ts';
import { formatRemaining, RetryWait } from './retry-wait.ts';
import { saveBlob } from './save-blob.ts';

/** A live export reads every chosen playlist through its provider before the first byte comes back. */
const EXPORT_TIMEOUT_MS = 300_000;

/** How long the URL of a file that arrived after the page was left is kept, so the browser can start saving it. */
const LEFT_PAGE_URL_MS = 5_000;

type Accounts =
  | { readonly kind: 'loading' }
  | { readonly kind: 'loaded'; readonly accounts: readonly AccountView[]; readonly reconnect: readonly AccountView[] }
  | { readonly kind: 'failed'; readonly problem: Problem };

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}

/** Chosen playlists, whole or in part, once each. */
function chosenCount(selection: SelectionDraft): number {
  return new Set([...selection.collectionIds, ...Object.keys(selection.tracks)]).size;
}

/**
 * Export: pick a source (a connected account, or an import the Import page handed over), its
 * playlists (whole, or only some tracks), and a format; the engine builds the file and the
 * browser saves it under the engine's file name. Afterwards the page says what was downloaded and
 * puts every warning into words; a refusal says why and what to do next.
 */
export class OplExportPage extends OplSourceSelectionPage {
  static override styles = [sharedStyles, pageStyles, panelStyles, formStyles, exportOutcomeStyles, exportPageStyles];

  static override properties = {
    _accounts: { state: true },
    _fromLibrary: { state: true },
    _busy: { state: true },
    _result: { state: true },
    _failure: { state: true },
    _nothingChosen: { state: true },
    _cancelled: { state: true },
    _retryIn: { state: true },
  };

  declare _accounts: Accounts;
  /** A Library group handed over ("Export this group…"): one of its copies is the source, its playlists the selection. */
  declare _fromLibrary: GroupHandover | undefined;
  declare _busy: boolean;
  declare _result: ExportResult | undefined;
  declare _failure: ExportFailure | undefined;
  declare _nothingChosen: boolean;
  /** The last export was stopped with Cancel: said beside the button, not as a refusal. */
  declare _cancelled: boolean;
  /**
   * Seconds left of the wait the last refusal asked for (Retry-After); 0 when none. The same export
   * is held back meanwhile; changing what to export makes the refusal stale and ends the wait.
   */
  declare _retryIn: number;
  readonly #file = new ExportFileController(this);
  #retryWait: RetryWait | undefined;
  /** Stops the export under way (Cancel); the engine notices the closed request and removes its file. */
  #cancel: AbortController | undefined;

  constructor() {
    super();
    this._accounts = { kind: 'loading' };
    this._fromLibrary = undefined;
    this._busy = false;
    this._result = undefined;
    this._failure = undefined;
    this._nothingChosen = false;
    this._cancelled = false;
    this._retryIn = 0;
    this.#retryWait = undefined;
    this.#cancel = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const handed = sessionStorage.getItem(EXPORT_HANDOVER_KEY);
    if (handed) {
      sessionStorage.removeItem(EXPORT_HANDOVER_KEY);
      this._handedImportId = handed;
    }
    const group = takeGroupHandover(EXPORT_GROUP_KEY);
    if (group) {
      this._fromLibrary = group;
      this.#chooseCopy(group.copies[0]!);
    }
    void this.#loadAccounts();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#endWait();
  }

  async #loadAccounts(): Promise<void> {
    const result = await apiRequest(ACCOUNTS_PATH);
    if (!result.ok) {
      this._accounts = { kind: 'failed', problem: result.problem };
      return;
    }
    const accounts = parseAccounts(result.data);
    this._accounts = accounts
      ? { kind: 'loaded', accounts: accounts.filter((account) => account.status === 'connected'), reconnect: accounts.filter(needsReconnect) }
      : { kind: 'failed', problem: { title: 'Unexpected answer from the engine', status: result.status, detail: 'The list of accounts did not have the documented fields.' } };
  }

  /** Any change of what to export makes the last outcome stale. */
  #clearOutcome(): void {
    this.#endWait();
    this._failure = undefined;
    this._nothingChosen = false;
    this._cancelled = false;
  }

  #endWait(): void {
    this.#retryWait?.stop();
    this.#retryWait = undefined;
    this._retryIn = 0;
  }

  /** Holds the same export back for the `seconds` the refusal asked, then says once that it may be tried again. */
  #startWait(seconds: number): void {
    this.#endWait();
    if (seconds <= 0) return;
    this.#retryWait = new RetryWait(seconds, {
      onTick: (remaining) => (this._retryIn = remaining),
      onOver: () => {
        this.#retryWait = undefined;
        this._retryIn = 0;
        this._announcement = 'You can try the export again now.';
      },
    });
    this._retryIn = this.#retryWait.remainingSeconds;
  }

  async #download(): Promise<void> {
    if (this._busy || !this._source) return;
    if (this._retryIn > 0) {
      // Pressed while held back (aria-disabled buttons still take presses): say why nothing happens.
      this._announcement = `Not yet: try again in ${formatRemaining(this._retryIn)}, or change the playlists or the format.`;
      return;
    }
    if (chosenCount(this._selection) === 0) {
      this._nothingChosen = true;
      this._announcement = 'Choose at least one playlist first.';
      return;
    }
    const source = this._source;
    const selection = this._selection;
    const format = this.#file.format;
    this._busy = true;
    this._failure = undefined;
    this._nothingChosen = false;
    this._cancelled = false;
    this._result = undefined;
    this.#file.forget();
    this._announcement = `Exporting ${plural(chosenCount(selection), 'playlist')} as ${exportFormatOption(format)?.label ?? format}…`;
    const cancel = new AbortController();
    this.#cancel = cancel;
    const answer = await downloadRequest(EXPORTS_PATH, exportBody(source, format, selection), EXPORT_TIMEOUT_MS, cancel.signal);
    // The answer is in: nothing is left to cancel while its manifest is read.
    this.#cancel = undefined;
    this.requestUpdate();
    if (!answer.ok) {
      this._busy = false;
      if (answer.problem.code === DOWNLOAD_CANCELLED_CODE) {
        this._cancelled = true;
        this._announcement = 'Export cancelled; nothing was saved.';
        await this.#focus('#download');
        return;
      }
      this._failure = describeExportFailure('live', answer.status, answer.problem, answer.body, answer.headers?.get('retry-after') ?? null);
      if (this._failure.action.kind === 'retry' && this._failure.action.afterSeconds !== null) this.#startWait(this._failure.action.afterSeconds);
      this._announcement = `Not exported: ${this._failure.problem.title}.`;
      // Keyboard and screen-reader users land on the words and the action that helps.
      await this.#focus('[data-testid="export-failure"]');
      return;
    }
    // The page was left while the engine worked: the file asked for is still saved, and as nothing
    // offers it again, its URL (and the memory behind it) is let go once the browser has it.
    const savedAfterLeaving = (): boolean => {
      if (this.isConnected) return false;
      const url = saveBlob(answer.blob, answer.fileName);
      setTimeout(() => URL.revokeObjectURL(url), LEFT_PAGE_URL_MS);
      this._busy = false;
      return true;
    };
    if (savedAfterLeaving()) return;
    const result = await readExportResult(answer, { partialPlaylistIds: Object.keys(selection.tracks).filter((id) => (selection.tracks[id]?.length ?? 0) > 0) });
    if (savedAfterLeaving()) return;
    this.#file.save(answer.blob, answer.fileName);
    this._result = result;
    this._busy = false;
    const warnings = Math.max(result.warningCount, result.warnings.length);
    this._announcement = `Downloaded ${result.fileName}${warnings > 0 ? ` with ${plural(warnings, 'warning')}` : ', no warnings'}.`;
    await this.updateComplete;
    await this.renderRoot.querySelector('opl-export-result')?.focusHeading();
  }

  async #focus(selector: string): Promise<void> {
    await this.updateComplete;
    if (!this.isConnected) return;
    this.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  /** The copy of the handed group to export: its account is the source, its playlists of the group the selection. */
  #chooseCopy(copy: GroupCopy): void {
    // An import's copy is the import itself (the Library names it by its import id and provider `import`).
    this._source = copy.provider === 'import' ? { kind: 'import', importId: copy.accountId } : { kind: 'account', accountId: copy.accountId, provider: copy.provider };
    this._selection = { ...EMPTY_SELECTION, collectionIds: copy.playlistIds };
    this.#clearOutcome();
  }

  #libraryStep(group: GroupHandover): TemplateResult {
    const chosen = this._source?.kind === 'account' ? this._source.accountId : this._source?.kind === 'import' ? this._source.importId : '';
    return html`<section aria-labelledby="step-source" data-testid="library-group">
      <h2 id="step-source">1–2. From the Library</h2>
      <fieldset>
        <legend>Export “${group.groupName}” from</legend>
        <p class="hint">An export file holds one account's playlists. The most complete copy is chosen; pick another to export that one.</p>
        ${group.copies.map(
          (copy) => html`<div>
            <input type="radio" name="group-copy" id=${`copy-${copy.accountId}`} .checked=${copy.accountId === chosen} @change=${() => this.#chooseCopy(copy)} />
            <label for=${`copy-${copy.accountId}`}>${copyLabel(copy)}: ${copy.playlistNames.map((name, index) => html`${index > 0 ? ', ' : ''}“<bdi>${name}</bdi>”`)} · ${copy.holds} of ${group.songs} songs</label>
          </div>`,
        )}
      </fieldset>
      <button type="button" data-action="choose-something-else" @click=${() => {
        this._fromLibrary = undefined;
        this._source = undefined;
        this._selection = EMPTY_SELECTION;
        this.#clearOutcome();
      }}>Choose something else</button>
    </section>`;
  }

  /** Accounts whose sign-in expired cannot be read: named, with where to fix it, rather than left out. */
  #reconnectNote(accounts: readonly AccountView[]): TemplateResult | typeof nothing {
    if (accounts.length === 0) return nothing;
    return html`<p class="hint" data-testid="reconnect-accounts">
      ${accounts.length === 1 ? 'Needs reconnecting before it can be exported' : 'Need reconnecting before they can be exported'}:
      ${accounts.map((account, index) => html`${index > 0 ? ', ' : ''}<bdi>${accountFullName(account)}</bdi>`)}.
      <a href=${hrefFor('connections')}>Reconnect on Connections</a>
    </p>`;
  }

  #sourceStep(accounts: readonly AccountView[], reconnect: readonly AccountView[], unavailable: boolean): TemplateResult {
    return html`<section aria-labelledby="step-source">
      <h2 id="step-source">1. Source</h2>
      <opl-source-picker
        legend="Export from"
        .accounts=${accounts}
        ?accounts-unavailable=${unavailable}
        import-id=${this._handedImportId}
        @opl-source-change=${(event: CustomEvent<MigrationSource | undefined>) => {
          this.chooseSource(event.detail);
          this.#clearOutcome();
        }}
      ></opl-source-picker>
      ${this.#reconnectNote(reconnect)}
    </section>`;
  }

  #playlistStep(): TemplateResult | typeof nothing {
    if (!this._source || this._fromLibrary) return nothing;
    return html`<section aria-labelledby="step-playlists">
      <h2 id="step-playlists">2. Playlists</h2>
      <p class="hint">Choose one playlist for a single file, or several for one ZIP archive with a file per playlist and a manifest.json.${this._source.kind === 'account' ? ' “Choose tracks” exports only the tracks you tick.' : ''}</p>
      <opl-selection-step
        purpose="export"
        .source=${this._source}
        @opl-selection-change=${(event: CustomEvent<SelectionDraft>) => {
          this._selection = event.detail;
          this.#clearOutcome();
        }}
      ></opl-selection-step>
    </section>`;
  }

  #formatStep(): TemplateResult | typeof nothing {
    if (!this._source) return nothing;
    return html`<section aria-labelledby="step-format">
      <h2 id="step-format">3. Format</h2>
      <fieldset class="formats">
        <legend>File format</legend>
        ${EXPORT_FORMATS.map(
          // The explanation describes the radio rather than naming it, so it is read once, after the name.
          (option) => {
            const unavailable = this.#file.unavailable.has(option.value);
            return html`<div class="format" data-available=${unavailable ? 'false' : 'true'}>
              <input type="radio" name="format" id=${`format-${option.value}`} .value=${option.value} .checked=${this.#file.format === option.value} ?disabled=${unavailable}
                aria-describedby=${`format-${option.value}-explain`}
                @change=${() => {
                  this.#file.choose(option.value);
                  this.#clearOutcome();
                }} />
              <label class="format-name" for=${`format-${option.value}`}>${option.label} <span class="extension">.${option.value}</span></label>
              <span class="explain" id=${`format-${option.value}-explain`}>${unavailable ? html`<strong>${FORMAT_UNAVAILABLE_TEXT}</strong> ` : nothing}${option.explanation}</span>
            </div>`;
          },
        )}
      </fieldset>
    </section>`;
  }

  #downloadStep(): TemplateResult | typeof nothing {
    if (!this._source) return nothing;
    const count = chosenCount(this._selection);
    const format = exportFormatOption(this.#file.format);
    return html`<section aria-labelledby="step-download">
      <h2 id="step-download">4. Download</h2>
      <p data-testid="export-summary">
        ${count === 0
          ? 'No playlist chosen yet.'
          : count === 1
            ? `1 playlist as one ${format?.label ?? this.#file.format} file.`
            : `${plural(count, 'playlist')} as one ZIP archive of ${format?.label ?? this.#file.format} files with a manifest.json.`}
      </p>
      <button type="button" class="primary" id="download" aria-disabled=${this._busy || count === 0 || this._retryIn > 0 ? 'true' : 'false'} aria-describedby=${this._nothingChosen ? 'nothing-chosen' : nothing}
        @click=${() => void this.#download()}>
        ${this._busy ? 'Exporting…' : 'Download'}
      </button>
      ${this._busy && this.#cancel ? html`<button type="button" id="cancel-export" @click=${() => this.#cancel?.abort()}>Cancel</button>` : nothing}
      ${this._nothingChosen ? html`<p class="field-error" id="nothing-chosen">Choose at least one playlist in step 2 first.</p>` : nothing}
      ${this._cancelled ? html`<p class="hint" data-testid="export-cancelled">Cancelled: nothing was saved. Press Download to start again.</p>` : nothing}
      ${this._failure ? exportFailureNotice(this._failure, () => void this.#download(), { retryIn: this._retryIn }) : nothing}
      <opl-export-result .result=${this._result} href=${this.#file.href}></opl-export-result>
    </section>`;
  }

  override render(): TemplateResult {
    const accounts = this._accounts;
    return html`${this.summary ? html`<p class="summary">${this.summary}</p>` : nothing}
      ${accounts.kind === 'loading' ? html`<p role="status">Loading your accounts…</p>` : nothing}
      ${accounts.kind === 'failed'
        ? html`<opl-problem-notice .problem=${accounts.problem} data-testid="accounts-problem">
            ${accounts.problem.status === 401 || accounts.problem.status === 403
              ? nothing
              : html`<p class="next-action">Your connected accounts could not be read, so they are not offered below; an import can still be exported.</p>`}
            ${accessHint(accounts.problem)}
            <p class="next-action"><button type="button" data-action="reload-accounts" @click=${() => void this.#loadAccounts()}>Read the accounts again</button></p>
          </opl-problem-notice>`
        : nothing}
      ${accounts.kind === 'loading'
        ? nothing
        : html`${accounts.kind === 'loaded' ? this._fromLibrary
            ? this.#libraryStep(this._fromLibrary)
            : this.#sourceStep(accounts.accounts, accounts.reconnect, false) : this.#sourceStep([], [], true)}${this.#playlistStep()}${this.#formatStep()}${this.#downloadStep()}`}
      <span class="visually-hidden" role="status" aria-live="polite" data-testid="announcement">${this._announcement}</span>`;
  }
}
