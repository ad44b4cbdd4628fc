import { OplApp } from './app.component.ts';

export { OplApp };

if (!customElements.get('opl-app')) customElements.define('opl-app', OplApp);

declare global {
  interface HTMLElementTagNameMap {
    'opl-app': OplApp;
  }
}
