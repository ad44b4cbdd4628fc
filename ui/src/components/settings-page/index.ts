import { OplSettingsPage } from './settings-page.component.ts';

export { OplSettingsPage };

if (!customElements.get('opl-settings-page')) customElements.define('opl-settings-page', OplSettingsPage);

declare global {
  interface HTMLElementTagNameMap {
    'opl-settings-page': OplSettingsPage;
  }
}
