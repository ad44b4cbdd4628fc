import { html, nothing, type TemplateResult } from 'lit';
import { apiRequest, type ApiResult } from '../../api/http.ts';
import {
  FILE_PREVIEW_PATH,
  describeImportFailure,
  parseImportPreview,
  TEXT_PREVIEW_PATH,
  uploadHeaders,
  URL_PREVIEW_PATH,
  type ImportFailure,
  type ImportPreview,
  type ImportSource,
} from '../../api/imports.ts';
import { plural } from '../../api/plural.ts';
import { unexpectedAnswer } from '../../api/problem.ts';
import { ACCOUNTS_PATH, parseAccounts, type AccountView } from '../../api/connections.ts';
import { availableFormat, type ExportFormatValue } from '../../api/exports.ts';
import { factsStyles } from '../../theme/facts.styles.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { panelStyles } from '../../theme/panel.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { tableStyles } from '../../theme/table.styles.ts';
import { loadingLineStyles, spinnerStyles } from '../../theme/loading.styles.ts';
import { loadUnavailableFormats } from '../export-page/format-availability.ts';
import { FocusTarget, OplPage } from '../kit/index.ts';
import '../problem-notice/index.ts';
import { importFailureNotice } from './import-failure.template.ts';
import { importPageStyles } from './import-page.styles.ts';
import type { PreviewBusy } from './import-preview/import-preview.component.ts';
import './import-preview/index.ts';
import { importPreviewStyles } from './import-preview/import-preview.styles.ts';

/** What is waiting for the engine: one of the three ways in, or the deletion of the shown import. */
type Busy = { readonly kind: ImportSource; readonly label: string } | PreviewBusy;

/** Where a problem is shown: next to the control that caused it. */
type Failure = { readonly near: ImportSource | 'preview'; readonly failure: ImportFailure };

type FieldErrors = { readonly text?: string; readonly url?: string };

/** An upload may be large and the engine parses it before answering. */
const UPLOAD_TIMEOUT_MS = 120_000;

/**
 * Import: turn a playlist file, pasted text or a link into an import record and preview it —
 * playlists, the first tracks and line-level issues — before anything is matched. The record can
 * be exported to a portable file or deleted here; migrating from it arrives with the Migrate area.
 */
export class OplImportPage extends OplPage {
  static override styles = [sharedStyles, pageStyles, panelStyles, factsStyles, formStyles, tableStyles, spinnerStyles, loadingLineStyles, importPreviewStyles, importPageStyles];

  static override properties = {
    _busy: { state: true },
    _failure: { state: true },
    _preview: { state: true },
    _fieldErrors: { state: true },
    _dragOver: { state: true },
    _accounts: { state: true },
    _unavailableFormats: { state: true },
    _exportFormat: { state: true },
  };

  declare _busy: Busy | undefined;
  declare _failure: Failure | undefined;
  declare _preview: ImportPreview | undefined;
  declare _fieldErrors: FieldErrors;
  declare _dragOver: boolean;
  /** Connected provider accounts, for choosing which one reads a provider playlist link. */
  declare _accounts: readonly AccountView[];
  /** Formats the engine cannot write now (their plugin is refused or quarantined): shown, not offered. */
  declare _unavailableFormats: ReadonlySet<ExportFormatValue>;
  declare _exportFormat: ExportFormatValue;
  readonly #focus = new FocusTarget();

  constructor() {
    super();
    this._busy = undefined;
    this._failure = undefined;
    this._preview = undefined;
    this._fieldErrors = {};
    this._dragOver = false;
    this._accounts = [];
    this._unavailableFormats = new Set();
    this._exportFormat = 'csv';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#loadAccounts();
    void this.#loadFormats();
  }

