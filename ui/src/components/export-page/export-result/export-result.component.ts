import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { entryResultLabel, formatBytes, warningLabel, warningSentence, type ExportWarning, type ManifestEntry } from '../../../api/exports.ts';
import { sharedStyles } from '../../../theme/shared.styles.ts';
import { tableStyles } from '../../../theme/table.styles.ts';
import type { ExportResult } from '../export-result.ts';
import { exportResultStyles } from './export-result.styles.ts';

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}

/**
 * What was downloaded, in words: the file, an archive's playlists with their status, and every
 * warning as a sentence (plus the engine's own message about it). `href` is the object URL of the
 * file, offered again as a link in case the browser held the first download back.
 */
export class OplExportResult extends LitElement {
  static override styles = [sharedStyles, tableStyles, exportResultStyles];

  static override properties = {
    result: { attribute: false },
    href: { type: String },
    heading: { type: String },
  };

  declare result: ExportResult | undefined;
  declare href: string;
  /** The id of the heading, so the page can move focus to it. */
  declare heading: string;

  constructor() {
    super();
    this.result = undefined;
    this.href = '';
    this.heading = 'export-result-heading';
  }

  /** Focuses the heading (after a download, so keyboard and screen-reader users land on the outcome). */
  async focusHeading(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(`#${this.heading}`)?.focus();
  }

  #entries(entries: readonly ManifestEntry[]): TemplateResult {
    return html`<div class="table-scroll" tabindex="0" role="region" aria-label="Playlists in the archive">
      <table data-testid="manifest-entries">
        <thead>
          <tr><th scope="col">Playlist</th><th scope="col">Result</th><th scope="col">Tracks</th><th scope="col">File</th><th scope="col">Warnings</th></tr>
        </thead>
        <tbody>
          ${entries.map(
            (entry) => html`<tr data-status=${entry.status}>
              <th scope="row" dir="auto">${entry.name || entry.playlistId}</th>
              <td>${entryResultLabel(entry)}</td>
              <td>${entry.trackCount.toLocaleString('en')}</td>
              <td>${entry.file ?? '—'}</td>
              <td>${entry.warningCodes.length === 0 ? 'None' : entry.warningCodes.map(warningLabel).join(', ')}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  #warning(warning: ExportWarning): TemplateResult {
    return html`<li data-code=${warning.code}>
      <strong>${warningSentence(warning.code)}</strong>
      ${warning.message ? html`<span class="engine-words">${warning.message}</span>` : nothing}
    </li>`;
  }

  #warnings(result: ExportResult): TemplateResult {
    if (result.warningCount === 0 && result.warnings.length === 0) return html`<p data-testid="no-warnings">No warnings: everything asked for is in the file.</p>`;
    return html`<div class="warnings" data-testid="export-warnings">
      <h4>${plural(Math.max(result.warningCount, result.warnings.length), 'warning')}</h4>
      ${result.warnings.length > 0 ? html`<ul>${result.warnings.map((warning) => this.#warning(warning))}</ul>` : nothing}
      ${result.unnamed > 0
        ? html`<p data-testid="unnamed-warnings">
            ${result.warnings.length > 0 ? `The engine counted ${plural(result.unnamed, 'more warning')}` : `The engine counted ${plural(result.unnamed, 'warning')}`}
            that a ${result.fileName.split('.').pop()?.toUpperCase() ?? ''} file cannot list. Export as Open Playlist JSON, or several playlists at once (their archive has a manifest), to read
            ${result.unnamed === 1 ? 'it' : 'them'} in words.
          </p>`
        : nothing}
    </div>`;
  }

  override render(): TemplateResult | typeof nothing {
    const result = this.result;
    if (!result) return nothing;
    const playlists = result.entries?.length ?? 0;
    return html`<div class="result" data-testid="export-result" data-file-name=${result.fileName} data-archive=${result.archive ? 'true' : 'false'}>
      <h3 id=${this.heading} tabindex="-1">Downloaded <bdi>${result.fileName}</bdi></h3>
      <p>
        ${formatBytes(result.bytes)}${result.archive
          ? html` · a ZIP archive${result.files ? ` of ${plural(result.files.length, 'file')}` : ''}${playlists > 0 ? ` with ${plural(playlists, 'playlist')}` : ''} and its manifest.json`
          : nothing}.
        ${this.href ? html`<a href=${this.href} download=${result.fileName}>Save the file again</a>` : nothing}
      </p>
      ${result.entries ? this.#entries(result.entries) : nothing}
      ${result.note ? html`<p class="note">${result.note}</p>` : nothing}
      ${this.#warnings(result)}
    </div>`;
  }
}
