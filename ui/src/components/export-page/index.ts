import { OplExportPage } from './export-page.component.ts';

export { OplExportPage };

if (!customElements.get('opl-export-page')) customElements.define('opl-export-page', OplExportPage);

declare global {
  interface HTMLElementTagNameMap {
    'opl-export-page': OplExportPage;
  }
}
