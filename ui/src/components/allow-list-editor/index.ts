import { OplAllowListEditor } from './allow-list-editor.component.ts';

export { OplAllowListEditor };

if (!customElements.get('opl-allow-list-editor')) customElements.define('opl-allow-list-editor', OplAllowListEditor);

declare global {
  interface HTMLElementTagNameMap {
    'opl-allow-list-editor': OplAllowListEditor;
  }
}
