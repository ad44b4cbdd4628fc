import { OplShareCopyPage } from './share-copy-page.component.ts';

export { OplShareCopyPage };

if (!customElements.get('opl-share-copy-page')) customElements.define('opl-share-copy-page', OplShareCopyPage);

declare global {
  interface HTMLElementTagNameMap {
    'opl-share-copy-page': OplShareCopyPage;
  }
}
