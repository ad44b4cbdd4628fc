import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { apiRequest, downloadRequest } from '../../../api/http.ts';
import {
  describeImportFailure,
  formatDuration,
  formatLabel,
  groupIssues,
  importPath,
  sourceLabel,
  type ImportFailure,
  type ImportPreview,
  type PreviewPlaylist,
} from '../../../api/imports.ts';
import { plural } from '../../../api/plural.ts';
import { unexpectedAnswer, type Problem } from '../../../api/problem.ts';
import { describeShareFailure, importShareRequest, parseCreatedShare, SHARES_PATH, type CreatedShare } from '../../../api/shares.ts';
import { formatTimestamp } from '../../../api/timestamp.ts';
import { describeExportFailure, EXPORT_HANDOVER_KEY, type ExportFailure, type ExportFormatValue } from '../../../api/exports.ts';
import { IMPORT_HANDOVER_KEY } from '../../../api/migrations.ts';
import { hrefFor } from '../../../router/route.ts';
import { exportFailureNotice } from '../../export-page/export-failure.template.ts';
import { readExportResult, type ExportResult } from '../../export-page/export-result.ts';
import '../../export-page/export-result/index.ts';
import { emit, FocusTarget, nextStepsList, OplLightElement, scrollingTable, TRACK_COLUMNS } from '../../kit/index.ts';
import '../../problem-notice/index.ts';
import { importFailureNotice, issueLists } from '../import-failure.template.ts';

/** What is waiting for the engine on the shown import (the page also knows the three ways in). */
export type PreviewBusy = { readonly kind: 'delete' } | { readonly kind: 'export' } | { readonly kind: 'share' };

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

/**
 * The shown import: its facts, its playlists and issues, and what can be done with it — delete,
 * export, share, hand it to Export or Migrate. The page keeps what is waiting and what went wrong
 * (it shows them beside the ways in too): this list asks for them with `opl-import-busy`,
 * `opl-import-failure`, `opl-import-format`, `opl-import-announce` and `opl-import-deleted`.
 */
export class OplImportPreview extends OplLightElement {
  static override properties = {
    preview: { attribute: false },
    busy: { attribute: false },
    failure: { attribute: false },
    exportFormat: { attribute: false },
    unavailableFormats: { attribute: false },
    _share: { state: true },
    _exportFailure: { state: true },
    _exportResult: { state: true },
    _shownPlaylists: { state: true },
  };

  declare preview: ImportPreview | undefined;
  /** What the page is waiting for, here or beside a way in: nothing else starts meanwhile. */
  declare busy: { readonly kind: string } | undefined;
  /** Why the last deletion failed. */
  declare failure: ImportFailure | undefined;
  declare exportFormat: ExportFormatValue;
  /** Formats the engine cannot write now (their plugin is refused or quarantined): shown, not offered. */
  declare unavailableFormats: ReadonlySet<ExportFormatValue>;
  declare _share: ShareOutcome | undefined;
  /** Why the last "Download export" was refused, in the Export page's words. */
  declare _exportFailure: ExportFailure | undefined;
  /** What the last "Download export" holds, its warnings in words (as the Export page shows them). */
  declare _exportResult: ExportResult | undefined;
  /** How many playlists of the preview are rendered. */
  declare _shownPlaylists: number;
  readonly #focus = new FocusTarget();

  constructor() {
    super();
    this.preview = undefined;
    this.busy = undefined;
    this.failure = undefined;
    this.exportFormat = 'csv';
    this.unavailableFormats = new Set();
    this._share = undefined;
    this._exportFailure = undefined;
    this._exportResult = undefined;
    this._shownPlaylists = PLAYLISTS_SHOWN;
  }

