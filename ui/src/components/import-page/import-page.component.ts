import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { apiRequest, downloadRequest, type ApiResult } from '../../api/http.ts';
import {
  describeImportFailure,
  FILE_PREVIEW_PATH,
  formatDuration,
  formatLabel,
  groupIssues,
  importPath,
  issueLocation,
  parseImportPreview,
  sourceLabel,
  TEXT_PREVIEW_PATH,
  uploadHeaders,
  URL_PREVIEW_PATH,
  type ImportFailure,
  type ImportIssue,
  type ImportPreview,
  type ImportSource,
  type PreviewPlaylist,
} from '../../api/imports.ts';
import type { Problem } from '../../api/problem.ts';
import { ACCOUNTS_PATH, parseAccounts, type AccountView } from '../../api/connections.ts';
import { describeShareFailure, importShareRequest, parseCreatedShare, SHARES_PATH, type CreatedShare } from '../../api/shares.ts';
import { formatTimestamp } from '../../api/timestamp.ts';
import { availableFormat, describeExportFailure, EXPORT_HANDOVER_KEY, type ExportFailure, type ExportFormatValue } from '../../api/exports.ts';
import { IMPORT_HANDOVER_KEY } from '../../api/migrations.ts';
import { hrefFor } from '../../router/route.ts';
import { factsStyles } from '../../theme/facts.styles.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { panelStyles } from '../../theme/panel.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { tableStyles } from '../../theme/table.styles.ts';
import { exportFailureNotice } from '../export-page/export-failure.template.ts';
import { readExportResult, type ExportResult } from '../export-page/export-result.ts';
import '../export-page/export-result/index.ts';
import { loadUnavailableFormats } from '../export-page/format-availability.ts';
import { accessHint } from '../problem-notice/access-hint.ts';
import '../problem-notice/index.ts';
import { importPageStyles } from './import-page.styles.ts';

/** What is waiting for the engine: one of the three ways in, or the deletion of the shown import. */
type Busy = { readonly kind: ImportSource; readonly label: string } | { readonly kind: 'delete' } | { readonly kind: 'export' } | { readonly kind: 'share' };

/** The outcome of "Share…": the link to hand out, or why there is none. */
type ShareOutcome = { readonly created: CreatedShare } | { readonly problem: Problem; readonly nextSteps: readonly string[] };

/** How long a new share answers, as offered ("until revoked" is the default). */
const SHARE_EXPIRY = [
  { value: '', label: 'Until I revoke it' },
  { value: '24', label: '1 day' },
  { value: '168', label: '1 week' },
  { value: '720', label: '30 days' },
] as const;

/** The formats `POST /api/exports` writes, in the order offered. */
const EXPORT_FORMATS: readonly { readonly value: ExportFormatValue; readonly label: string }[] = [
  { value: 'csv', label: 'CSV (spreadsheets)' },
  { value: 'txt', label: 'TXT (tab-separated)' },
  { value: 'm3u8', label: 'M3U8 (players)' },
  { value: 'xspf', label: 'XSPF (players)' },
  { value: 'json', label: 'Open Playlist JSON (lossless)' },
];

/** Playlists of a preview shown at first, and added by each "Show more": a large import must not build every table at once. */
export const PLAYLISTS_SHOWN = 20;

/** Where a problem is shown: next to the control that caused it. */
type Failure = { readonly near: ImportSource | 'preview'; readonly failure: ImportFailure };

type FieldErrors = { readonly text?: string; readonly url?: string };

/** An upload may be large and the engine parses it before answering. */
const UPLOAD_TIMEOUT_MS = 120_000;

function unexpectedAnswer(status: number, request: string): Problem {
  return { title: 'Unexpected answer from the engine', status, detail: `${request} did not return the documented fields.` };
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}

/**
 * Import: turn a playlist file, pasted text or a link into an import record and preview it —
 * playlists, the first tracks and line-level issues — before anything is matched. The record can
 * be exported to a portable file or deleted here; migrating from it arrives with the Migrate area.
 */
export class OplImportPage extends LitElement {
  static override styles = [sharedStyles, pageStyles, panelStyles, factsStyles, formStyles, tableStyles, importPageStyles];

