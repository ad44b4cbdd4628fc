import { OplHistoryPage } from './history-page.component.ts';

export { OplHistoryPage };

if (!customElements.get('opl-history-page')) customElements.define('opl-history-page', OplHistoryPage);

declare global {
  interface HTMLElementTagNameMap {
    'opl-history-page': OplHistoryPage;
  }
}
