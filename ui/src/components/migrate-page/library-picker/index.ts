import { OplLibraryPicker } from './library-picker.component.ts';

export { OplLibraryPicker };

if (!customElements.get('opl-library-picker')) customElements.define('opl-library-picker', OplLibraryPicker);

declare global {
  interface HTMLElementTagNameMap {
    'opl-library-picker': OplLibraryPicker;
  }
}
