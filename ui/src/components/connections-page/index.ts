import { OplConnectionsPage } from './connections-page.component.ts';

export { OplConnectionsPage };

if (!customElements.get('opl-connections-page')) customElements.define('opl-connections-page', OplConnectionsPage);

declare global {
  interface HTMLElementTagNameMap {
    'opl-connections-page': OplConnectionsPage;
  }
}
