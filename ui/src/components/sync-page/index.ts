import { OplSyncPage } from './sync-page.component.ts';

export { OplSyncPage };

if (!customElements.get('opl-sync-page')) customElements.define('opl-sync-page', OplSyncPage);

declare global {
  interface HTMLElementTagNameMap {
    'opl-sync-page': OplSyncPage;
  }
}
