import { OplImportPreview } from './import-preview.component.ts';

export { OplImportPreview };

if (!customElements.get('opl-import-preview')) customElements.define('opl-import-preview', OplImportPreview);

declare global {
  interface HTMLElementTagNameMap {
    'opl-import-preview': OplImportPreview;
  }
}
