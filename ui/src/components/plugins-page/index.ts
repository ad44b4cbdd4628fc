import { OplPluginsPage } from './plugins-page.component.ts';

export { OplPluginsPage };

if (!customElements.get('opl-plugins-page')) customElements.define('opl-plugins-page', OplPluginsPage);

declare global {
  interface HTMLElementTagNameMap {
    'opl-plugins-page': OplPluginsPage;
  }
}
