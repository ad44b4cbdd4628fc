import { OplSourcePicker } from './source-picker.component.ts';

export { OplSourcePicker };

if (!customElements.get('opl-source-picker')) customElements.define('opl-source-picker', OplSourcePicker);

declare global {
  interface HTMLElementTagNameMap {
    'opl-source-picker': OplSourcePicker;
  }
}
