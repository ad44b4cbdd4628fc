import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { availableFormat, type ExportFormatValue } from '../../api/exports.ts';
import { loadUnavailableFormats } from './format-availability.ts';
import { saveBlob } from './save-blob.ts';

/**
 * The format an element exports in and the file it saved last: the Export page and History's
 * "Download playlists" share it. Once connected it asks which formats the engine cannot write now
 * (shown, not offered). The saved file's object URL is offered again as a link and revoked when
 * replaced, forgotten, or when the element goes.
 */
export class ExportFileController implements ReactiveController {
  format: ExportFormatValue = 'csv';
  /** Formats the engine cannot write now (their plugin is refused or quarantined). */
  unavailable: ReadonlySet<ExportFormatValue> = new Set();
  /** Object URL of the last file; empty when there is none. */
  href = '';
  readonly #host: ReactiveControllerHost;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  hostConnected(): void {
    void this.#loadFormats();
  }

  hostDisconnected(): void {
    this.forget();
  }

  choose(format: ExportFormatValue): void {
    this.format = format;
    this.#host.requestUpdate();
  }

  /** Hands the file to the browser and keeps its URL for the link. */
  save(blob: Blob, fileName: string): void {
    this.forget();
    this.href = saveBlob(blob, fileName);
    this.#host.requestUpdate();
  }

  forget(): void {
    if (this.href) URL.revokeObjectURL(this.href);
    this.href = '';
    this.#host.requestUpdate();
  }

  async #loadFormats(): Promise<void> {
    const unavailable = await loadUnavailableFormats();
    if (!unavailable) return;
    this.unavailable = unavailable;
    // The format chosen by then (the user may have picked one while the list was on its way).
    this.format = availableFormat(this.format, unavailable);
    this.#host.requestUpdate();
  }
}