  async #loadFormats(): Promise<void> {
    const unavailable = await loadUnavailableFormats();
    if (!unavailable) return;
    this._unavailableFormats = unavailable;
    this._exportFormat = availableFormat(this._exportFormat, unavailable);
  }

  /** Without accounts the link box still works: the engine then answers with the action to connect one. */
  async #loadAccounts(): Promise<void> {
    const result = await apiRequest(ACCOUNTS_PATH);
    if (result.ok) this._accounts = parseAccounts(result.data) ?? [];
  }

  protected override updated(): void {
    this.#focus.apply(this.renderRoot);
  }

  /** Sends one preview request and shows its outcome: the preview (focus on its heading) or the problem. */
  async #preview(source: ImportSource, label: string, path: string, send: () => Promise<ApiResult<unknown>>): Promise<boolean> {
    if (this._busy) return false;
    this._busy = { kind: source, label };
    this._failure = undefined;
    this._announcement = `Reading ${label}…`;
    const result = await send();
    this._busy = undefined;
    if (!result.ok) {
      this._failure = { near: source, failure: describeImportFailure(source, result.status, result.problem, result.body) };
      this._announcement = `Not imported: ${this._failure.failure.problem.title}.`;
      return false;
    }
    const preview = parseImportPreview(result.data);
    if (!preview) {
      this._failure = { near: source, failure: { problem: unexpectedAnswer(result.status, `POST ${path}`), nextSteps: ['Try again later.'] } };
      this._announcement = 'Not imported: unexpected answer from the engine.';
      return false;
    }
    this._preview = preview;
    const errors = preview.issues.filter((issue) => issue.severity === 'error').length;
    const warnings = preview.issues.length - errors;
    this._announcement =
      `Preview ready: ${plural(preview.playlistCount, 'playlist')}, ${plural(preview.trackCount, 'track')}` +
      `${preview.issues.length > 0 ? `, ${plural(errors, 'error')} and ${plural(warnings, 'warning')}` : ', no issues'}.`;
    this.#focus.set('preview-heading');
    return true;
  }

  /** Refuses before sending: what the page can tell on its own, in words. */
  #refuseFile(title: string, detail: string, nextSteps: readonly string[]): void {
    this._failure = { near: 'file', failure: { problem: { title, detail, status: 0 }, nextSteps } };
    this._announcement = `Not imported: ${title}.`;
  }

  async #upload(file: File): Promise<void> {
    if (this._busy) return;
    if (file.size === 0) {
      this.#refuseFile(`“${file.name}” is empty`, 'The file has no content (0 bytes), so there is nothing to preview.', [
        'Choose the playlist file itself. If it was just saved or downloaded, check that this finished, then choose it again.',
      ]);
      return;
    }
    await this.#preview('file', `“${file.name}”`, FILE_PREVIEW_PATH, () =>
      apiRequest(FILE_PREVIEW_PATH, { method: 'POST', body: file, headers: uploadHeaders(file.name, file.type), timeoutMs: UPLOAD_TIMEOUT_MS }),
    );
  }

  readonly #onFileChosen = (event: Event): void => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    // Cleared, so choosing the same file again after a fix uploads it again.
    input.value = '';
    if (file) void this.#upload(file);
  };

  #chooseFile(): void {
    if (this._busy) return;
    this.renderRoot.querySelector<HTMLInputElement>('#file-input')?.click();
  }

  readonly #onDragOver = (event: DragEvent): void => {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = this._busy ? 'none' : 'copy';
    this._dragOver = true;
  };

  readonly #onDragLeave = (event: DragEvent): void => {
    const zone = event.currentTarget as HTMLElement;
    if (event.relatedTarget instanceof Node && zone.contains(event.relatedTarget)) return;
    this._dragOver = false;
  };

  readonly #onDrop = (event: DragEvent): void => {
    event.preventDefault();
    this._dragOver = false;
    const files = event.dataTransfer?.files;
    if (files && files.length > 1) {
      if (this._busy) return;
      this.#refuseFile('Drop one file at a time', `${files.length.toLocaleString('en')} files were dropped; a preview reads one file.`, ['Drop or choose the files one by one: each becomes its own import.']);
      return;
    }
    const file = files?.[0];
    if (file) void this.#upload(file);
  };

  async #submitText(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const text = (form.elements.namedItem('import-text') as HTMLTextAreaElement).value;
    const name = (form.elements.namedItem('import-name') as HTMLInputElement).value.trim();
    if (text.trim() === '') {
      if (this._failure?.near === 'text') this._failure = undefined;
      this._fieldErrors = { text: 'Paste at least one line, for example “Artist - Title”.' };
      this.#focus.set('import-text');
      return;
    }
    this._fieldErrors = {};
    const json = name === '' ? { text } : { text, name };
    await this.#preview('text', 'the pasted text', TEXT_PREVIEW_PATH, () => apiRequest(TEXT_PREVIEW_PATH, { method: 'POST', json }));
  }

  async #submitUrl(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const input = (event.currentTarget as HTMLFormElement).elements.namedItem('import-url') as HTMLInputElement;
    const url = input.value.trim();
    let error: string | undefined;
    if (url === '') error = 'Enter the link of a playlist.';
    else if (!URL.canParse(url)) error = 'Enter a full link, starting with https://.';
    if (error) {
      if (this._failure?.near === 'url') this._failure = undefined;
      this._fieldErrors = { url: error };
      this.#focus.set('import-url');
      return;
    }
    this._fieldErrors = {};
    const account = (this.renderRoot.querySelector<HTMLSelectElement>('#import-account')?.value ?? '').trim();
    const json = account === '' ? { url } : { url, account_id: account };
    // A provider link is read page by page through the provider: allow it the time of an upload.
    await this.#preview('url', 'the link', URL_PREVIEW_PATH, () => apiRequest(URL_PREVIEW_PATH, { method: 'POST', json, timeoutMs: UPLOAD_TIMEOUT_MS }));
  }

  #failureNotice(near: Failure['near']): TemplateResult | typeof nothing {
    const shown = this._failure;
    if (shown?.near !== near) return nothing;
    return importFailureNotice(shown.failure, near);
  }

  readonly #onPreviewBusy = (event: CustomEvent<PreviewBusy | null>): void => {
    // A CustomEvent carries "nothing" as null.
    this._busy = event.detail ?? undefined;
    // Deleting or exporting the shown import replaces what any earlier attempt said.
    if (event.detail?.kind === 'delete' || event.detail?.kind === 'export') this._failure = undefined;
  };

  readonly #onPreviewDeleted = (event: CustomEvent<string>): void => {
    this._preview = undefined;
    this._announcement = event.detail;
    this.#focus.set('add-heading');
  };

  #busyStatus(kind: ImportSource): TemplateResult | typeof nothing {
    const busy = this._busy;
    if (busy?.kind !== kind) return nothing;
    return html`<p class="loading" role="status"><span class="spinner" aria-hidden="true"></span>Reading ${busy.label}…</p>`;
  }

  #fileWay(): TemplateResult {
    const busy = this._busy !== undefined;
    return html`<div class="way" role="group" aria-labelledby="file-heading">
      <h3 id="file-heading">Upload a file</h3>
      <div
        class="drop-zone"
        data-testid="drop-zone"
        data-over=${this._dragOver ? 'true' : 'false'}
        @dragover=${this.#onDragOver}
        @dragenter=${this.#onDragOver}
        @dragleave=${this.#onDragLeave}
        @drop=${this.#onDrop}
      >
        <p>Drop a playlist file here, or</p>
        <button type="button" class="primary" aria-describedby="file-hint" aria-disabled=${busy ? 'true' : 'false'} @click=${() => this.#chooseFile()}>
          Choose a file…
        </button>
        <!-- Rendered (not display:none) so every browser opens its picker on click(); the button above is what users reach. -->
        <input id="file-input" class="visually-hidden" type="file" tabindex="-1" aria-hidden="true" @change=${this.#onFileChosen} />
        <p class="hint" id="file-hint">One file at a time: CSV, TXT, M3U or M3U8, PLS, WPL, XSPF, a plain XML or JSON playlist, an iTunes / Apple Music Library.xml or Open Playlist JSON. The preview starts as soon as it is chosen.</p>
      </div>
      ${this.#busyStatus('file')} ${this.#failureNotice('file')}
    </div>`;
  }

  #textWay(): TemplateResult {
    const busy = this._busy !== undefined;
    const error = this._fieldErrors.text;
    return html`<form class="way text-way" aria-labelledby="text-heading" novalidate @submit=${(event: SubmitEvent) => void this.#submitText(event)}>
      <h3 id="text-heading">Paste text</h3>
      <label for="import-text">Playlist text</label>
      <p class="hint" id="import-text-hint">One track per line as “Artist - Title”, or a table copied from a spreadsheet with a header row.</p>
      <textarea
        id="import-text"
        name="import-text"
        rows="6"
        spellcheck="false"
        aria-describedby=${error ? 'import-text-hint import-text-error' : 'import-text-hint'}
        aria-invalid=${error ? 'true' : 'false'}
      ></textarea>
      ${error ? html`<p class="field-error" id="import-text-error">${error}</p>` : nothing}
      <label for="import-name">Playlist name <span class="optional">(optional)</span></label>
      <input id="import-name" name="import-name" type="text" maxlength="255" autocomplete="off" />
      <div class="form-actions">
        <button type="submit" aria-disabled=${busy ? 'true' : 'false'}>Preview text</button>
      </div>
      ${this.#busyStatus('text')} ${this.#failureNotice('text')}
    </form>`;
  }

  #urlWay(): TemplateResult {
    const busy = this._busy !== undefined;
    const error = this._fieldErrors.url;
    return html`<form class="way" aria-labelledby="url-heading" novalidate @submit=${(event: SubmitEvent) => void this.#submitUrl(event)}>
      <h3 id="url-heading">Import from a link</h3>
      <label for="import-url">Playlist link</label>
      <p class="hint" id="import-url-hint">
        A provider playlist link (read through your connected account), a shared-playlist link, or an Open Playlist JSON file on a host the
        administrator allows.
      </p>
      <input
        id="import-url"
        name="import-url"
        type="url"
        inputmode="url"
        autocomplete="off"
        placeholder="https://"
        aria-describedby=${error ? 'import-url-hint import-url-error' : 'import-url-hint'}
        aria-invalid=${error ? 'true' : 'false'}
      />
      ${error ? html`<p class="field-error" id="import-url-error">${error}</p>` : nothing} ${this.#accountChoice()}
      <div class="form-actions">
        <button type="submit" aria-disabled=${busy ? 'true' : 'false'}>Preview link</button>
      </div>
      ${this.#busyStatus('url')} ${this.#failureNotice('url')}
    </form>`;
  }

  /** Shown once some provider has several connected accounts: which one reads a provider link. */
  #accountChoice(): TemplateResult | typeof nothing {
    const accounts = this._accounts;
    const providers = new Set(accounts.map((account) => account.provider));
    if (providers.size === accounts.length) return nothing;
    return html`<label for="import-account">Read provider links with</label>
      <select id="import-account" name="import-account" aria-describedby="import-account-hint">
        <option value="">Any connected account that can read it</option>
        ${accounts.map(
          (account) =>
            html`<option value=${account.id}>
              ${account.providerDisplayName} — ${account.accountLabel ?? account.displayName ?? account.providerUserId ?? account.id}${account.status === 'connected' ? '' : ' (needs reconnecting)'}
            </option>`,
        )}
      </select>
      <p class="hint" id="import-account-hint">Only used for provider playlist links. The account must be able to see the playlist.</p>`;
  }

  override render(): TemplateResult {
    const preview = this._preview;
    return html`
      ${this.summary ? html`<p class="summary">${this.summary}</p>` : nothing}
      <section aria-labelledby="add-heading">
        <h2 id="add-heading" tabindex="-1">Add a playlist</h2>
        <p>Nothing is matched or written while you preview: the import is only read and kept for a while.</p>
        <div class="ways">${this.#fileWay()} ${this.#textWay()} ${this.#urlWay()}</div>
      </section>
      <opl-import-preview
        .preview=${preview}
        .busy=${this._busy}
        .failure=${this._failure?.near === 'preview' ? this._failure.failure : undefined}
        .exportFormat=${this._exportFormat}
        .unavailableFormats=${this._unavailableFormats}
        @opl-import-busy=${this.#onPreviewBusy}
        @opl-import-failure=${(event: CustomEvent<ImportFailure>) => (this._failure = { near: 'preview', failure: event.detail })}
        @opl-import-format=${(event: CustomEvent<ExportFormatValue>) => (this._exportFormat = event.detail)}
        @opl-import-announce=${(event: CustomEvent<string>) => (this._announcement = event.detail)}
        @opl-import-deleted=${this.#onPreviewDeleted}
      ></opl-import-preview>
      <span class="visually-hidden" role="status" aria-live="polite" data-testid="announcement">${this._announcement}</span>
    `;
  }
}
