import { OplExportResult } from './export-result.component.ts';

export { OplExportResult };

if (!customElements.get('opl-export-result')) customElements.define('opl-export-result', OplExportResult);

declare global {
  interface HTMLElementTagNameMap {
    'opl-export-result': OplExportResult;
  }
}
