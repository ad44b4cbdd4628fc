import { OplHistoryExport } from './history-export.component.ts';

export { OplHistoryExport };

if (!customElements.get('opl-history-export')) customElements.define('opl-history-export', OplHistoryExport);

declare global {
  interface HTMLElementTagNameMap {
    'opl-history-export': OplHistoryExport;
  }
}
