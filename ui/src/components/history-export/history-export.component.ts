import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import {
  describeExportFailure,
  EXPORT_FORMATS,
  exportFormatOption,
  FORMAT_UNAVAILABLE_TEXT,
  historyExportPath,
  type ExportFailure,
  type ExportFormatValue,
} from '../../api/exports.ts';
import { downloadRequest } from '../../api/http.ts';
import { isFinished, type MigrationJob } from '../../api/migrations.ts';
import { exportOutcomeStyles } from '../../theme/export-outcome.styles.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { panelStyles } from '../../theme/panel.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { exportFailureNotice } from '../export-page/export-failure.template.ts';
import { readExportResult, type ExportResult } from '../export-page/export-result.ts';
import '../export-page/export-result/index.ts';
import { ExportFileController } from '../export-page/export-file.controller.ts';
import { historyExportStyles } from './history-export.styles.ts';

/** Built from stored rows only, but a long migration still takes a while to serialize. */
const EXPORT_TIMEOUT_MS = 300_000;

/**
 * "Download playlists" for one migration in History: the playlist portion of a completed or failed
 * migration as portable files, built from what the engine stored — no account needs to be
 * connected (`POST /api/exports/migrations/{job_id}`). Warnings are put into words, refusals
 * (item details deleted after the retention period, an unfinished job) say what to do next.
 */
export class OplHistoryExport extends LitElement {
  static override styles = [sharedStyles, panelStyles, formStyles, exportOutcomeStyles, historyExportStyles];

  static override properties = {
    job: { attribute: false },
    _busy: { state: true },
    _result: { state: true },
    _failure: { state: true },
    _announcement: { state: true },
  };

  declare job: MigrationJob | undefined;
  declare _busy: boolean;
  declare _result: ExportResult | undefined;
  declare _failure: ExportFailure | undefined;
  declare _announcement: string;
  readonly #file = new ExportFileController(this);

  constructor() {
    super();
    this.job = undefined;
    this._busy = false;
    this._result = undefined;
    this._failure = undefined;
    this._announcement = '';
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Another migration chosen: the last outcome belonged to the previous one.
    if (changed.has('job') && changed.get('job')?.id !== this.job?.id) {
      this.#file.forget();
      this._result = undefined;
      this._failure = undefined;
      this._announcement = '';
    }
  }

  async #download(): Promise<void> {
    const job = this.job;
    if (this._busy || !job) return;
    const format = this.#file.format;
    this._busy = true;
    this._failure = undefined;
    this._result = undefined;
    this.#file.forget();
    this._announcement = `Exporting the playlists of ${job.label} as ${exportFormatOption(format)?.label ?? format}…`;
    const answer = await downloadRequest(historyExportPath(job.id), { format }, EXPORT_TIMEOUT_MS);
    if (this.job?.id !== job.id) {
      this._busy = false;
      return;
    }
    if (!answer.ok) {
      this._busy = false;
      this._failure = describeExportFailure('history', answer.status, answer.problem, answer.body, answer.headers?.get('retry-after') ?? null);
      this._announcement = `Not exported: ${this._failure.problem.title}.`;
      return;
    }
    const result = await readExportResult(answer, { partialPlaylistIds: [] });
    this.#file.save(answer.blob, answer.fileName);
    this._result = result;
    this._busy = false;
    const warnings = Math.max(result.warningCount, result.warnings.length);
    this._announcement = `Downloaded ${result.fileName}${warnings > 0 ? ` with ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}` : ', no warnings'}.`;
    await this.updateComplete;
    await this.renderRoot.querySelector('opl-export-result')?.focusHeading();
  }

  override render(): TemplateResult | typeof nothing {
    const job = this.job;
    if (!job) return nothing;
    const ended = isFinished(job.status);
    return html`<section aria-labelledby="history-export-heading" data-testid="history-export" data-job-id=${job.id}>
      <h2 id="history-export-heading">Download playlists</h2>
      <p>The playlists of this migration as portable files, built from what the engine stored: no account needs to be connected.</p>
      ${!ended
        ? html`<p class="empty">Available once the migration has ended.</p>`
        : html`${job.detailAvailable
              ? nothing
              : html`<p class="note">The track details of this migration were deleted after the retention period; the engine will say what it can still export.</p>`}
            <div class="controls">
              <label for="history-export-format">Format</label>
              <select id="history-export-format" aria-describedby="history-export-explain"
                @change=${(event: Event) => this.#file.choose((event.currentTarget as HTMLSelectElement).value as ExportFormatValue)}>
                ${EXPORT_FORMATS.map((option) => {
                  const unavailable = this.#file.unavailable.has(option.value);
                  return html`<option value=${option.value} ?selected=${option.value === this.#file.format} ?disabled=${unavailable}>${option.label}${unavailable ? ' (not available now)' : ''}</option>`;
                })}
              </select>
              <button type="button" aria-disabled=${this._busy ? 'true' : 'false'} @click=${() => void this.#download()}>
                ${this._busy ? 'Exporting…' : 'Download playlists'}
              </button>
              <p class="hint" id="history-export-explain">
                ${exportFormatOption(this.#file.format)?.explanation ?? ''} Several playlists come as one ZIP archive with a manifest.json.${this.#file.unavailable.size > 0
                  ? html` <span data-testid="unavailable-formats">${[...this.#file.unavailable].map((format) => exportFormatOption(format)?.label ?? format).join(', ')}: ${FORMAT_UNAVAILABLE_TEXT}</span>`
                  : nothing}
              </p>
            </div>`}
      ${this._failure ? exportFailureNotice(this._failure, () => void this.#download()) : nothing}
      <opl-export-result .result=${this._result} href=${this.#file.href} heading="history-export-result-heading"></opl-export-result>
      <span class="visually-hidden" role="status" aria-live="polite">${this._announcement}</span>
    </section>`;
  }
}
