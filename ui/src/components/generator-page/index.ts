import { OplGeneratorPage } from './generator-page.component.ts';

export { OplGeneratorPage };

if (!customElements.get('opl-generator-page')) customElements.define('opl-generator-page', OplGeneratorPage);

declare global {
  interface HTMLElementTagNameMap {
    'opl-generator-page': OplGeneratorPage;
  }
}
