import { OplImportPage } from './import-page.component.ts';

export { OplImportPage };

if (!customElements.get('opl-import-page')) customElements.define('opl-import-page', OplImportPage);

declare global {
  interface HTMLElementTagNameMap {
    'opl-import-page': OplImportPage;
  }
}
