import { OplMigratePage } from './migrate-page.component.ts';

export { OplMigratePage };

if (!customElements.get('opl-migrate-page')) customElements.define('opl-migrate-page', OplMigratePage);

declare global {
  interface HTMLElementTagNameMap {
    'opl-migrate-page': OplMigratePage;
  }
}
