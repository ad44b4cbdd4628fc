import { OplSharesPage } from './shares-page.component.ts';

export { OplSharesPage };

if (!customElements.get('opl-shares-page')) customElements.define('opl-shares-page', OplSharesPage);

declare global {
  interface HTMLElementTagNameMap {
    'opl-shares-page': OplSharesPage;
  }
}
