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
import { formatTimestamp } from '../../api/timestamp.ts';
import { IMPORT_HANDOVER_KEY } from '../../api/migrations.ts';
import { hrefFor } from '../../router/route.ts';
import { factsStyles } from '../../theme/facts.styles.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { panelStyles } from '../../theme/panel.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { tableStyles } from '../../theme/table.styles.ts';
import { accessHint } from '../problem-notice/access-hint.ts';
import '../problem-notice/index.ts';
import { importPageStyles } from './import-page.styles.ts';

/** What is waiting for the engine: one of the three ways in, or the deletion of the shown import. */
type Busy = { readonly kind: ImportSource; readonly label: string } | { readonly kind: 'delete' } | { readonly kind: 'export' };

/** The formats `POST /api/exports` writes, in the order offered. */
const EXPORT_FORMATS = [
  { value: 'csv', label: 'CSV (spreadsheets)' },
  { value: 'txt', label: 'TXT (tab-separated)' },
  { value: 'm3u8', label: 'M3U8 (players)' },
  { value: 'xspf', label: 'XSPF (players)' },
  { value: 'json', label: 'Open Playlist JSON (lossless)' },
] as const;

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
  };

  declare summary: string;
  declare _busy: Busy | undefined;
  declare _failure: Failure | undefined;
  declare _preview: ImportPreview | undefined;
  declare _fieldErrors: FieldErrors;
  declare _dragOver: boolean;
  declare _announcement: string;
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
    this.#focusTarget = undefined;
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
    const errors = preview.issues.filter((issue) => issue.severity === 'error').length;
    const warnings = preview.issues.length - errors;
    this._announcement =
      `Preview ready: ${plural(preview.playlistCount, 'playlist')}, ${plural(preview.trackCount, 'track')}` +
      `${preview.issues.length > 0 ? `, ${plural(errors, 'error')} and ${plural(warnings, 'warning')}` : ', no issues'}.`;
    this.#focusTarget = 'preview-heading';
    return true;
  }

  async #upload(file: File): Promise<void> {
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
    const file = event.dataTransfer?.files[0];
    if (file) void this.#upload(file);
  };

  async #submitText(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const text = (form.elements.namedItem('import-text') as HTMLTextAreaElement).value;
    const name = (form.elements.namedItem('import-name') as HTMLInputElement).value.trim();
    if (text.trim() === '') {
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
      this._fieldErrors = { url: error };
      this.#focusTarget = 'import-url';
      return;
    }
    this._fieldErrors = {};
    await this.#preview('url', 'the link', URL_PREVIEW_PATH, () => apiRequest(URL_PREVIEW_PATH, { method: 'POST', json: { url } }));
  }

  /** Exports the whole import through `POST /api/exports` and hands the file to the browser. */
  async #export(preview: ImportPreview): Promise<void> {
    if (this._busy) return;
    const select = this.renderRoot.querySelector<HTMLSelectElement>('#export-format');
    const format = select?.value ?? 'csv';
    this._busy = { kind: 'export' };
    this._failure = undefined;
    this._announcement = '';
    const result = await downloadRequest('/api/exports', { source_provider: 'import', source_account_id: preview.id, format });
    this._busy = undefined;
    if (!result.ok) {
      this._failure = { near: 'preview', failure: describeImportFailure('file', result.status, result.problem, result.body) };
      return;
    }
    const url = URL.createObjectURL(result.blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = result.fileName;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    this._announcement = `Exported ${result.fileName}${result.warningCount > 0 ? ` with ${plural(result.warningCount, 'warning')}` : ''}.`;
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
        <p class="hint" id="file-hint">One file at a time: CSV, TXT, M3U or M3U8, PLS, XSPF or Open Playlist JSON. The preview starts as soon as it is chosen.</p>
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
      <p class="hint" id="import-url-hint">A provider playlist link, or an Open Playlist JSON file on a host the administrator allows.</p>
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
      ${error ? html`<p class="field-error" id="import-url-error">${error}</p>` : nothing}
      <div class="form-actions">
        <button type="submit" aria-disabled=${busy ? 'true' : 'false'}>Preview link</button>
      </div>
      ${this.#busyStatus('url')} ${this.#failureNotice('url')}
    </form>`;
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
      <h3 id=${headingId}>${playlist.name || 'Untitled playlist'} <span class="count">(${plural(playlist.trackCount, 'track')})</span></h3>
      ${playlist.description ? html`<p class="description">${playlist.description}</p>` : nothing}
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
                      <th scope="row">${track.title || html`<span class="empty">No title</span>`}</th>
                      <td>${track.artist}</td>
                      <td>${track.album ?? ''}</td>
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

  #previewSection(preview: ImportPreview): TemplateResult {
    const { errors, warnings } = groupIssues(preview.issues);
    const deleting = this._busy?.kind === 'delete';
    const exporting = this._busy?.kind === 'export';
    return html`<section aria-labelledby="preview-heading" data-testid="import-preview" data-import-id=${preview.id}>
      <h2 id="preview-heading" tabindex="-1">Preview: ${preview.name ?? 'Untitled import'}</h2>
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
          <select id="export-format">
            ${EXPORT_FORMATS.map((item) => html`<option value=${item.value}>${item.label}</option>`)}
          </select>
          <button type="button" id="export-import" data-action="export" aria-disabled=${exporting ? 'true' : 'false'} @click=${() => void this.#export(preview)}>
            ${exporting ? 'Exporting…' : 'Download export'}
          </button>
        </span>
        <button type="button" data-action="migrate" aria-describedby="migrate-note" @click=${() => this.#startMigration(preview.id)}>Start a migration…</button>
      </div>
      <p class="hint" id="migrate-note">
        Several playlists download as one ZIP archive with a manifest. A migration takes this import as its source on the
        <a href=${hrefFor('migrate')}>Migrate</a> page.
      </p>
      ${this.#failureNotice('preview')}
      ${preview.issues.length > 0
        ? html`<div class="issue-groups" role="group" aria-labelledby="issues-heading">
            <h3 id="issues-heading">Issues by line</h3>
            ${this.#issueLists(errors, warnings, 'preview')}
          </div>`
        : nothing}
      ${preview.playlists.map((playlist, index) => this.#playlist(playlist, index))}
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
