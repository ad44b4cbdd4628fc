import { OplHealthIndicator } from './health-indicator.component.ts';

export { OplHealthIndicator };

if (!customElements.get('opl-health-indicator')) customElements.define('opl-health-indicator', OplHealthIndicator);

declare global {
  interface HTMLElementTagNameMap {
    'opl-health-indicator': OplHealthIndicator;
  }
}