  static override properties = {
    summary: {},
    _busy: { state: true },
    _failure: { state: true },
    _preview: { state: true },
    _fieldErrors: { state: true },
    _dragOver: { state: true },
    _announcement: { state: true },
    _accounts: { state: true },
    _share: { state: true },
    _exportFailure: { state: true },
    _exportResult: { state: true },
    _unavailableFormats: { state: true },
    _exportFormat: { state: true },
    _shownPlaylists: { state: true },
  };

  declare summary: string;
  declare _busy: Busy | undefined;
  declare _failure: Failure | undefined;
  declare _preview: ImportPreview | undefined;
  declare _fieldErrors: FieldErrors;
  declare _dragOver: boolean;
  declare _announcement: string;
  /** Connected provider accounts, for choosing which one reads a provider playlist link. */
  declare _accounts: readonly AccountView[];
  declare _share: ShareOutcome | undefined;
  /** Why the last "Download export" was refused, in the Export page's words. */
  declare _exportFailure: ExportFailure | undefined;
  /** What the last "Download export" holds, its warnings in words (as the Export page shows them). */
  declare _exportResult: ExportResult | undefined;
  /** Formats the engine cannot write now (their plugin is refused or quarantined): shown, not offered. */
  declare _unavailableFormats: ReadonlySet<ExportFormatValue>;
  declare _exportFormat: ExportFormatValue;
  /** How many playlists of the preview are rendered. */
  declare _shownPlaylists: number;
  /** Id of an element to focus after the next render. */
  #focusTarget: string | undefined;

  constructor() {
    super();
    this.summary = '';
    this._busy = undefined;
    this._failure = undefined;
    this._preview = undefined;
    this._fieldErrors = {};
    this._dragOver = false;
    this._announcement = '';
    this._accounts = [];
    this._share = undefined;
    this._exportFailure = undefined;
    this._exportResult = undefined;
    this._unavailableFormats = new Set();
    this._exportFormat = 'csv';
    this._shownPlaylists = PLAYLISTS_SHOWN;
    this.#focusTarget = undefined;
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

  protected override updated(_changed: PropertyValues<this>): void {
    if (!this.#focusTarget) return;
    const target = this.renderRoot.querySelector<HTMLElement>(`#${this.#focusTarget}`);
    if (target) {
      this.#focusTarget = undefined;
      target.focus();
    }
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
    this._share = undefined;
    this._exportFailure = undefined;
    this._exportResult = undefined;
    this._shownPlaylists = PLAYLISTS_SHOWN;
    const errors = preview.issues.filter((issue) => issue.severity === 'error').length;
    const warnings = preview.issues.length - errors;
    this._announcement =
      `Preview ready: ${plural(preview.playlistCount, 'playlist')}, ${plural(preview.trackCount, 'track')}` +
      `${preview.issues.length > 0 ? `, ${plural(errors, 'error')} and ${plural(warnings, 'warning')}` : ', no issues'}.`;
    this.#focusTarget = 'preview-heading';
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
      this.#focusTarget = 'import-text';
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
      this.#focusTarget = 'import-url';
      return;
    }
    this._fieldErrors = {};
    const account = (this.renderRoot.querySelector<HTMLSelectElement>('#import-account')?.value ?? '').trim();
    const json = account === '' ? { url } : { url, account_id: account };
    // A provider link is read page by page through the provider: allow it the time of an upload.
    await this.#preview('url', 'the link', URL_PREVIEW_PATH, () => apiRequest(URL_PREVIEW_PATH, { method: 'POST', json, timeoutMs: UPLOAD_TIMEOUT_MS }));
  }

  /** Creates a public share of one playlist of the shown import and shows its link. */
  async #createShare(preview: ImportPreview): Promise<void> {
    if (this._busy) return;
    const playlistKey = this.renderRoot.querySelector<HTMLSelectElement>('#share-playlist')?.value ?? preview.playlists[0]?.key ?? '0';
    const expiry = this.renderRoot.querySelector<HTMLSelectElement>('#share-expiry')?.value ?? '';
    this._busy = { kind: 'share' };
    this._share = undefined;
    this._announcement = 'Creating the share…';
    const result = await apiRequest(SHARES_PATH, { method: 'POST', json: importShareRequest(preview.id, playlistKey, expiry === '' ? null : Number(expiry)) });
    this._busy = undefined;
    if (!result.ok) {
      this._share = describeShareFailure(result.status, result.problem, result.body);
      this._announcement = `Not shared: ${this._share.problem.title}.`;
      return;
    }
    const created = parseCreatedShare(result.data);
    if (!created) {
      this._share = { problem: unexpectedAnswer(result.status, `POST ${SHARES_PATH}`), nextSteps: ['Try again later.'] };
      return;
    }
    this._share = { created };
    this._announcement = `Shared “${created.name}”. The link is ready to copy.`;
    this.#focusTarget = 'share-link';
  }

