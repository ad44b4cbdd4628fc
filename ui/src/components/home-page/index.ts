import { OplHomePage } from './home-page.component.ts';

export { OplHomePage };

if (!customElements.get('opl-home-page')) customElements.define('opl-home-page', OplHomePage);

declare global {
  interface HTMLElementTagNameMap {
    'opl-home-page': OplHomePage;
  }
}
