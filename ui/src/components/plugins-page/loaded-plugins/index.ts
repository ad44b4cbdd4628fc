import { OplLoadedPlugins } from './loaded-plugins.component.ts';

export { OplLoadedPlugins };

if (!customElements.get('opl-loaded-plugins')) customElements.define('opl-loaded-plugins', OplLoadedPlugins);

declare global {
  interface HTMLElementTagNameMap {
    'opl-loaded-plugins': OplLoadedPlugins;
  }
}
