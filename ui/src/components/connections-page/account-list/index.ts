import { OplAccountList } from './account-list.component.ts';

export { OplAccountList };

if (!customElements.get('opl-account-list')) customElements.define('opl-account-list', OplAccountList);

declare global {
  interface HTMLElementTagNameMap {
    'opl-account-list': OplAccountList;
  }
}