  /** A new preview starts afresh: no share link, no export outcome, the first playlists. */
  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('preview')) return;
    this._share = undefined;
    this._exportFailure = undefined;
    this._exportResult = undefined;
    this._shownPlaylists = PLAYLISTS_SHOWN;
  }

  protected override updated(): void {
    this.#focus.apply(this);
  }

  #setBusy(busy: PreviewBusy | undefined): void {
    // Set here too, so a second click before the page renders again is refused as well.
    this.busy = busy;
    emit(this, 'opl-import-busy', busy);
  }

  #announce(text: string): void {
    emit(this, 'opl-import-announce', text);
  }

  /** Creates a public share of one playlist of the shown import and shows its link. */
  async #createShare(preview: ImportPreview): Promise<void> {
    if (this.busy) return;
    const playlistKey = this.renderRoot.querySelector<HTMLSelectElement>('#share-playlist')?.value ?? preview.playlists[0]?.key ?? '0';
    const expiry = this.renderRoot.querySelector<HTMLSelectElement>('#share-expiry')?.value ?? '';
    this.#setBusy({ kind: 'share' });
    this._share = undefined;
    this.#announce('Creating the share…');
    const result = await apiRequest(SHARES_PATH, { method: 'POST', json: importShareRequest(preview.id, playlistKey, expiry === '' ? null : Number(expiry)) });
    this.#setBusy(undefined);
    if (!result.ok) {
      this._share = describeShareFailure(result.status, result.problem, result.body);
      this.#announce(`Not shared: ${this._share.problem.title}.`);
      return;
    }
    const created = parseCreatedShare(result.data);
    if (!created) {
      this._share = { problem: unexpectedAnswer(result.status, `POST ${SHARES_PATH}`), nextSteps: ['Try again later.'] };
      return;
    }
    this._share = { created };
    this.#announce(`Shared “${created.name}”. The link is ready to copy.`);
    this.#focus.set('share-link');
  }

  async #copyShareLink(link: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(link);
      this.#announce('Link copied.');
    } catch {
      // Clipboard access can be refused (permissions, insecure origin): the link stays selected to copy by hand.
      const input = this.renderRoot.querySelector<HTMLInputElement>('#share-link');
      input?.focus();
      input?.select();
      this.#announce('Copying was not allowed here: the link is selected, copy it with your keyboard.');
    }
  }
  /** Exports the whole import through `POST /api/exports` and hands the file to the browser. */
  async #export(preview: ImportPreview): Promise<void> {
    if (this.busy) return;
    const format = this.exportFormat;
    this.#setBusy({ kind: 'export' });
    this._exportFailure = undefined;
    this._exportResult = undefined;
    this.#announce('');
    const result = await downloadRequest('/api/exports', { source_provider: 'import', source_account_id: preview.id, format });
    this.#setBusy(undefined);
    if (!result.ok) {
      this._exportFailure = describeExportFailure('live', result.status, result.problem, result.body, result.headers?.get('retry-after') ?? null);
      this.#announce(`Not exported: ${this._exportFailure.problem.title}.`);
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
    if (this.preview?.id !== preview.id) return;
    this._exportResult = exported;
    const warnings = Math.max(exported.warningCount, exported.warnings.length);
    this.#announce(`Exported ${result.fileName}${warnings > 0 ? ` with ${plural(warnings, 'warning')}` : ''}.`);
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
    if (this.busy) return;
    this.#setBusy({ kind: 'delete' });
    this._exportFailure = undefined;
    this._exportResult = undefined;
    this.#announce('');
    const result = await apiRequest(importPath(preview.id), { method: 'DELETE' });
    this.#setBusy(undefined);
    // 404 and 410: it is already gone (expired, or deleted elsewhere), which is what was asked.
    if (result.ok || result.status === 404 || result.status === 410) {
      emit(this, 'opl-import-deleted', result.ok ? 'Import deleted.' : 'The import was already gone.');
      return;
    }
    emit(this, 'opl-import-failure', describeImportFailure('file', result.status, result.problem, result.body));
  }
  #shareBlock(preview: ImportPreview): TemplateResult {
    const sharing = this.busy?.kind === 'share';
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
            ${nextStepsList(outcome.nextSteps)}
          </opl-problem-notice>`
        : nothing}
    </div>`;
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
            ${scrollingTable({
              headingId,
              testId: 'tracks-table',
              columns: TRACK_COLUMNS,
              rows: playlist.tracks.map((track, position) => {
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
              }),
            })}`}
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
    this.#focus.set(`playlist-heading-${first}`);
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
    const deleting = this.busy?.kind === 'delete';
    const exporting = this.busy?.kind === 'export';
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
            aria-describedby=${this.unavailableFormats.size > 0 ? 'export-formats-note' : nothing}
            @change=${(event: Event) => {
              emit(this, 'opl-import-format', (event.currentTarget as HTMLSelectElement).value);
              this._exportFailure = undefined;
              this._exportResult = undefined;
            }}
          >
            ${EXPORT_FORMATS.map((item) => {
              const unavailable = this.unavailableFormats.has(item.value);
              return html`<option value=${item.value} ?disabled=${unavailable} ?selected=${this.exportFormat === item.value}>
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
      ${this.unavailableFormats.size > 0
        ? html`<p class="hint" id="export-formats-note">
            A format marked “not available now” cannot be written at the moment: its plugin is not loaded (an administrator can see why on the Plugins page).
          </p>`
        : nothing}
      ${this._exportFailure ? exportFailureNotice(this.#exportFailureHere(this._exportFailure), () => void this.#export(preview), { importHere: true }) : nothing}
      <opl-export-result .result=${this._exportResult} heading="import-export-result-heading"></opl-export-result>
      ${this.failure ? importFailureNotice(this.failure, 'preview') : nothing} ${this.#shareBlock(preview)}
      ${preview.issues.length > 0
        ? html`<div class="issue-groups" role="group" aria-labelledby="issues-heading">
            <h3 id="issues-heading">Issues by line</h3>
            ${issueLists(errors, warnings, 'preview')}
          </div>`
        : nothing}
      ${preview.playlists.slice(0, this._shownPlaylists).map((playlist, index) => this.#playlist(playlist, index))} ${this.#morePlaylists(preview)}
    </section>`;
  }

  override render(): TemplateResult | typeof nothing {
    return this.preview ? this.#previewSection(this.preview) : nothing;
  }
}