  async #copyShareLink(link: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(link);
      this._announcement = 'Link copied.';
    } catch {
      // Clipboard access can be refused (permissions, insecure origin): the link stays selected to copy by hand.
      const input = this.renderRoot.querySelector<HTMLInputElement>('#share-link');
      input?.focus();
      input?.select();
      this._announcement = 'Copying was not allowed here: the link is selected, copy it with your keyboard.';
    }
  }

  /** Exports the whole import through `POST /api/exports` and hands the file to the browser. */
  async #export(preview: ImportPreview): Promise<void> {
    if (this._busy) return;
    const format = this._exportFormat;
    this._busy = { kind: 'export' };
    this._failure = undefined;
    this._exportFailure = undefined;
    this._exportResult = undefined;
    this._announcement = '';
    const result = await downloadRequest('/api/exports', { source_provider: 'import', source_account_id: preview.id, format });
    this._busy = undefined;
    if (!result.ok) {
      this._exportFailure = describeExportFailure('live', result.status, result.problem, result.body, result.headers?.get('retry-after') ?? null);
      this._announcement = `Not exported: ${this._exportFailure.problem.title}.`;
      return;
    }
    const url = URL.createObjectURL(result.blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = result.fileName;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    // The warnings in words, not only counted: an archive's manifest names each one, a single file its codes header.
    const exported = await readExportResult(result, { partialPlaylistIds: [] });
    if (this._preview?.id !== preview.id) return;
    this._exportResult = exported;
    const warnings = Math.max(exported.warningCount, exported.warnings.length);
    this._announcement = `Exported ${result.fileName}${warnings > 0 ? ` with ${plural(warnings, 'warning')}` : ''}.`;
  }

  /** Hands the import to the Export page, where single playlists and a format with its explanation are chosen. */
  #chooseExport(importId: string): void {
    sessionStorage.setItem(EXPORT_HANDOVER_KEY, importId);
    window.location.assign(hrefFor('export'));
  }

  /** Hands the import to the Migrate wizard (the router drops query strings after the hash). */
  #startMigration(importId: string): void {
    sessionStorage.setItem(IMPORT_HANDOVER_KEY, importId);
    window.location.assign(hrefFor('migrate'));
  }

  async #delete(preview: ImportPreview): Promise<void> {
    if (this._busy) return;
    this._busy = { kind: 'delete' };
    this._failure = undefined;
    this._exportFailure = undefined;
    this._exportResult = undefined;
    this._announcement = '';
    const result = await apiRequest(importPath(preview.id), { method: 'DELETE' });
    this._busy = undefined;
    // 404 and 410: it is already gone (expired, or deleted elsewhere), which is what was asked.
    if (result.ok || result.status === 404 || result.status === 410) {
      this._preview = undefined;
      this._announcement = result.ok ? 'Import deleted.' : 'The import was already gone.';
      this.#focusTarget = 'add-heading';
      return;
    }
    this._failure = { near: 'preview', failure: describeImportFailure('file', result.status, result.problem, result.body) };
  }

  #failureNotice(near: Failure['near']): TemplateResult | typeof nothing {
    const shown = this._failure;
    if (shown?.near !== near) return nothing;
    const { failure } = shown;
    return html`<opl-problem-notice .problem=${failure.problem} data-testid="import-problem">
      <div class="failure-more">
        ${failure.reason ? html`<p class="reason">Reason: <code>${failure.reason}</code></p>` : nothing}
        ${failure.issues ? this.#issueLists(failure.issues.errors, failure.issues.warnings, `${near}-failure`) : nothing}
        ${failure.nextSteps.length > 0
          ? html`<ul class="next-steps" aria-label="What to do next">
              ${failure.nextSteps.map((step) => html`<li>${step}</li>`)}
            </ul>`
          : nothing}
        ${failure.connect
          ? html`<p><a class="button-link" href=${hrefFor('connections')} data-provider=${failure.connect.provider}
                >Connect a ${failure.connect.displayName} account</a
              ></p>`
          : nothing}
        ${failure.reconnect
          ? html`<p><a class="button-link" href=${hrefFor('connections')} data-provider=${failure.reconnect.provider} data-account=${failure.reconnect.accountId ?? ''}
                >Reconnect the ${failure.reconnect.displayName} account</a
              ></p>`
          : nothing}
        ${accessHint(failure.problem)}
      </div>
    </opl-problem-notice>`;
  }

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
        <p class="hint" id="file-hint">One file at a time: CSV, TXT, M3U or M3U8, PLS, WPL, XSPF, an iTunes / Apple Music Library.xml or Open Playlist JSON. The preview starts as soon as it is chosen.</p>
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

  #shareBlock(preview: ImportPreview): TemplateResult {
    const sharing = this._busy?.kind === 'share';
    const outcome = this._share;
    return html`<div class="share" role="group" aria-labelledby="share-heading" data-testid="share-block">
      <h3 id="share-heading">Share a playlist</h3>
      <p class="hint" id="share-hint">
        Anyone with the link can see the playlist's name and tracks (no account details) and import it into their own engine. You can revoke it on
        the <a href=${hrefFor('shares')}>Shares</a> page.
      </p>
      <div class="share-form">
        ${preview.playlists.length > 1
          ? html`<label for="share-playlist">Playlist</label>
              <select id="share-playlist">
                ${preview.playlists.map((playlist) => html`<option value=${playlist.key}>${playlist.name || 'Untitled playlist'}</option>`)}
              </select>`
          : nothing}
        <label for="share-expiry">Link works</label>
        <select id="share-expiry">
          ${SHARE_EXPIRY.map((item) => html`<option value=${item.value}>${item.label}</option>`)}
        </select>
        <button type="button" data-action="share" aria-describedby="share-hint" aria-disabled=${sharing ? 'true' : 'false'} @click=${() => void this.#createShare(preview)}>
          ${sharing ? 'Sharing…' : 'Share…'}
        </button>
      </div>
      ${outcome && 'created' in outcome
        ? html`<div class="share-result" data-testid="share-result">
            <label for="share-link">Link to “${outcome.created.name}”</label>
            <input id="share-link" type="url" readonly .value=${outcome.created.url} @focus=${(event: FocusEvent) => (event.currentTarget as HTMLInputElement).select()} />
            <div class="form-actions">
              <button type="button" data-action="copy-share" @click=${() => void this.#copyShareLink(outcome.created.url)}>Copy link</button>
              <a class="button-link" href=${outcome.created.url} target="_blank" rel="noopener noreferrer">Open the shared page</a>
            </div>
          </div>`
        : nothing}
      ${outcome && 'problem' in outcome
        ? html`<opl-problem-notice .problem=${outcome.problem} data-testid="share-problem">
            <ul class="next-steps" aria-label="What to do next">
              ${outcome.nextSteps.map((step) => html`<li>${step}</li>`)}
            </ul>
          </opl-problem-notice>`
        : nothing}
    </div>`;
  }

  #issueList(issues: readonly ImportIssue[], testId: string): TemplateResult {
    return html`<ul class="issues" data-testid=${testId}>
      ${issues.map(
        (issue) => html`<li data-line=${issue.line ?? ''} data-code=${issue.code}>
          <span class="where">${issueLocation(issue)}</span>
          <span class="message">${issue.message}</span>
          <code class="secondary">${issue.code}</code>
        </li>`,
      )}
    </ul>`;
  }

  #issueLists(errors: readonly ImportIssue[], warnings: readonly ImportIssue[], idPrefix: string): TemplateResult {
    return html`${errors.length > 0
      ? html`<h4 id=${`${idPrefix}-errors`}>Errors, rows skipped <span class="count">(${errors.length})</span></h4>
          ${this.#issueList(errors, 'issue-errors')}`
      : nothing}
    ${warnings.length > 0
      ? html`<h4 id=${`${idPrefix}-warnings`}>Warnings, rows kept <span class="count">(${warnings.length})</span></h4>
          ${this.#issueList(warnings, 'issue-warnings')}`
      : nothing}`;
  }

  #playlist(playlist: PreviewPlaylist, index: number): TemplateResult {
    const headingId = `playlist-heading-${index}`;
    const shown = playlist.tracks.length;
    return html`<div class="playlist" data-testid="preview-playlist">
      <h3 id=${headingId} tabindex="-1"><bdi>${playlist.name || 'Untitled playlist'}</bdi> <span class="count">(${plural(playlist.trackCount, 'track')})</span></h3>
      ${playlist.description ? html`<p class="description" dir="auto">${playlist.description}</p>` : nothing}
      ${shown === 0
        ? html`<p class="empty">This playlist has no tracks.</p>`
        : html`${shown < playlist.trackCount
              ? html`<p class="hint">Showing the first ${shown} of ${playlist.trackCount.toLocaleString('en')} tracks.</p>`
              : nothing}
            <div class="table-scroll" role="region" aria-labelledby=${headingId} tabindex="0">
              <table aria-labelledby=${headingId} data-testid="tracks-table">
                <thead>
                  <tr>
                    <th scope="col" class="number">#</th>
                    <th scope="col">Title</th>
                    <th scope="col">Artist</th>
                    <th scope="col">Album</th>
                    <th scope="col" class="number">Duration</th>
                  </tr>
                </thead>
                <tbody>
                  ${playlist.tracks.map((track, position) => {
                    const duration = formatDuration(track.durationS);
                    return html`<tr>
                      <td class="number">${position + 1}</td>
                      <th scope="row" dir="auto">${track.title || (track.link ? html`<span class="empty">Only a link:</span> <span class="link" data-field="link">${track.link}</span>` : html`<span class="empty">No title</span>`)}</th>
                      <td dir="auto">${track.artist}</td>
                      <td dir="auto">${track.album ?? ''}</td>
                      <td class="number" data-field="duration">
                        ${duration || html`<span aria-hidden="true">—</span><span class="visually-hidden">Unknown</span>`}
                      </td>
                    </tr>`;
                  })}
                </tbody>
              </table>
            </div>`}
    </div>`;
  }

  /** A refused export of the shown import: on this page, importing again is done right here. */
  #exportFailureHere(failure: ExportFailure): ExportFailure {
    if (failure.action.kind !== 'import-again') return failure;
    return { ...failure, nextSteps: ['The import was deleted or has expired. Import the file, text or link again above, then export it.'] };
  }

  /** Shows the next playlists and moves focus to the first of them. */
  #showMorePlaylists(): void {
    const first = this._shownPlaylists;
    this._shownPlaylists += PLAYLISTS_SHOWN;
    this.#focusTarget = `playlist-heading-${first}`;
  }

  #morePlaylists(preview: ImportPreview): TemplateResult | typeof nothing {
    const total = preview.playlists.length;
    const shown = Math.min(this._shownPlaylists, total);
    if (shown >= total) return nothing;
    const next = Math.min(PLAYLISTS_SHOWN, total - shown);
    return html`<div class="more-playlists" data-testid="more-playlists">
      <p class="hint" id="more-playlists-hint">Showing ${shown.toLocaleString('en')} of ${plural(total, 'playlist')}.</p>
      <button type="button" aria-describedby="more-playlists-hint" @click=${() => this.#showMorePlaylists()}>Show ${plural(next, 'more playlist')}</button>
    </div>`;
  }

  #previewSection(preview: ImportPreview): TemplateResult {
    const { errors, warnings } = groupIssues(preview.issues);
    const deleting = this._busy?.kind === 'delete';
    const exporting = this._busy?.kind === 'export';
    return html`<section aria-labelledby="preview-heading" data-testid="import-preview" data-import-id=${preview.id}>
      <h2 id="preview-heading" tabindex="-1">Preview: <bdi>${preview.name ?? 'Untitled import'}</bdi></h2>
      <dl>
        <dt>Source</dt>
        <dd data-field="source">${sourceLabel(preview.kind)}</dd>
        <dt>Format</dt>
        <dd data-field="format">${formatLabel(preview.format)}</dd>
        <dt>Contents</dt>
        <dd data-field="counts">${plural(preview.playlistCount, 'playlist')}, ${plural(preview.trackCount, 'track')}</dd>
        <dt>Issues</dt>
        <dd data-field="issues">
          ${preview.issues.length === 0 ? 'None' : `${plural(errors.length, 'error')}, ${plural(warnings.length, 'warning')}`}
        </dd>
        <dt>Kept until</dt>
        <dd data-field="expires">
          <time datetime=${preview.expiresAt}>${formatTimestamp(preview.expiresAt)}</time>
          <span class="explain">The engine deletes the import after this time; nothing was matched or written anywhere.</span>
        </dd>
      </dl>
      <div class="actions">
        <button type="button" id="delete-import" aria-disabled=${deleting ? 'true' : 'false'} @click=${() => void this.#delete(preview)}>
          ${deleting ? 'Deleting…' : 'Delete import'}
        </button>
        <span class="export-choice">
          <label for="export-format">Export as</label>
          <select
            id="export-format"
            aria-describedby=${this._unavailableFormats.size > 0 ? 'export-formats-note' : nothing}
            @change=${(event: Event) => {
              this._exportFormat = (event.currentTarget as HTMLSelectElement).value as ExportFormatValue;
              this._exportFailure = undefined;
              this._exportResult = undefined;
            }}
          >
            ${EXPORT_FORMATS.map((item) => {
              const unavailable = this._unavailableFormats.has(item.value);
              return html`<option value=${item.value} ?disabled=${unavailable} ?selected=${this._exportFormat === item.value}>
                ${item.label}${unavailable ? ' — not available now' : ''}
              </option>`;
            })}
          </select>
          <button type="button" id="export-import" data-action="export" aria-disabled=${exporting ? 'true' : 'false'} @click=${() => void this.#export(preview)}>
            ${exporting ? 'Exporting…' : 'Download export'}
          </button>
        </span>
        <button type="button" data-action="export-choose" @click=${() => this.#chooseExport(preview.id)}>Choose playlists to export…</button>
        <button type="button" data-action="migrate" aria-describedby="migrate-note" @click=${() => this.#startMigration(preview.id)}>Start a migration…</button>
      </div>
      <p class="hint" id="migrate-note">
        Several playlists download as one ZIP archive with a manifest. A migration takes this import as its source on the
        <a href=${hrefFor('migrate')}>Migrate</a> page.
      </p>
      ${this._unavailableFormats.size > 0
        ? html`<p class="hint" id="export-formats-note">
            A format marked “not available now” cannot be written at the moment: its plugin is not loaded (an administrator can see why on the Plugins page).
          </p>`
        : nothing}
      ${this._exportFailure ? exportFailureNotice(this.#exportFailureHere(this._exportFailure), () => void this.#export(preview), { importHere: true }) : nothing}
      <opl-export-result .result=${this._exportResult} heading="import-export-result-heading"></opl-export-result>
      ${this.#failureNotice('preview')} ${this.#shareBlock(preview)}
      ${preview.issues.length > 0
        ? html`<div class="issue-groups" role="group" aria-labelledby="issues-heading">
            <h3 id="issues-heading">Issues by line</h3>
            ${this.#issueLists(errors, warnings, 'preview')}
          </div>`
        : nothing}
      ${preview.playlists.slice(0, this._shownPlaylists).map((playlist, index) => this.#playlist(playlist, index))} ${this.#morePlaylists(preview)}
    </section>`;
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
      ${preview ? this.#previewSection(preview) : nothing}
      <span class="visually-hidden" role="status" aria-live="polite" data-testid="announcement">${this._announcement}</span>
    `;
  }
}
