import type { OplLibraryDiff } from './library-diff.component.ts';
import { OplLibraryPage } from './library-page.component.ts';

export { OplLibraryPage };

if (!customElements.get('opl-library-page')) customElements.define('opl-library-page', OplLibraryPage);

declare global {
  interface HTMLElementTagNameMap {
    'opl-library-page': OplLibraryPage;
    'opl-library-diff': OplLibraryDiff;
  }
}
