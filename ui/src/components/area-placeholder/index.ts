import { OplAreaPlaceholder } from './area-placeholder.component.ts';

export { OplAreaPlaceholder };

if (!customElements.get('opl-area-placeholder')) customElements.define('opl-area-placeholder', OplAreaPlaceholder);

declare global {
  interface HTMLElementTagNameMap {
    'opl-area-placeholder': OplAreaPlaceholder;
  }
}
